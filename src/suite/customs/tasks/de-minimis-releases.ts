import { checkStateDiff, defineTask, type StateView } from "../../../envs/index.js";
import { customsDomain } from "../domain.js";
import { openHolds, readRules, readShipments, valuate } from "../facts.js";
import { checkCount, customsPrograms } from "./expect.js";

export function expectedDeMinimis(state: StateView): string[] {
  const rules = readRules(state);
  const held = new Set(openHolds(state).map((hold) => hold.shipment_id));
  return readShipments(state)
    .filter(
      (shipment) =>
        shipment.status === "arrived" &&
        !held.has(shipment.shipment_id) &&
        valuate(shipment, rules).deMinimis,
    )
    .map((shipment) => shipment.shipment_id);
}

const SETUP = `rules = read_rules()
held = {h["shipment_id"] for h in fetch("list_holds", "holds", open_only=True)}
print(rules)`;

const BODY = `released = 0
for shipment in fetch("list_shipments", "shipments", status="arrived"):
    if shipment["shipment_id"] in held and "ignore-holds" not in NEAR:
        continue
    docs, invoice, certs = shipment_papers(shipment)
    if valuate(shipment, invoice, certs, rules)["de_minimis"]:
        call("release_shipment", shipment_id=shipment["shipment_id"], basis="de_minimis")
        released += 1
print(released)`;

export const deMinimisReleasesTask = defineTask({
  id: "customs.de-minimis-releases",
  domain: customsDomain,
  summary:
    "Release arrived shipments that qualify for de minimis (converted invoice value, threshold inclusive, excluded chapters, open holds).",
  instruction:
    "Release every arrived shipment that our de-minimis memo allows us to release today, with release_shipment and basis de_minimis. Value each shipment from its scanned commercial invoice as the memo says. Change nothing else. Reply with only the number of shipments you released.",
  tools: [
    "list_shipments",
    "get_shipment",
    "list_documents",
    "get_document_page",
    "get_tariff_line",
    "list_holds",
    "release_shipment",
  ],
  verify: ({ initial, final, answer }) => {
    const expected = expectedDeMinimis(initial);
    if (expected.length === 0) throw new Error("generation produced no de-minimis shipment");
    return [
      ...checkStateDiff(initial.db, final.db, [
        {
          table: "shipments",
          key: "shipment_id",
          changed: new Map(expected.map((id) => [id, { status: "released", status_note: "de_minimis" }])),
        },
      ]),
      checkCount(answer, expected.length),
    ];
  },
  ...customsPrograms(SETUP, BODY, [
    ["threshold-exclusive", "Releases only shipments strictly under the threshold.", "strict-threshold"],
    ["no-conversion", "Compares invoice amounts in their own currency with the USD threshold.", "no-convert"],
    ["ignores-holds", "Releases shipments that still have an open hold.", "ignore-holds"],
    ["ignores-excluded-chapters", "Releases small shipments of excluded chapters.", "no-exclusions"],
  ]),
});
