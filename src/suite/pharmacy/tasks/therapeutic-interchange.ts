import { allRows, checkAnswerCount, checkStateDiff, roundCents, type Flags } from "../../../envs/index.js";
import type { StateView } from "../../../envs/index.js";
import { readInterchanges } from "../workspace-facts.js";
import { pharmacyTask } from "./pharmacy-task.js";

/** New drug, dose and origin by order id for the approved interchanges. */
export function expectedInterchanges(state: StateView): Map<string, Record<string, string | number>> {
  const changes = new Map<string, Record<string, string | number>>();
  for (const row of readInterchanges(state).filter((candidate) => candidate.approved))
    for (const order of allRows<{ order_id: string; dose: number }>(
      state.db,
      "SELECT order_id, dose FROM medication_orders WHERE drug_id = ? AND status = 'active' AND dispense_as_written = 0",
      row.from,
    ))
      changes.set(order.order_id, {
        drug_id: row.to,
        dose: roundCents(order.dose * row.factor),
        substituted_from: row.from,
      });
  return changes;
}

function cells(variant: Flags<"ignoreDaw" | "includeDeferred" | "keepDose">): string[] {
  return [
    String.raw`
memo = read_text("committee/formulary-memo-2025-06.md")
section = memo.split("## Therapeutic interchange", 1)[1].split("\n## ", 1)[0]
rules = []
for line in section.splitlines():
    cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
    if len(cells) == 6 and re.fullmatch(r"D-\d{4}", cells[0]):
        rules.append({"from": cells[0], "to": cells[2], "factor": float(cells[4]), "decision": cells[5]})
print(rules)
`,
    String.raw`
converted = 0
for rule in rules:
    if rule["decision"] != "approved"${variant.includeDeferred ? ' and rule["decision"] != "deferred"' : ""}:
        continue
    for order in fetch("list_medication_orders", "orders", status="active", drug_id=rule["from"]):
        if order["dispense_as_written"]${variant.ignoreDaw ? " and False" : ""}:
            continue
        dose = round(order["dose"] * ${variant.keepDose ? "1" : 'rule["factor"]'}, 2)
        call("substitute_order", order_id=order["order_id"], drug_id=rule["to"], dose=dose)
        converted += 1
print(f"Converted {converted} orders")
`,
  ];
}

export const therapeuticInterchangeTask = pharmacyTask({
  id: "pharmacy.therapeutic-interchange",
  summary:
    "Convert active orders of non-formulary products to their formulary alternatives per the P&T memo: approved rows only, dose factor, dispense-as-written orders untouched.",
  instruction:
    "Carry out the therapeutic interchanges from the Pharmacy and Therapeutics Committee memo in committee/: convert the affected active medication orders with substitute_order, exactly as the memo says, including the dose conversion. Change nothing else. Reply with the number of orders you converted, e.g. `Converted 8 orders`.",
  tools: ["list_drugs", "get_drug", "list_medication_orders", "get_medication_order", "substitute_order"],
  expected: expectedInterchanges,
  nothing: "order to convert",
  checks: (expected, { initial, final, answer }) => [
    ...checkStateDiff(initial.db, final.db, [
      { table: "medication_orders", key: "order_id", changed: expected },
    ]),
    checkAnswerCount(answer, expected.size),
  ],
  cells,
  nearMisses: {
    "converts-dispense-as-written": [
      { ignoreDaw: true },
      "Also converts orders the prescriber marked dispense as written.",
    ],
    "applies-deferred-rows": [
      { includeDeferred: true },
      "Converts orders of interchanges the committee deferred.",
    ],
    "keeps-original-dose": [
      { keepDose: true },
      "Switches the drug but keeps the original dose instead of applying the dose factor.",
    ],
  },
});
