import {
  allRows,
  checkAnswerCount,
  checkStateDiff,
  parseMarkdownTable,
  requireFile,
} from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { CLOSURES } from "../documents.js";
import { defineTransportTask, nonEmpty } from "./common.js";

/** The notice's stops, and each of their riders' new stop: the next open stop along the route, else the one before. */
export function expectedMoves(state: StateView): { closing: string[]; moves: Map<string, string> } {
  const closing = parseMarkdownTable(requireFile(state, CLOSURES), "Stop closures").map((row) => row[0]!);
  const stops = allRows<{ stop_id: string; route_id: string; seq: number; status: string }>(
    state.db,
    "SELECT stop_id, route_id, seq, status FROM stops ORDER BY route_id, seq",
  );
  const target = new Map<string, string>();
  for (const id of closing) {
    const stop = stops.find((s) => s.stop_id === id)!;
    const open = stops.filter(
      (s) => s.route_id === stop.route_id && s.status === "open" && !closing.includes(s.stop_id),
    );
    const next = open.find((s) => s.seq > stop.seq) ?? open.filter((s) => s.seq < stop.seq).at(-1)!;
    target.set(id, next.stop_id);
  }
  const riders = allRows<{ student_id: string; stop_id: string }>(
    state.db,
    `SELECT student_id, stop_id FROM students WHERE stop_id IN (${closing.map(() => "?").join(", ")})`,
    ...closing,
  );
  return {
    closing,
    moves: nonEmpty(new Map(riders.map((r) => [r.student_id, target.get(r.stop_id)!])), "rider to move"),
  };
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const { closing, moves } = expectedMoves(initial);
  return [
    ...checkStateDiff(initial.db, final.db, [
      { table: "stops", key: "stop_id", changed: new Map(closing.map((id) => [id, { status: "closed" }])) },
      {
        table: "students",
        key: "student_id",
        changed: new Map([...moves].map(([id, stop]) => [id, { stop_id: stop }])),
      },
    ]),
    checkAnswerCount(answer, moves.size),
  ];
}

type Variant = { nextSeq?: boolean; noRetry?: boolean; noClose?: boolean };

function cell(variant: Variant): string {
  const pick = variant.nextSeq
    ? `after = [s for s in stops if s["seq"] > stop["seq"]]
    target = after[0] if after else [s for s in stops if s["seq"] < stop["seq"]][-1]`
    : `usable = [s for s in stops if s["status"] == "open" and s["stop_id"] not in closing]
    after = [s for s in usable if s["seq"] > stop["seq"]]
    target = after[0] if after else [s for s in usable if s["seq"] < stop["seq"]][-1]`;
  const assign = variant.noRetry
    ? `tools.assign_student_stop(student_id=student["student_id"], stop_id=target["stop_id"])`
    : `call("assign_student_stop", student_id=student["student_id"], stop_id=target["stop_id"])`;
  return String.raw`
notice = md_table(read_text("notices/stop-closures.md"), "Stop closures")
closing = [row[0] for row in notice]
moved = 0
for stop_id, route_id, *_ in notice:
    stops = fetch("list_stops", "stops", route_id=route_id)
    stop = next(s for s in stops if s["stop_id"] == stop_id)
    ${pick}
    for student in fetch("list_students", "students", stop_id=stop_id):
        ${assign}
        moved += 1
${variant.noClose ? "" : 'for stop_id in closing:\n    call("close_stop", stop_id=stop_id)'}
print(f"Moved {moved} students")
`;
}

export const closeStopsTask = defineTransportTask<Variant>({
  id: "transport.close-stops",
  summary: "Process the stop-closure notice: close the stops and move their riders as the policy says.",
  instruction:
    "Public Works sent the stop closures in notices/stop-closures.md. Process them in the routing system the way our transportation policy (policies/transportation-policy.md) says stop closures are handled, and leave everything else alone. Reply with the number of students you moved, e.g. `Moved 12 students`.",
  tools: ["list_routes", "list_stops", "list_students", "close_stop", "assign_student_stop"],
  verify,
  cells: cell,
  nearMisses: [
    ["next-stop-regardless", "Moves riders to the next stop in sequence, closed or not.", { nextSeq: true }],
    ["ignores-locked-records", "Misses a locked record's error body; that rider stays.", { noRetry: true }],
    ["forgets-to-close", "Moves the riders but never closes the stops.", { noClose: true }],
  ],
});
