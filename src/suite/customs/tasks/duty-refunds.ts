import { allRows, defineTask, roundCents, type StateView } from "../../../envs/index.js";
import { customsDomain } from "../domain.js";
import { readRules, readShipments, valuate } from "../facts.js";
import { checkAmounts, customsPrograms } from "./expect.js";

/** Per entry, the duty paid beyond what the rules call for (entries that overpaid only). */
export function expectedRefunds(state: StateView): Map<string, number> {
  const rules = readRules(state);
  const shipments = new Map(readShipments(state).map((shipment) => [shipment.shipment_id, shipment]));
  const refunds = new Map<string, number>();
  for (const entry of allRows<{ entry_id: string; shipment_id: string; duty_usd: number }>(
    state.db,
    "SELECT entry_id, shipment_id, duty_usd FROM entries ORDER BY entry_id",
  )) {
    const refund = roundCents(entry.duty_usd - valuate(shipments.get(entry.shipment_id)!, rules).duty);
    if (refund > 0) refunds.set(entry.entry_id, refund);
  }
  return refunds;
}

const SETUP = `rules = read_rules()
entries = fetch("list_entries", "entries")
print(len(entries), "entries")`;

const BODY = `refunds = {}
for entry in entries:
    shipment = call("get_shipment", shipment_id=entry["shipment_id"])["shipment"]
    if shipment["preference_claimed"] is None or entry["program"] is not None:
        continue
    docs, invoice, certs = shipment_papers(shipment)
    v = valuate(shipment, invoice, certs, rules)
    if v["program"] is None:
        continue
    refund = entry["duty_usd"] if "full-refund" in NEAR else money(entry["duty_usd"] - v["duty"])
    if refund > 0:
        refunds[entry["entry_id"]] = refund
print(json.dumps(refunds))`;

export const dutyRefundsTask = defineTask({
  id: "customs.duty-refunds",
  domain: customsDomain,
  summary:
    "Entries filed at general rates although the preference applied: refund per entry from OCR'd invoices and certificates.",
  instruction:
    'Audit our filed entries for unclaimed preferences: some entries were filed at the general rates although the shipment qualified for its claimed preference program under our duty and preference rules memo. For every entry that paid more duty than the memo calls for, work out the overpayment (duty paid minus the correct duty). Reply with only a JSON object mapping entry id to the refund in USD, e.g. {"ENT-004117": 312.40}.',
  tools: [
    "list_entries",
    "list_shipments",
    "get_shipment",
    "list_documents",
    "get_document_page",
    "get_tariff_line",
  ],
  verify: ({ initial, answer }) => [checkAmounts("refunds", answer, expectedRefunds(initial))],
  ...customsPrograms(SETUP, BODY, [
    ["full-refund", "Refunds the whole duty, as if the preference made the goods duty-free.", "full-refund"],
    ["no-conversion", "Values invoices in their own currency.", "no-convert"],
  ]),
});
