import { defineTask, type StateView } from "../../../envs/index.js";
import { customsDomain } from "../domain.js";
import { hasDiscrepancy, readRules, readShipments } from "../facts.js";
import { checkIdList, nearMisses } from "./expect.js";
import { CUSTOMS_PY } from "./python.js";

export function expectedDiscrepancies(state: StateView, statuses: string[]): string[] {
  const rules = readRules(state);
  return readShipments(state)
    .filter((shipment) => statuses.includes(shipment.status) && hasDiscrepancy(shipment, rules))
    .map((shipment) => shipment.shipment_id);
}

/** Python: `discrepancies(statuses)` -> [(shipment, invoice total)] as the memo defines them. */
export const DISCREPANCY_PY = String.raw`
def invoice_total(shipment):
    docs = call("get_shipment", shipment_id=shipment["shipment_id"])["documents"]
    invoice = read_invoice([d for d in docs if d["doc_type"] == "commercial_invoice"][0]["doc_id"])
    return invoice["total"] if invoice["total"] is not None else money(sum(l["amount"] for l in invoice["lines"]))

def discrepancies(status):
    tolerance = 0.0 if "no-tolerance" in NEAR else rules["tolerance"]
    found = []
    for shipment in fetch("list_shipments", "shipments", status=status):
        total = invoice_total(shipment)
        if abs(shipment["declared_value"] - total) >= tolerance - 1e-9 and abs(shipment["declared_value"] - total) > 1e-9:
            found.append((shipment, total))
    return found
`;

function cells(near: string[]): string[] {
  return [
    CUSTOMS_PY,
    `NEAR = set(${JSON.stringify(near)})
rules = read_rules()${DISCREPANCY_PY}`,
    `print(json.dumps(sorted(s["shipment_id"] for s, total in discrepancies("arrived"))))`,
  ];
}

export const valueDiscrepanciesTask = defineTask({
  id: "customs.value-discrepancies",
  domain: customsDomain,
  summary:
    "Arrived shipments whose declared value disagrees with the OCR'd invoice total (multi-page invoices, rounding tolerance).",
  instruction:
    'Before we file anything, find the arrived shipments whose declared value disagrees with the TOTAL INVOICE VALUE on their scanned commercial invoice, as the "Declared value checks" section of our duty and preference rules memo defines a discrepancy. Reply with only a JSON array of those shipment ids, e.g. ["SHP-00012", "SHP-00031"].',
  tools: ["list_shipments", "get_shipment", "list_documents", "get_document_page"],
  verify: ({ initial, answer }) => [
    checkIdList("discrepancies", answer, expectedDiscrepancies(initial, ["arrived"]), /SHP-\d{5}/),
  ],
  oracle: cells([]),
  nearMisses: nearMisses(cells, [
    ["no-tolerance", "Flags rounding differences the memo accepts.", "no-tolerance"],
    [
      "first-page-only",
      "Reads only page 1 of each invoice and sums its lines when no total is printed there.",
      "first-page",
    ],
    ["reads-processing-pages", "Takes a 'still processing' page as the page's text.", "processing"],
  ]),
});
