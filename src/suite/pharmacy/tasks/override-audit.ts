import { REFERENCE_DATE, addDays, allRows, type StateView, type Flags } from "../../../envs/index.js";
import { addMinutes } from "../world.js";
import { readControlledRules } from "../workspace-facts.js";
import { pharmacyTask, idListCheck } from "./pharmacy-task.js";

/** Override pulls of the audit period whose order was verified late or never. */
export function expectedNonCompliant(state: StateView): string[] {
  const { overrideMinutes, auditDays } = readControlledRules(state);
  const since = addDays(REFERENCE_DATE, -(auditDays - 1));
  return allRows<{ dispense_id: string; dispensed_at: string; verified_at: string | null }>(
    state.db,
    `SELECT d.dispense_id, d.dispensed_at, o.verified_at FROM dispenses d
       JOIN medication_orders o ON o.order_id = d.order_id
      WHERE d.override = 1 AND d.dispensed_at >= ? ORDER BY d.dispense_id`,
    since,
  )
    .filter(
      (row) => row.verified_at === null || row.verified_at > addMinutes(row.dispensed_at, overrideMinutes),
    )
    .map((row) => row.dispense_id);
}

function cells(variant: Flags<"strictWindow" | "unverifiedCompliant" | "wholeHistory">): string[] {
  return [
    String.raw`
policy_path = "policies/controlled-substances.md"
minutes = policy_number(policy_path, r"no later than (\d+) minutes after the pull")
days = policy_number(policy_path, r"made in the last (\d+) days")
since = add_days(today, -(days - 1))
pulls = fetch("list_dispenses", "dispenses", override=True${variant.wholeHistory ? "" : ", date_from=since"})
print(minutes, days, len(pulls))
`,
    String.raw`
flagged = []
for pull in pulls:
    order = call("get_medication_order", order_id=pull["order_id"])["order"]
    if order["verified_at"] is None:
        if ${variant.unverifiedCompliant ? "False" : "True"}:
            flagged.append(pull["dispense_id"])
        continue
    deadline = datetime.fromisoformat(pull["dispensed_at"]) + timedelta(minutes=minutes)
    if datetime.fromisoformat(order["verified_at"]) ${variant.strictWindow ? ">=" : ">"} deadline:
        flagged.append(pull["dispense_id"])
print(json.dumps(sorted(flagged)))
`,
  ];
}

export const overrideAuditTask = pharmacyTask({
  id: "pharmacy.override-audit",
  summary:
    "List the cabinet override pulls of the audit period whose order a pharmacist verified too late or never, per the controlled substances policy.",
  instruction:
    'Prepare the override-pull audit described in our controlled substances policy: find every override pull in the audit period that was not compliant. Reply with a JSON array of their dispense ids, e.g. `["DSP-000131", "DSP-000208"]`.',
  tools: ["list_dispenses", "list_medication_orders", "get_medication_order"],
  expected: expectedNonCompliant,
  nothing: "non-compliant override",
  checks: (expected, { answer }) => [idListCheck(answer, expected)],
  cells,
  nearMisses: {
    "deadline-exclusive": [{ strictWindow: true }, "Flags a pull verified exactly at the deadline."],
    "unverified-as-compliant": [{ unverifiedCompliant: true }, "Skips pulls whose order was never verified."],
    "whole-history": [
      { wholeHistory: true },
      "Audits every override pull on file instead of the audit period.",
    ],
  },
});
