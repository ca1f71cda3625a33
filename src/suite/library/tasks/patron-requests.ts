import { checkStateDiff, defineTask, flagNearMisses } from "../../../envs/index.js";
import { libraryDomain } from "../domain.js";
import { requestDecisions } from "../facts.js";
import { checkCounts } from "./common.js";
import { LIBRARY_PY } from "./python.js";

function cells(near: string[]): string[] {
  return [
    LIBRARY_PY,
    `NEAR = set(${JSON.stringify(near)})
policy = read_text("policies/collection-development.md")
caps = {row[0]: float(row[1].replace("$", "").replace(",", "")) for row in md_table(policy, "Format price caps")}
oldest = int(re.search(r"published before (\\d{4})", policy).group(1))
limit = int(re.search(r"at most (\\d+) requests approved", policy).group(1))
pending = sorted(fetch("list_patron_requests", "requests", status="pending"), key=lambda r: (r["requested_on"], r["request_id"]))
approved = {}
for r in fetch("list_patron_requests", "requests", status="approved"):
    if r["decided_on"] >= FY_START or "all-years" in NEAR:
        approved[r["patron_id"]] = approved.get(r["patron_id"], 0) + 1
print(len(pending), caps, oldest, limit)`,
    `counts = {"approved": 0, "declined": 0}
for r in pending:
    within = r["list_price"] < caps[r["format"]] if "strict-cap" in NEAR else r["list_price"] <= caps[r["format"]]
    ok = within and r["pub_year"] >= oldest
    if ok and "no-limit" not in NEAR:
        ok = approved.get(r["patron_id"], 0) < limit
    if ok:
        approved[r["patron_id"]] = approved.get(r["patron_id"], 0) + 1
    call("decide_request", request_id=r["request_id"], decision="approve" if ok else "decline", note="per collection development policy")
    counts["approved" if ok else "declined"] += 1
print(f"approved: {counts['approved']}, declined: {counts['declined']}")`,
  ];
}

export const patronRequestsTask = defineTask({
  id: "library.patron-requests",
  domain: libraryDomain,
  summary:
    "Decide every pending patron purchase request by price caps, publication year and the per-patron fiscal-year limit.",
  instruction:
    "Decide all pending patron purchase requests with decide_request, following the patron purchase request rules in our collection development policy. Reply in the form `approved: 7, declined: 4`.",
  tools: ["list_patron_requests", "decide_request"],
  verify: ({ initial, final, answer }) => {
    const decisions = [...requestDecisions(initial)];
    const approved = decisions.filter(([, decision]) => decision === "approve").length;
    return [
      ...checkStateDiff(initial.db, final.db, [
        {
          table: "patron_requests",
          key: "request_id",
          changed: new Map(
            decisions.map(([id, decision]) => [
              id,
              { status: decision === "approve" ? "approved" : "declined" },
            ]),
          ),
          ignoreColumns: ["decided_on", "decision_note"],
        },
      ]),
      checkCounts(answer, { approved, declined: decisions.length - approved }),
    ];
  },
  oracle: cells([]),
  nearMisses: flagNearMisses(cells, [
    ["no-patron-limit", "Ignores the per-patron approval limit.", "no-limit"],
    [
      "last-years-approvals",
      "Counts approvals from the previous fiscal year against the limit.",
      "all-years",
    ],
    ["cap-exclusive", "Declines a request priced exactly at its format's cap.", "strict-cap"],
  ]),
});
