import { checkAnswerCount, checkStateDiff, getRow } from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { readNotes } from "../notes.js";
import { defineUtilityTask } from "./common.js";

interface FieldRead {
  meter_id: string;
  read_date: string;
  reading: number;
}

/** Legible readings in the handheld notes that the system does not have yet. */
export function expectedFieldReads(state: StateView): FieldRead[] {
  return readNotes(state)
    .filter((note) => note.meterId !== null && note.reading !== null)
    .filter(
      (note) =>
        !getRow(
          state.db,
          "SELECT 1 AS x FROM meter_reads WHERE meter_id = ? AND read_date = ?",
          note.meterId,
          note.day,
        ),
    )
    .map((note) => ({ meter_id: note.meterId!, read_date: note.day, reading: note.reading! }));
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const expected = expectedFieldReads(initial);
  return [
    ...checkStateDiff(initial.db, final.db, [
      {
        table: "meter_reads",
        key: "read_id",
        added: expected.map((read) => ({ ...read, read_type: "actual", source: "field" })),
      },
    ]),
    checkAnswerCount(answer, expected.length),
  ];
}

type Variant = { firstGroup?: boolean; strictMeter?: boolean; noCheck?: boolean };

function cell(variant: Variant): string {
  const meter = variant.strictMeter ? 're.search(r"M-(\\d{6})", e["rest"])' : 'METER_REF.search(e["rest"])';
  const reading = variant.firstGroup
    ? 're.search(r"\\b(?:rdg|read|rd)\\s*[:=]?\\s*(\\d+)", e["line"], re.I)'
    : 'READING.search(e["line"])';
  return String.raw`
entered = 0
for e in handheld_entries():
    meter, reading = ${meter}, ${reading}
    if not meter or not reading:
        continue
    meter_id = "M-%06d" % int(meter.group(1))
    value = int(reading.group(1).replace(",", ""))
    if ${variant.noCheck ? "False" : 'fetch("list_meter_reads", "reads", meter_id=meter_id, date_from=e["day"], date_to=e["day"])'}:
        continue
    call("record_meter_read", meter_id=meter_id, read_date=e["day"], reading=value)
    entered += 1
print(f"Entered {entered} reads")
`;
}

export const fieldReadsTask = defineUtilityTask<Variant>({
  id: "utility.field-reads",
  summary: "Enter the meter readings the technicians wrote in their handheld notes as actual field reads.",
  instruction:
    "While the handheld sync is down, the meter readings technicians took on site are only in the note dumps in handheld/. Enter every legible reading there as a field read with record_meter_read (dated the day of the note), skipping any the system already has for that meter and day. Reply with the number of reads you entered, e.g. `Entered 5 reads`.",
  tools: ["list_meters", "list_meter_reads", "record_meter_read"],
  verify,
  cells: cell,
  nearMisses: [
    ["drops-thousands", "Reads '4,512' as 4: stops at the thousands separator.", { firstGroup: true }],
    ["strict-meter-ids", "Only reads meter numbers written as M-000123.", { strictMeter: true }],
    [
      "no-existing-check",
      "Enters readings the system already has: a second read of the same meter on the same day.",
      { noCheck: true },
    ],
  ],
});
