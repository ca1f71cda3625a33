import { checkAnswerAmounts, roundCents } from "../../../envs/index.js";
import type { StateView, VerifyContext } from "../../../envs/index.js";
import { agreements, deliveries } from "./facts.js";
import { defineRestaurantTask } from "./common.js";

const JUNE = { from: "2025-06-01", to: "2025-06-30" };

/** Overcharges in June by supplier: invoiced above the ordered item's agreed price beyond the tolerance. */
export function expectedOvercharges(state: StateView): Map<string, number> {
  const terms = agreements(state);
  const totals = new Map<string, number>();
  for (const line of deliveries(state)) {
    if (line.delivered_on < JUNE.from || line.delivered_on > JUNE.to) continue;
    const agreement = terms.get(line.supplier_id);
    const agreed = agreement?.prices.get(line.ordered_item);
    if (agreed === undefined || line.case_price <= agreed * (1 + agreement!.tolerance / 100) + 1e-9) continue;
    totals.set(
      line.supplier_id,
      (totals.get(line.supplier_id) ?? 0) + (line.case_price - agreed) * line.cases,
    );
  }
  return new Map([...totals].map(([supplier, total]) => [supplier, roundCents(total)]));
}

function verify({ initial, answer }: VerifyContext) {
  const expected = expectedOvercharges(initial);
  if (expected.size === 0) throw new Error("no breach planted");
  return [checkAnswerAmounts("answer", answer, expected, 0.011)];
}

interface Variant {
  noTolerance?: boolean;
  deliveredItem?: boolean;
  orderedCases?: boolean;
}

function cells(variant: Variant): string[] {
  return [
    String.raw`
terms = {}
for path in sorted(glob.glob("agreements/*.md")):
    text = read_text(path)
    supplier = re.search(r"supplier id (SUP-\d+)", text).group(1)
    tolerance = int(re.search(r"at most (\d+)%", text).group(1))
    terms[supplier] = (tolerance, {row[0]: float(row[2]) for row in md_table(text, "Agreed prices")})
ordered = {po["po_id"]: po for po in fetch("list_purchase_orders", "purchase_orders", status="delivered")}
print(len(terms), len(ordered))
`,
    String.raw`
totals = {}
for supplier in fetch("list_suppliers", "suppliers"):
    sid = supplier["supplier_id"]
    for line in fetch("list_deliveries", "deliveries", supplier_id=sid, date_from="2025-06-01", date_to="2025-06-30"):
        tolerance, prices = terms.get(sid, (0, {}))
        po = ordered[line["po_id"]]
        agreed = prices.get(line["item_id"] if ${variant.deliveredItem ? "True" : "False"} else po["item_id"])
        limit = agreed * (1 + ${variant.noTolerance ? "0" : "tolerance"} / 100) if agreed is not None else None
        if agreed is None or line["case_price"] <= limit + 1e-9:
            continue
        cases = po["cases"] if ${variant.orderedCases ? "True" : "False"} else line["cases"]
        totals[sid] = totals.get(sid, 0) + (line["case_price"] - agreed) * cases
print(json.dumps({sid: round(total, 2) for sid, total in totals.items()}))
`,
  ];
}

export const priceBreachesTask = defineRestaurantTask({
  id: "restaurant.price-breaches",
  summary:
    "Total June overcharges per supplier against the price agreements, with tolerances and substitutions.",
  instruction:
    'Check every delivery received in June 2025 against the supplier price agreements in agreements/. For each supplier that breached its agreement, total the overcharge: on each breaching delivery, the invoiced case price minus the agreed case price, times the cases received. Reply with a JSON object mapping supplier id to that total in dollars (rounded to cents), only suppliers with a breach, e.g. {"SUP-03": 41.27}.',
  tools: ["list_suppliers", "list_items", "list_deliveries", "list_purchase_orders", "get_purchase_order"],
  verify,
  cells,
  nearMisses: {
    "ignores-tolerance": [
      { noTolerance: true },
      "Flags every line above the agreed price, inside the tolerance too.",
    ],
    "substitutes-by-delivered-item": [
      { deliveredItem: true },
      "Looks up the delivered substitute instead of the item ordered, so substitutions escape.",
    ],
    "ordered-cases": [{ orderedCases: true }, "Multiplies by the cases ordered instead of received."],
  },
});
