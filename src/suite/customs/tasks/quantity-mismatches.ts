import { allRows, defineTask, type StateView } from "../../../envs/index.js";
import { customsDomain } from "../domain.js";
import { readShipments } from "../facts.js";
import { checkAmounts, customsPrograms } from "./expect.js";

/** Per June arrival, the number of invoice lines whose packed quantity differs (shipments with any). */
export function expectedMismatches(state: StateView): Map<string, number> {
  const june = new Set(
    allRows<{ shipment_id: string }>(
      state.db,
      "SELECT shipment_id FROM shipments WHERE arrival_date >= '2025-06-01'",
    ).map((row) => row.shipment_id),
  );
  const result = new Map<string, number>();
  for (const shipment of readShipments(state)) {
    if (!june.has(shipment.shipment_id) || !shipment.packed) continue;
    const lines = shipment.lines
      .filter((line) => shipment.packed!.get(line.no) !== line.qty)
      .map((line) => line.no);
    if (lines.length > 0)
      result.set(
        shipment.shipment_id,
        lines.reduce((sum, no) => sum + 2 ** no, 0),
      );
  }
  return result;
}

const SETUP = `shipments = fetch("list_shipments", "shipments", arrived_from="2025-06-01")
print(len(shipments))`;

const BODY = `result = {}
for shipment in shipments:
    docs = call("get_shipment", shipment_id=shipment["shipment_id"])["documents"]
    packing = [d["doc_id"] for d in docs if d["doc_type"] == "packing_list"]
    if not packing:
        continue
    invoice = read_invoice([d for d in docs if d["doc_type"] == "commercial_invoice"][0]["doc_id"])
    packed = read_packing(packing[0])
    lines = [l["no"] for l in invoice["lines"] if packed.get(l["no"]) != l["qty"]]
    if lines:
        result[shipment["shipment_id"]] = sorted(lines)
print(json.dumps(result))`;

/** The answer's line lists as bit sums, so the amount checker compares sets of lines exactly. */
function asBits(answer: string): string {
  try {
    const parsed = JSON.parse(answer.slice(answer.indexOf("{"), answer.lastIndexOf("}") + 1)) as Record<
      string,
      unknown
    >;
    return JSON.stringify(
      Object.fromEntries(
        Object.entries(parsed).map(([key, lines]) => [
          key,
          Array.isArray(lines) ? [...new Set(lines.map(Number))].reduce((sum, no) => sum + 2 ** no, 0) : NaN,
        ]),
      ),
    );
  } catch {
    return answer;
  }
}

export const quantityMismatchesTask = defineTask({
  id: "customs.quantity-mismatches",
  domain: customsDomain,
  summary:
    "Invoice lines whose OCR'd packing-list quantity differs from the invoiced quantity, for June arrivals (multi-page documents, pages still processing).",
  instruction:
    'For every shipment that arrived on or after 2025-06-01 and has both a commercial invoice and a packing list on file, compare each invoice line\'s quantity with the quantity the packing list gives for the same line number. Reply with only a JSON object mapping each shipment with at least one difference to the sorted list of its differing line numbers, e.g. {"SHP-00012": [2, 7]}.',
  tools: ["list_shipments", "get_shipment", "list_documents", "get_document_page"],
  verify: ({ initial, answer }) => [checkAmounts("mismatches", asBits(answer), expectedMismatches(initial))],
  ...customsPrograms(SETUP, BODY, [
    ["first-page-only", "Reads only the first page of each document.", "first-page"],
    ["reads-processing-pages", "Takes a 'still processing' page as the page's text.", "processing"],
  ]),
});
