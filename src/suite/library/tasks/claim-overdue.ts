import {
  REFERENCE_DATE,
  check,
  checkStateDiff,
  defineTask,
  longDate,
  flagNearMisses,
} from "../../../envs/index.js";
import { libraryDomain } from "../domain.js";
import { claimsDue } from "../facts.js";
import { LIBRARY_PY } from "./python.js";

function cells(near: string[]): string[] {
  return [
    LIBRARY_PY,
    `NEAR = set(${JSON.stringify(near)})
policy = read_text("policies/claims-and-cancellations.md")
intervals = {row[0]: int(row[2]) for row in md_table(policy, "Claim intervals")}
default = int(re.search(r"Vendors not listed below get (\\d+) days", policy).group(1))
recent = int(re.search(r"claimed in the last (\\d+) days", policy).group(1))
if "default-interval" in NEAR:
    intervals = {}
on_order = fetch("list_order_lines", "lines", status="ordered")
claims = fetch("list_claims", "claims")
print(len(on_order), len(claims), intervals, default, recent)`,
    `recently = {c["line_id"] for c in claims if c["claimed_on"] >= days_before(recent)}
if "ignore-recent" in NEAR:
    recently = set()
claimed = 0
for line in on_order:
    if line["order_type"] == "standing" and "claim-standing" not in NEAR:
        continue
    if line["line_id"] in recently:
        continue
    if line["ordered_on"] < days_before(intervals.get(line["vendor_id"], default)):
        call("claim_order_line", line_id=line["line_id"], note="not received; please ship or report status")
        claimed += 1
print(f"claimed: {claimed}")`,
  ];
}

export const claimOverdueTask = defineTask({
  id: "library.claim-overdue",
  domain: libraryDomain,
  summary:
    "Claim overdue firm-order lines by vendor claim intervals from the policy (standing orders and recent claims excluded).",
  instruction: `Send today's claims (today is ${longDate(REFERENCE_DATE)}): claim every order line that our claims and cancellations policy says is due for a claim, with claim_order_line, and nothing else. Reply in the form \`claimed: 5\`.`,
  tools: ["list_vendors", "list_order_lines", "list_claims", "claim_order_line"],
  verify: ({ initial, final, answer }) => {
    const due = claimsDue(initial);
    return [
      ...checkStateDiff(initial.db, final.db, [
        {
          table: "claims",
          key: "claim_id",
          added: due.map((line) => ({ line_id: line, claimed_on: REFERENCE_DATE })),
        },
      ]),
      check(
        "answer",
        Number(/claimed\D*(\d+)/i.exec(answer)?.[1]) === due.length,
        `expected claimed: ${due.length}`,
      ),
    ];
  },
  oracle: cells([]),
  nearMisses: flagNearMisses(cells, [
    ["default-interval", "Uses the default interval for every vendor.", "default-interval"],
    ["claims-standing-orders", "Claims lines on standing orders.", "claim-standing"],
    ["reclaims-recent", "Claims lines that were claimed within the last 30 days.", "ignore-recent"],
  ]),
});
