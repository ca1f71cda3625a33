import { REFERENCE_DATE, checkStateDiff, defineTask, type StateView } from "../../../envs/index.js";
import { customsDomain } from "../domain.js";
import { openHolds, readShipments } from "../facts.js";
import { checkCount, customsPrograms } from "./expect.js";

/** Arrived shipments claiming a program without a certificate naming it and without an open documents hold. */
export function expectedCertificateHolds(state: StateView): string[] {
  const waiting = new Set(
    openHolds(state)
      .filter((hold) => hold.hold_type === "documents")
      .map((hold) => hold.shipment_id),
  );
  return readShipments(state)
    .filter((shipment) => shipment.status === "arrived" && shipment.claimed !== null)
    .filter(
      (shipment) => !shipment.certificates.includes(shipment.claimed!) && !waiting.has(shipment.shipment_id),
    )
    .map((shipment) => shipment.shipment_id);
}

const SETUP = `open_holds = fetch("list_holds", "holds", open_only=True)
waiting = {h["shipment_id"] for h in open_holds if h["hold_type"] == "documents" or "skip-any-hold" in NEAR}
certificates = certificates_on_file()
print(sorted(waiting), certificates)`;

const BODY = `placed = 0
for shipment in fetch("list_shipments", "shipments", status="arrived"):
    program = shipment["preference_claimed"]
    if program is None or (shipment["shipment_id"] in waiting and "duplicate" not in NEAR):
        continue
    certs = certificates.get(shipment["shipment_id"], [])
    if (certs if "any-cert" in NEAR else program in certs):
        continue
    call("place_hold", shipment_id=shipment["shipment_id"], hold_type="documents", reason=f"Awaiting certificate of origin ({program})")
    placed += 1
print(placed)`;

export const missingCertificatesTask = defineTask({
  id: "customs.missing-certificates",
  domain: customsDomain,
  summary:
    "Documents holds on arrived shipments claiming a preference without a certificate of origin for that program (OCR'd certificates; existing holds).",
  instruction:
    'Every arrived shipment that claims a preference program needs a certificate of origin on file naming that same program. Place a documents hold (reason like "Awaiting certificate of origin (USMCA)") on each arrived shipment that lacks one, unless it already has an open documents hold. Change nothing else. Reply with only the number of holds you placed.',
  tools: [
    "list_shipments",
    "get_shipment",
    "list_documents",
    "get_document_page",
    "list_holds",
    "place_hold",
  ],
  verify: ({ initial, final, answer }) => {
    const expected = expectedCertificateHolds(initial);
    if (expected.length === 0) throw new Error("generation produced no missing certificate");
    return [
      ...checkStateDiff(initial.db, final.db, [
        {
          table: "holds",
          key: "hold_id",
          added: expected.map((id) => ({
            shipment_id: id,
            hold_type: "documents",
            placed_on: REFERENCE_DATE,
            released_on: null,
          })),
          ignoreColumns: ["reason"],
        },
      ]),
      checkCount(answer, expected.length),
    ];
  },
  ...customsPrograms(SETUP, BODY, [
    [
      "duplicate-holds",
      "Places a second documents hold on shipments already waiting for their certificate.",
      "duplicate",
    ],
    ["any-certificate", "Accepts a certificate naming another program.", "any-cert"],
    [
      "skips-exam-held",
      "Skips shipments with any open hold, though an exam hold does not chase the certificate.",
      "skip-any-hold",
    ],
  ]),
});
