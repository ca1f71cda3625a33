// A task: an instruction (the same at every scale), the tools it exposes, a verifier that computes what is
// right from the instance's own data, an oracle (a reference solution) and near-misses (realistic wrong
// solutions the verifier must reject). `progagent tasks validate` checks all of it at every scale: the null
// agent (doing nothing) gets 0, the oracle 1, the oracle's calls replayed one by one (DTC) 1, every near-miss 0.
import {
  PYTHON_WORKSPACE_HELPERS,
  REFERENCE_DATE,
  check,
  checkStateDiff,
  daysBetween,
  defineTask,
  nearlyEqual,
  parseAnswerNumber,
  roundCents,
  sumCents,
  type StateView,
} from "progagent";
import { libraryDomain } from "../domain.js";
import { parsePolicy } from "../policy.js";
import { POLICY_PATH, type Tier } from "../schema.js";

// The fee every loan should get, by loan id, computed from the initial state: the policy document as
// written and the loans table. Shared by the verifier only; the oracle computes it again in Python.
export function expectedFees(initial: StateView): Map<string, number> {
  const policy = parsePolicy(initial.readFile(POLICY_PATH) ?? "");
  const overdue = initial.db
    .prepare(
      `SELECT l.loan_id, l.due_on, m.tier FROM loans l JOIN members m ON m.member_id = l.member_id
        WHERE l.returned_on IS NULL AND l.due_on < ? ORDER BY l.loan_id`,
    )
    .all(REFERENCE_DATE) as Array<{ loan_id: string; due_on: string; tier: Tier }>;
  const fees = new Map<string, number>();
  for (const loan of overdue) {
    const daysLate = daysBetween(loan.due_on, REFERENCE_DATE);
    if (daysLate <= policy.graceDays) continue;
    const fee = Math.min(policy.capPerLoan, roundCents(policy.dailyRate[loan.tier] * daysLate));
    if (fee > 0) fees.set(loan.loan_id, fee);
  }
  return fees;
}

// The oracle and the near-misses share one program; each near-miss changes one decision. Cells are Python
// run in the sandboxed kernel, one after another; the last cell's printed output is the answer.
function cells(variant: { ignoreGrace?: boolean; noCap?: boolean } = {}): string[] {
  return [
    // Cell 1: helpers (fetch_all pages a list tool, read_text reads a workspace file) and the policy.
    `import re
from datetime import date
${PYTHON_WORKSPACE_HELPERS}
policy = read_text("${POLICY_PATH}")
grace = int(re.search(r"more than (\\d+) days", policy).group(1))
cap = float(re.search(r"never more than \\$(\\d+\\.\\d\\d)", policy).group(1))
rates = {m.group(1): float(m.group(2)) for m in re.finditer(r"^\\| (\\w+) \\| (\\d+\\.\\d\\d) \\|$", policy, re.M)}
print(grace, cap, rates)`,
    // Cell 2: every loan still out and overdue, its fee, one charge per loan that owes one; the total.
    `today = date.fromisoformat("${REFERENCE_DATE}")
total = 0.0
for loan in fetch_all("list_loans", "loans", status="out", due_before="${REFERENCE_DATE}"):
    days = (today - date.fromisoformat(loan["due_on"])).days
    if days <= ${variant.ignoreGrace ? "0" : "grace"}:
        continue
    fee = round(rates[loan["member_tier"]] * days + 1e-9, 2)
    ${variant.noCap ? "pass" : "fee = min(cap, fee)"}
    if fee > 0:
        tools.charge_late_fee(loan_id=loan["loan_id"], amount=fee)
        total += fee
print(f"{total:.2f}")`,
  ];
}

export const lateFeesTask = defineTask({
  // "<domain id>.<slug>", unique across every suite loaded together.
  id: "lending.late-fees",
  domain: libraryDomain,
  // One line for `progagent tasks list`.
  summary: "Charge the late fees the policy sets on overdue loans still out (grace period, tier rates, cap).",
  // What the agent is told. It states everything the verifier checks (which loans, which amount, that
  // nothing else changes) and the answer format; it never states the answer.
  instruction: `Please charge the late fees our policy (${POLICY_PATH}) sets on the loans that are still out and overdue as of today, ${REFERENCE_DATE}: one charge for every loan the policy says owes a fee, for the amount it sets. Don't change anything else. Reply with only the total of the fees you charged, in dollars (for example 12.50).`,
  // The domain tools this task exposes (read_file, list_files and search_files are always added).
  tools: ["list_loans", "charge_late_fee"],
  // The verifier: binary reward, 1 only when every check passes. initial/final are the states before and
  // after the episode; answer is what the agent gave to claim_done.
  verify: ({ initial, final, answer }) => {
    const expected = expectedFees(initial);
    // A generator bug (nothing to charge) must fail loudly, not make the task trivially passable.
    if (expected.size === 0) throw new Error("the generator produced no loan that owes a fee");
    const total = sumCents(expected.values());
    return [
      // The right loans got exactly the right late_fee, no other loan and no other table changed.
      ...checkStateDiff(initial.db, final.db, [
        {
          table: "loans",
          key: "loan_id",
          changed: new Map([...expected].map(([id, fee]) => [id, { late_fee: fee }])),
        },
      ]),
      // The answer is the total, to the cent.
      check(
        "answer",
        nearlyEqual(parseAnswerNumber(answer) ?? Number.NaN, total, 0.005),
        `expected ${total.toFixed(2)}, got '${answer.trim()}'`,
      ),
    ];
  },
  oracle: cells(),
  // At least two, each a mistake a capable agent could make; each must get reward 0 at every scale.
  nearMisses: [
    {
      id: "ignores-grace-period",
      description: "Charges loans that are overdue but still within the grace period.",
      cells: cells({ ignoreGrace: true }),
    },
    {
      id: "ignores-cap",
      description: "Charges the daily rate times the days late without the per-loan cap.",
      cells: cells({ noCap: true }),
    },
  ],
});
