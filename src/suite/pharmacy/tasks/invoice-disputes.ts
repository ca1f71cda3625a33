import { allRows, type StateView, type Flags } from "../../../envs/index.js";
import { readInvoice } from "../workspace-facts.js";
import { pharmacyTask, idListCheck } from "./pharmacy-task.js";

/** Purchase orders whose invoice line the invoice review rule disputes. */
export function expectedDisputes(state: StateView): string[] {
  const { toleranceCents, lines } = readInvoice(state);
  const orders = new Map(
    allRows<{ po_id: string; status: string; packs: number; pack_cost: number }>(
      state.db,
      "SELECT p.po_id, p.status, p.packs, d.pack_cost FROM purchase_orders p JOIN drugs d ON d.drug_id = p.drug_id",
    ).map((row) => [row.po_id, row]),
  );
  return lines
    .filter((line) => {
      const order = orders.get(line.po);
      if (!order) return true;
      return (
        order.status === "cancelled" ||
        line.packs > order.packs ||
        line.priceCents - Math.round(order.pack_cost * 100) > toleranceCents
      );
    })
    .map((line) => line.po);
}

function cells(variant: Flags<"disputeShort" | "toleranceInclusive" | "ignoreCancelled">): string[] {
  return [
    String.raw`
policy = read_text("policies/inventory-management.md")
tolerance = round(float(re.search(r"more than \$(\d+\.\d{2}) above the catalog pack cost", policy).group(1)) * 100)
invoice_path = [p for p in workspace_files("inbox") if "-wholesaler-invoice-" in p][0]
lines = [(m.group(1), int(m.group(2)), round(float(m.group(3).replace(",", "")) * 100))
         for m in re.finditer(r"^(PO-\d{5})\s+D-\d{4}\s.*?\s(\d+) pk\s+@ \$([\d,]+\.\d{2})/pk", read_text(invoice_path), re.M)]
print(tolerance, len(lines))
`,
    String.raw`
costs, disputed = {}, []
for po_id, packs, price in lines:
    order = call("get_purchase_order", po_id=po_id)["purchase_order"]
    if order["drug_id"] not in costs:
        costs[order["drug_id"]] = round(call("get_drug", drug_id=order["drug_id"])["drug"]["pack_cost"] * 100)
    over_price = price - costs[order["drug_id"]] ${variant.toleranceInclusive ? ">=" : ">"} tolerance
    wrong_packs = packs ${variant.disputeShort ? "!=" : ">"} order["packs"]
    cancelled = ${variant.ignoreCancelled ? "False" : 'order["status"] == "cancelled"'}
    if cancelled or wrong_packs or over_price:
        disputed.append(po_id)
print(json.dumps(sorted(disputed)))
`,
  ];
}

export const invoiceDisputesTask = pharmacyTask({
  id: "pharmacy.invoice-disputes",
  summary:
    "Check the wholesaler's e-mailed invoice against purchase orders and catalog pack costs; list the lines to dispute per the invoice review rule.",
  instruction:
    'The wholesaler\'s latest invoice came in by e-mail (inbox/). Review every line against its purchase order and our catalog as the inventory management policy\'s invoice review rule says, and tell me which lines to dispute. Reply with a JSON array of the purchase order ids of the disputed lines, e.g. `["PO-00003", "PO-00017"]`.',
  tools: ["list_purchase_orders", "get_purchase_order", "list_drugs", "get_drug"],
  expected: expectedDisputes,
  nothing: "invoice line to dispute",
  checks: (expected, { answer }) => [idListCheck(answer, expected)],
  cells,
  nearMisses: {
    "disputes-backorders": [
      { disputeShort: true },
      "Disputes lines that shipped fewer packs than ordered, which the policy calls backorders.",
    ],
    "tolerance-inclusive": [
      { toleranceInclusive: true },
      "Disputes a pack price exactly at the tolerance above catalog cost.",
    ],
    "ignores-cancelled-orders": [
      { ignoreCancelled: true },
      "Does not dispute a line billing a cancelled purchase order.",
    ],
  },
});
