import { REFERENCE_DATE, allRows, checkStateDiff, defineTask, type StateView } from "../../../envs/index.js";
import { customsDomain } from "../domain.js";
import { openHolds, readShipments } from "../facts.js";
import { checkCount, customsPrograms } from "./expect.js";

/** Open documents holds whose awaited document is now on file (a certificate must name the claimed program). */
export function expectedReleases(state: StateView): string[] {
  const shipments = new Map(readShipments(state).map((shipment) => [shipment.shipment_id, shipment]));
  const types = new Set(
    allRows<{ shipment_id: string; doc_type: string }>(
      state.db,
      "SELECT shipment_id, doc_type FROM documents",
    ).map((row) => `${row.shipment_id}/${row.doc_type}`),
  );
  return openHolds(state)
    .filter((hold) => hold.hold_type === "documents")
    .filter((hold) => {
      const shipment = shipments.get(hold.shipment_id)!;
      if (/certificate of origin/i.test(hold.reason))
        return shipment.claimed !== null && shipment.certificates.includes(shipment.claimed);
      if (/packing list/i.test(hold.reason)) return types.has(`${hold.shipment_id}/packing_list`);
      return false;
    })
    .map((hold) => hold.hold_id);
}

const SETUP = `holds = [h for h in fetch("list_holds", "holds", open_only=True) if h["hold_type"] == "documents" or "release-exam" in NEAR]
print(len(holds), "open holds")`;

const BODY = `certificates = certificates_on_file()
packed = {d["shipment_id"] for d in fetch("list_documents", "documents", doc_type="packing_list")}
released = 0
for hold in holds:
    claimed = call("get_shipment", shipment_id=hold["shipment_id"])["shipment"]["preference_claimed"]
    certs = certificates.get(hold["shipment_id"], [])
    reason = hold["reason"].lower()
    if "certificate of origin" in reason:
        ready = bool(certs) if "any-cert" in NEAR else claimed in certs
    else:
        ready = hold["shipment_id"] in packed if "packing list" in reason else "release-exam" in NEAR
    if ready:
        call("release_hold", hold_id=hold["hold_id"], note="awaited document now on file")
        released += 1
print(released)`;

export const releaseDocumentHoldsTask = defineTask({
  id: "customs.release-document-holds",
  domain: customsDomain,
  summary:
    "Release documents holds whose awaited document (OCR'd certificate naming the claimed program, packing list) is now on file.",
  instruction:
    "Go through the open holds and release (release_hold, with a short note) every hold that our duty and preference rules memo says we may release now because what it waits for is on file. Leave all other holds open and change nothing else. Reply with only the number of holds you released.",
  tools: [
    "list_shipments",
    "get_shipment",
    "list_documents",
    "get_document_page",
    "list_holds",
    "release_hold",
  ],
  verify: ({ initial, final, answer }) => {
    const expected = expectedReleases(initial);
    if (expected.length === 0) throw new Error("generation produced no hold to release");
    return [
      ...checkStateDiff(initial.db, final.db, [
        {
          table: "holds",
          key: "hold_id",
          changed: new Map(expected.map((id) => [id, { released_on: REFERENCE_DATE }])),
          ignoreColumns: ["release_note"],
        },
      ]),
      checkCount(answer, expected.length),
    ];
  },
  ...customsPrograms(SETUP, BODY, [
    ["releases-exam-holds", "Releases exam holds too, which only customs may release.", "release-exam"],
    ["any-certificate", "Releases a certificate hold on a certificate naming another program.", "any-cert"],
  ]),
});
