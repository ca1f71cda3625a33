import { REFERENCE_DATE, checkStateDiff, defineTask, type StateView } from "../../../envs/index.js";
import { customsDomain } from "../domain.js";
import { openHolds, readRules, readShipments, valuate } from "../facts.js";
import { checkCount, customsPrograms } from "./expect.js";

/** The entries to file: arrived shipments without an open hold that are not de minimis. */
export function expectedEntries(state: StateView): Array<Record<string, unknown>> {
  const rules = readRules(state);
  const held = new Set(openHolds(state).map((hold) => hold.shipment_id));
  return readShipments(state)
    .filter((shipment) => shipment.status === "arrived" && !held.has(shipment.shipment_id))
    .map((shipment) => ({ shipment, valuation: valuate(shipment, rules) }))
    .filter(({ valuation }) => !valuation.deMinimis)
    .map(({ shipment, valuation }) => ({
      shipment_id: shipment.shipment_id,
      filed_on: REFERENCE_DATE,
      entered_value_usd: valuation.value,
      duty_usd: valuation.duty,
      program: valuation.program,
      line_count: shipment.lines.length,
      status: "filed",
    }));
}

const SETUP = `rules = read_rules()
held = {h["shipment_id"] for h in fetch("list_holds", "holds", open_only=True)}
print(rules, sorted(held))`;

const BODY = `filed = 0
for shipment in fetch("list_shipments", "shipments", status="arrived"):
    if shipment["shipment_id"] in held and "ignore-holds" not in NEAR:
        continue
    docs, invoice, certs = shipment_papers(shipment)
    v = valuate(shipment, invoice, certs, rules)
    if v["de_minimis"] and "file-de-minimis" not in NEAR:
        continue
    call("file_entry", shipment_id=shipment["shipment_id"], entered_value_usd=v["value"], duty_usd=v["duty"], program=v["program"], line_count=len(invoice["lines"]))
    filed += 1
print(filed)`;

export const fileEntriesTask = defineTask({
  id: "customs.file-entries",
  domain: customsDomain,
  summary:
    "File entries (value, duty, program, line count) for arrived shipments that need one: not de minimis, no open hold.",
  instruction:
    "File today's customs entries: every arrived shipment that our duty and preference rules memo says should be filed now gets one entry with file_entry (entered value and duty in USD as the memo computes them from the commercial invoice, the preference program applied or null, and the number of invoice lines). Leave every other shipment alone. Reply with only the number of entries you filed.",
  tools: [
    "list_shipments",
    "get_shipment",
    "list_documents",
    "get_document_page",
    "get_tariff_line",
    "list_holds",
    "file_entry",
  ],
  verify: ({ initial, final, answer }) => {
    const entries = expectedEntries(initial);
    if (entries.length === 0) throw new Error("generation produced no entry to file");
    return [
      ...checkStateDiff(initial.db, final.db, [
        { table: "entries", key: "entry_id", added: entries },
        {
          table: "shipments",
          key: "shipment_id",
          changed: new Map(entries.map((entry) => [entry.shipment_id as string, { status: "entered" }])),
        },
      ]),
      checkCount(answer, entries.length),
    ];
  },
  ...customsPrograms(SETUP, BODY, [
    ["files-held-shipments", "Files entries for shipments that still have an open hold.", "ignore-holds"],
    ["files-de-minimis", "Files entries for de-minimis shipments too.", "file-de-minimis"],
    ["no-preference", "Files every entry at the general rates without a program.", "no-pref"],
  ]),
});
