import { defineTask, type StateView } from "../../../envs/index.js";
import { customsDomain } from "../domain.js";
import { readRules, readShipments, valuate } from "../facts.js";
import { checkAmounts, nearMisses } from "./expect.js";
import { CUSTOMS_PY } from "./python.js";

/** Duty per arrived shipment that needs a formal entry. */
export function expectedDuty(state: StateView): Map<string, number> {
  const rules = readRules(state);
  const duty = new Map<string, number>();
  for (const shipment of readShipments(state).filter((item) => item.status === "arrived")) {
    const valuation = valuate(shipment, rules);
    if (!valuation.deMinimis) duty.set(shipment.shipment_id, valuation.duty);
  }
  return duty;
}

function cells(near: string[]): string[] {
  return [
    CUSTOMS_PY,
    `NEAR = set(${JSON.stringify(near)})
rules = read_rules()
print(rules)`,
    `result = {}
for shipment in fetch("list_shipments", "shipments", status="arrived"):
    docs, invoice, certs = shipment_papers(shipment)
    v = valuate(shipment, invoice, certs, rules)
    if not v["de_minimis"]:
        result[shipment["shipment_id"]] = v["duty"]
print(json.dumps(result))`,
  ];
}

export const dutyOwedTask = defineTask({
  id: "customs.duty-owed",
  domain: customsDomain,
  summary:
    "Duty owed per arrived shipment from OCR'd invoice lines, currency rates, tariff rates and certificate-backed preferences; de-minimis shipments left out.",
  instruction:
    'Customs wants the duty owed on every shipment still awaiting clearance (status arrived). Work it out from each shipment\'s commercial invoice following our duty and preference rules memo, the currency rates table and the de-minimis memo. Shipments that qualify for de minimis owe nothing: leave them out; list every other arrived shipment, even when its duty is 0.00. Reply with only a JSON object mapping shipment id to the duty in USD rounded to cents, e.g. {"SHP-00012": 1520.75}.',
  tools: [
    "list_shipments",
    "get_shipment",
    "list_documents",
    "get_document_page",
    "get_tariff_line",
    "list_holds",
  ],
  verify: ({ initial, answer }) => [checkAmounts("duty", answer, expectedDuty(initial))],
  oracle: cells([]),
  nearMisses: nearMisses(cells, [
    ["no-preference", "Charges the general rate everywhere, ignoring preference programs.", "no-pref"],
    [
      "any-certificate",
      "Grants the claimed preference when any certificate of origin is on file, even one naming another program.",
      "any-cert",
    ],
    [
      "reads-processing-pages",
      "Takes a 'still processing' page as the page's text instead of asking again.",
      "processing",
    ],
    [
      "ignores-excluded-chapters",
      "Treats small shipments of excluded chapters (footwear, knitwear, beverages) as de minimis.",
      "no-exclusions",
    ],
  ]),
});
