import { check, defineTask, roundCents, type StateView } from "../../../envs/index.js";
import { newsroomDomain } from "../domain.js";
import { compareNumbers } from "./expectations.js";
import { NEWSROOM_PY } from "./python.js";

const QUARTER = { from: "2025-04-01", to: "2025-06-30" };

export function expectedSpend(state: StateView): Map<string, number> {
  const rows = state.db
    .prepare(
      `SELECT s.desk, SUM(p.amount) AS total FROM payments p JOIN commissions c ON c.commission_id = p.commission_id
         JOIN stories s ON s.story_id = c.story_id
        WHERE p.status = 'paid' AND p.paid_on BETWEEN ? AND ? GROUP BY s.desk ORDER BY s.desk`,
    )
    .all(QUARTER.from, QUARTER.to) as Array<{ desk: string; total: number }>;
  return new Map(rows.map((row) => [row.desk, roundCents(row.total)]));
}

interface Variant {
  approvalDate?: boolean;
  skipFailedPage?: boolean;
}

function cells(variant: Variant): string[] {
  const pager = variant.skipFailedPage
    ? `payments, page = [], 1
while True:
    try:
        result = tools.list_payments(status="paid", page=page, per_page=50)
    except ToolError:
        break
    payments += result["payments"]
    if not result["has_more"]:
        break
    page += 1`
    : `payments = fetch_all_retrying("list_payments", "payments", status="paid")`;
  const when = variant.approvalDate ? `p["approved_on"]` : `p["paid_on"]`;
  return [
    NEWSROOM_PY,
    `${pager}
commissions = {c["commission_id"]: c for c in fetch_all("list_commissions", "commissions")}
print(len(payments), len(commissions))`,
    `totals, desks = {}, {}
for p in payments:
    if not ("${QUARTER.from}" <= ${when} <= "${QUARTER.to}"):
        continue
    story_id = commissions[p["commission_id"]]["story_id"]
    if story_id not in desks:
        desks[story_id] = tools.get_story(story_id=story_id)["story"]["desk"]
    totals[desks[story_id]] = round(totals.get(desks[story_id], 0) + p["amount"], 2)
print(json.dumps(totals))`,
  ];
}

export const freelanceSpendTask = defineTask({
  id: "newsroom.freelance-spend",
  domain: newsroomDomain,
  summary:
    "Sum freelance payments made in the second quarter per desk of the commissioned story (flaky payments API).",
  instruction: `Finance wants freelance spend by desk for April-June 2025: add up the freelance payments actually paid out between ${QUARTER.from} and ${QUARTER.to} inclusive, by the desk of the story each commission was for. Reply with only a JSON object mapping desk to total in USD, listing only desks with spend.`,
  tools: ["list_payments", "list_commissions", "get_story", "list_stories"],
  verify: ({ initial, answer }) => {
    const expected = expectedSpend(initial);
    if (expected.size === 0) throw new Error("generation produced no payment in the quarter");
    const problems = compareNumbers(answer, expected);
    return [check("answer", problems.length === 0, problems.slice(0, 4).join("; ") || "ok")];
  },
  oracle: cells({}),
  nearMisses: [
    {
      id: "approval-date",
      description: "Selects payments by approval date instead of the date they were paid.",
      cells: cells({ approvalDate: true }),
    },
    {
      id: "drops-failed-page",
      description: "Stops paging when the payments API fails instead of retrying, losing payments.",
      cells: cells({ skipFailedPage: true }),
    },
  ],
});
