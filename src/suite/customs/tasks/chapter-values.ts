import { allRows, defineTask, roundCents, type StateView } from "../../../envs/index.js";
import { customsDomain } from "../domain.js";
import { readRules, readShipments } from "../facts.js";
import { checkAmounts, customsPrograms } from "./expect.js";

/** Customs value in USD per HS chapter over the shipments of entries filed in the second quarter. */
export function expectedChapterValues(state: StateView): Map<string, number> {
  const rules = readRules(state);
  const filed = new Set(
    allRows<{ shipment_id: string }>(
      state.db,
      "SELECT shipment_id FROM entries WHERE filed_on BETWEEN '2025-04-01' AND '2025-06-30'",
    ).map((row) => row.shipment_id),
  );
  const values = new Map<string, number>();
  for (const shipment of readShipments(state).filter((item) => filed.has(item.shipment_id)))
    for (const line of shipment.lines) {
      const chapter = line.hs.slice(0, 2);
      values.set(
        chapter,
        roundCents(
          (values.get(chapter) ?? 0) + roundCents(line.amount * rules.rates.get(shipment.currency)!),
        ),
      );
    }
  return values;
}

const SETUP = `rules = read_rules()
entries = fetch("list_entries", "entries", filed_from="2025-04-01", filed_to="2025-06-30")
print(len(entries), "entries")`;

const BODY = `values = {}
for shipment_id in sorted({e["shipment_id"] for e in entries}):
    docs = call("get_shipment", shipment_id=shipment_id)["documents"]
    invoice = read_invoice([d for d in docs if d["doc_type"] == "commercial_invoice"][0]["doc_id"])
    rate = 1.0 if "no-convert" in NEAR else rules["rates"][invoice["currency"]]
    for line in invoice["lines"]:
        values[line["hs"][:2]] = money(values.get(line["hs"][:2], 0) + money(line["amount"] * rate))
print(json.dumps(dict(sorted(values.items()))))`;

export const chapterValuesTask = defineTask({
  id: "customs.chapter-values",
  domain: customsDomain,
  summary:
    "Second-quarter customs value per HS chapter, summed over OCR'd invoice lines of filed entries and converted to USD.",
  instruction:
    'For the quarterly trade statistics, total the customs value in USD per two-digit HS chapter over every invoice line of the shipments whose entries were filed from 2025-04-01 through 2025-06-30, valuing each line as our duty and preference rules memo says. Reply with only a JSON object mapping chapter to value, e.g. {"84": 120455.10, "94": 8800.00}.',
  tools: ["list_entries", "list_shipments", "get_shipment", "list_documents", "get_document_page"],
  verify: ({ initial, answer }) => [checkAmounts("chapter-values", answer, expectedChapterValues(initial))],
  ...customsPrograms(SETUP, BODY, [
    ["no-conversion", "Adds invoice amounts in their own currencies.", "no-convert"],
    ["first-page-only", "Reads only page 1 of each invoice.", "first-page"],
    ["reads-processing-pages", "Takes a 'still processing' page as the page's text.", "processing"],
  ]),
});
