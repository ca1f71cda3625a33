import { allRows, defineTask, type StateView, flagNearMisses } from "../../../envs/index.js";
import { vetDomain } from "../domain.js";
import { checkIdList } from "./checks.js";
import { VET_PY } from "./python.js";

const RX = /\bRx\s+([A-Za-z-]+)\s+(\d+(?:\.\d+)?)\s*mg\b/;

/** Prescriptions whose drug or dose differs from the Rx the clinician wrote in the visit's note. */
export function mistranscribed(state: StateView): string[] {
  const rows = allRows<{ rx_id: string; drug: string; dose_mg: number; soap_note: string }>(
    state.db,
    "SELECT r.rx_id, r.drug, r.dose_mg, v.soap_note FROM prescriptions r JOIN visits v USING (visit_id) ORDER BY r.rx_id",
  );
  return rows
    .filter((row) => {
      const written = RX.exec(row.soap_note);
      if (!written) throw new Error(`${row.rx_id}: the note has no Rx line`);
      return written[1]!.toLowerCase() !== row.drug || Number(written[2]) !== row.dose_mg;
    })
    .map((row) => row.rx_id);
}

function cells(near: string[]): string[] {
  return [
    VET_PY,
    `NEAR = set(${JSON.stringify(near)})
RX = re.compile(r"\\bRx\\s+([A-Za-z-]+)\\s+(\\d+(?:\\.\\d+)?)\\s*mg\\b")
wrong = []
for rx in fetch("list_prescriptions", "prescriptions"):
    drug, dose = RX.search(note_of(rx["visit_id"])).groups()
    same_drug = drug == rx["drug"] if "case-sensitive" in NEAR else drug.lower() == rx["drug"]
    same_dose = dose == str(rx["dose_mg"]) if "string-compare" in NEAR else float(dose) == rx["dose_mg"]
    if not (same_drug and same_dose):
        wrong.append(rx["rx_id"])
print(json.dumps(wrong))`,
  ];
}

export const rxTranscriptionTask = defineTask({
  id: "vet.rx-transcription",
  domain: vetDomain,
  summary:
    "Reconcile every prescription with the Rx line of its visit's SOAP note (drug case, trailing zeros, slipped decimals).",
  instruction:
    "Prescriptions are keyed into the pharmacy system from the clinicians' SOAP notes. Find every prescription whose drug or dose in the system does not match the Rx written in the plan of its visit's note. Reply with only a JSON list of the prescription ids (e.g. [\"RX-00003\"]).",
  tools: ["list_prescriptions", "list_visits", "get_visit_note"],
  verify: ({ initial, answer }) => [checkIdList(answer, mistranscribed(initial))],
  oracle: cells([]),
  nearMisses: flagNearMisses(cells, [
    [
      "case-sensitive-drug",
      "Compares drug names case-sensitively, so 'Meloxicam' in a note looks like a different drug.",
      "case-sensitive",
    ],
    [
      "string-compare-dose",
      "Compares the dose as text, so '1.20' in a note differs from 1.2.",
      "string-compare",
    ],
    [
      "no-retry",
      "Does not notice the records server's error body and crashes on the missing note.",
      "no-retry",
    ],
  ]),
});
