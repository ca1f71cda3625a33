import { REFERENCE_DATE, check, checkStateDiff, defineTask, flagNearMisses } from "../../../envs/index.js";
import { libraryDomain } from "../domain.js";
import { linesToCancel } from "../facts.js";
import { LIBRARY_PY } from "./python.js";

function cells(near: string[]): string[] {
  return [
    LIBRARY_PY,
    `NEAR = set(${JSON.stringify(near)})
policy = read_text("policies/claims-and-cancellations.md")
cancel_codes = {row[0] for row in md_table(policy, "Notice status codes") if row[2] == "cancel"}
if "op-only" in NEAR:
    cancel_codes = {"OP"}
paths = [f["path"] for f in fetch_all("list_files", "files", path="notices")]
latest, ever = {}, {}
for path in paths:
    text = read_text(path if path.startswith("notices/") else "notices/" + path)
    day = re.search(r"NOTICE DATE: (\\d{4}-\\d{2}-\\d{2})", text).group(1)
    for raw in text.split("\\n"):
        m = re.match(r"^(\\d{3})\\s+(POL-\\d{6})\\s+(\\S+)\\s+(\\d+)\\s+(\\d+)\\s+([A-Z]+)\\s", raw)
        if m:
            ever.setdefault(m.group(2), set()).add(m.group(6))
            if latest.get(m.group(2), ("", ""))[0] < day:
                latest[m.group(2)] = (day, m.group(6))
print(len(paths), len(latest))`,
    `on_order = {l["line_id"] for l in fetch("list_order_lines", "lines", status="ordered")}
cancelled = 0
for line, (day, code) in sorted(latest.items()):
    hit = bool(ever[line] & cancel_codes) if "any-report" in NEAR else code in cancel_codes
    if hit and line in on_order:
        call("cancel_order_line", line_id=line, reason=f"vendor notice {day}: {code}")
        cancelled += 1
print(f"cancelled: {cancelled}")`,
  ];
}

export const cancelFromNoticesTask = defineTask({
  id: "library.cancel-from-notices",
  domain: libraryDomain,
  summary:
    "Cancel lines whose latest vendor shipping notice reports a cancel code (plain-text notices, superseded reports; releases checked).",
  instruction:
    "Go through the vendors' shipping notices in the workspace and cancel, with cancel_order_line, every line on order that our claims and cancellations policy says to cancel from them; nothing else. Reply in the form `cancelled: 3`.",
  tools: ["list_order_lines", "cancel_order_line"],
  verify: ({ initial, final, answer }) => {
    const lines = linesToCancel(initial);
    if (lines.length < 3) throw new Error("generation planted too few cancellations");
    return [
      ...checkStateDiff(initial.db, final.db, [
        {
          table: "order_lines",
          key: "line_id",
          changed: new Map(lines.map((line) => [line.line_id, { status: "cancelled" }])),
          ignoreColumns: ["cancel_reason"],
        },
        {
          table: "fund_transactions",
          key: "txn_id",
          added: lines.map((line) => ({
            fund_code: line.fund_code,
            kind: "release",
            amount: line.encumbered,
            reference: line.line_id,
            posted_on: REFERENCE_DATE,
          })),
        },
      ]),
      check(
        "answer",
        Number(/cancelled\D*(\d+)/i.exec(answer)?.[1]) === lines.length,
        `expected cancelled: ${lines.length}`,
      ),
    ];
  },
  oracle: cells([]),
  nearMisses: flagNearMisses(cells, [
    ["out-of-print-only", "Cancels only OP lines, not the policy's other cancel codes.", "op-only"],
    [
      "superseded-reports",
      "Cancels a line any notice ever reported with a cancel code, even if a later notice supersedes it.",
      "any-report",
    ],
  ]),
});
