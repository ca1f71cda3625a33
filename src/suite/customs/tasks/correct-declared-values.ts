import { REFERENCE_DATE, check, checkStateDiff, defineTask } from "../../../envs/index.js";
import { customsDomain } from "../domain.js";
import { hasDiscrepancy, readRules, readShipments } from "../facts.js";
import { customsPrograms } from "./expect.js";

/** Python: `discrepancies(statuses)` -> [(shipment, invoice total)] as the memo defines them. */
const DISCREPANCY_PY = String.raw`
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

const SETUP = `rules = read_rules()${DISCREPANCY_PY}`;

const BODY = `corrected = holds = 0
for shipment, total in discrepancies("arrived"):
    call("update_declared_value", shipment_id=shipment["shipment_id"], declared_value=total, note="corrected to the commercial invoice total")
    corrected += 1
for shipment, total in discrepancies("entered"):
    if "update-entered" in NEAR:
        call("update_declared_value", shipment_id=shipment["shipment_id"], declared_value=total, note="corrected to the commercial invoice total")
        corrected += 1
    else:
        call("place_hold", shipment_id=shipment["shipment_id"], hold_type="valuation", reason=f"declared {shipment['declared_value']} vs invoice {total}")
        holds += 1
print(f"corrected: {corrected}, holds: {holds}")`;

export const correctDeclaredValuesTask = defineTask({
  id: "customs.correct-declared-values",
  domain: customsDomain,
  summary:
    "Correct declared values that disagree with the OCR'd invoice total on unentered shipments; valuation holds on entered ones.",
  instruction:
    'Clean up declared values: apply the "Declared value checks" section of our duty and preference rules memo to every shipment that is arrived or entered, comparing its declared value with the TOTAL INVOICE VALUE of its scanned commercial invoice. Correct with update_declared_value or place a valuation hold with place_hold, as the memo says, and change nothing else. Reply in the form `corrected: 3, holds: 1` (declared values corrected, valuation holds placed).',
  tools: [
    "list_shipments",
    "get_shipment",
    "list_documents",
    "get_document_page",
    "list_holds",
    "update_declared_value",
    "place_hold",
  ],
  verify: ({ initial, final, answer }) => {
    const rules = readRules(initial);
    const flagged = readShipments(initial).filter((shipment) => hasDiscrepancy(shipment, rules));
    const corrected = flagged.filter((shipment) => shipment.status === "arrived");
    const held = flagged.filter((shipment) => shipment.status === "entered");
    if (corrected.length === 0 || held.length === 0)
      throw new Error("generation produced no discrepancy to correct or hold");
    const reply = /corrected:\s*(\d+)\D+holds:\s*(\d+)/i.exec(answer);
    return [
      ...checkStateDiff(initial.db, final.db, [
        {
          table: "shipments",
          key: "shipment_id",
          changed: new Map(
            corrected.map((shipment) => [shipment.shipment_id, { declared_value: shipment.total }]),
          ),
          ignoreColumns: ["status_note"],
        },
        {
          table: "holds",
          key: "hold_id",
          added: held.map((shipment) => ({
            shipment_id: shipment.shipment_id,
            hold_type: "valuation",
            placed_on: REFERENCE_DATE,
            released_on: null,
          })),
        },
      ]),
      check(
        "answer",
        reply !== null && Number(reply[1]) === corrected.length && Number(reply[2]) === held.length,
        `expected corrected: ${corrected.length}, holds: ${held.length}`,
      ),
    ];
  },
  ...customsPrograms(SETUP, BODY, [
    [
      "updates-entered",
      "Rewrites declared values of entered shipments instead of placing valuation holds.",
      "update-entered",
    ],
    ["no-tolerance", "Corrects rounding differences the memo accepts.", "no-tolerance"],
    ["first-page-only", "Reads only page 1 of multi-page invoices.", "first-page"],
  ]),
});
