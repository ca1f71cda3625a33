import { checkAnswerCount, checkStateDiff, getRow } from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { readNotes } from "../notes.js";
import { defineUtilityTask } from "./common.js";

/** Dispatched work orders the handheld notes report done, with the UTC time the note gives. */
export function expectedClosures(state: StateView): Map<string, string> {
  const closures = new Map<string, string>();
  for (const note of readNotes(state)) {
    const wo = getRow<{ status: string }>(
      state.db,
      "SELECT status FROM work_orders WHERE work_order_id = ?",
      note.workOrderId,
    );
    if (note.done && wo?.status === "dispatched") closures.set(note.workOrderId, note.completedAt);
  }
  return closures;
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const expected = expectedClosures(initial);
  return [
    ...checkStateDiff(initial.db, final.db, [
      {
        table: "work_orders",
        key: "work_order_id",
        changed: new Map(
          [...expected].map(([id, completed_at]) => [id, { status: "completed", completed_at }]),
        ),
      },
    ]),
    checkAnswerCount(answer, expected.size),
  ];
}

type Variant = { localAsUtc?: boolean; naiveDone?: boolean; strictIds?: boolean };

function cell(variant: Variant): string {
  const done = variant.naiveDone
    ? 're.search(r"cmplt|done|complete|finished", e["rest"], re.I)'
    : 're.search(r"cmplt|done|complete|finished", e["rest"], re.I) and not re.search(r"not done|incomplete|no access|rtn visit", e["rest"], re.I)';
  return String.raw`
closed = 0
for e in handheld_entries():
    if ${variant.strictIds ? 'not re.search(r"WO-\\d{5}", e["line"])' : "False"}:
        continue
    if not (${done}):
        continue
    finished = e["local"] - timedelta(hours=${variant.localAsUtc ? "0" : 'e["offset"]'})
    wo = call("get_work_order", work_order_id=e["wo"])["work_order"]
    if wo["status"] != "dispatched":
        continue
    call("complete_work_order", work_order_id=e["wo"], completed_at=iso(finished))
    closed += 1
print(f"Closed {closed} work orders")
`;
}

export const closeFromNotesTask = defineUtilityTask<Variant>({
  id: "utility.close-from-notes",
  summary:
    "Close the work orders the technicians' handheld notes report finished, at the time they finished.",
  instruction:
    "The handheld-to-WMS sync broke, so work the crews finished is still showing as dispatched. Read the handheld note dumps in handheld/ and close every dispatched work order the technicians report as finished with complete_work_order, at the time the note gives (in UTC). Don't close anything the notes say is unfinished. Reply with the number of orders you closed, e.g. `Closed 7 work orders`.",
  tools: ["list_work_orders", "get_work_order", "complete_work_order"],
  verify,
  cells: cell,
  nearMisses: [
    ["local-as-utc", "Enters the note's local time as UTC.", { localAsUtc: true }],
    ["naive-done", "Takes 'not done' and 'incomplete' as finished.", { naiveDone: true }],
    ["strict-ids", "Only reads work order numbers written as WO-00123.", { strictIds: true }],
  ],
});
