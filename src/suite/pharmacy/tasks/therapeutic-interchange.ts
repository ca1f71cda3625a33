import { allRows, checkAnswerCount, checkStateDiff, defineTask, roundCents } from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { pharmacyDomain } from "../domain.js";
import { readInterchanges } from "../workspace-facts.js";
import { PHARMACY_PY } from "./python.js";

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

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const expected = expectedInterchanges(initial);
  if (expected.size === 0) throw new Error("generation produced no order to convert");
  return [
    ...checkStateDiff(initial.db, final.db, [
      { table: "medication_orders", key: "order_id", changed: expected },
    ]),
    checkAnswerCount(answer, expected.size),
  ];
}

interface Variant {
  ignoreDaw?: boolean;
  includeDeferred?: boolean;
  keepDose?: boolean;
}

function cells(variant: Variant): string[] {
  return [
    PHARMACY_PY,
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

export const therapeuticInterchangeTask = defineTask({
  id: "pharmacy.therapeutic-interchange",
  domain: pharmacyDomain,
  summary:
    "Convert active orders of non-formulary products to their formulary alternatives per the P&T memo: approved rows only, dose factor, dispense-as-written orders untouched.",
  instruction:
    "Carry out the therapeutic interchanges from the Pharmacy and Therapeutics Committee memo in committee/: convert the affected active medication orders with substitute_order, exactly as the memo says, including the dose conversion. Change nothing else. Reply with the number of orders you converted, e.g. `Converted 8 orders`.",
  tools: ["list_drugs", "get_drug", "list_medication_orders", "get_medication_order", "substitute_order"],
  verify,
  oracle: cells({}),
  nearMisses: [
    {
      id: "converts-dispense-as-written",
      description: "Also converts orders the prescriber marked dispense as written.",
      cells: cells({ ignoreDaw: true }),
    },
    {
      id: "applies-deferred-rows",
      description: "Converts orders of interchanges the committee deferred.",
      cells: cells({ includeDeferred: true }),
    },
    {
      id: "keeps-original-dose",
      description: "Switches the drug but keeps the original dose instead of applying the dose factor.",
      cells: cells({ keepDose: true }),
    },
  ],
});
