/**
 * Who is on call: the weekly rotation (handover Monday 09:00 UTC) with overrides that replace the scheduled
 * engineer for one role between two instants. Used by the generator (from its world) and by the verifiers
 * (from the schedule document as the agent reads it).
 */
import { isoUtc, seconds, shiftStart } from "./clock.js";
import type { Override, Role } from "./world.js";

/** The rotation by handle, and the overrides with the covering engineer's handle. */
export interface Schedule {
  rotation: Array<{ week: string; team: string; primary: string; secondary: string }>;
  overrides: Array<Pick<Override, "team" | "role" | "start" | "end" | "cancelled"> & { handle: string }>;
}

/** The handle on call for a team's role at an instant (end of an override exclusive). */
export function onCallHandle(schedule: Schedule, team: string, role: Role, at: number): string {
  const override = schedule.overrides.find(
    (item) =>
      !item.cancelled && item.team === team && item.role === role && item.start <= at && at < item.end,
  );
  if (override) return override.handle;
  const week = isoUtc(shiftStart(at)).slice(0, 10);
  const row = schedule.rotation.find((item) => item.team === team && item.week === week);
  if (!row) throw new Error(`no rotation row for team ${team} in the week of ${week}`);
  return role === "primary" ? row.primary : row.secondary;
}

const OVERRIDE_LINE =
  /^- (~~)?(\d{4}-\d{2}-\d{2} \d{2}:\d{2}) → (\d{4}-\d{2}-\d{2} \d{2}:\d{2}) UTC · (\w+) · (primary|secondary): @([\w.-]+) covers for @[\w.-]+/;

/** Reads the schedule document: the rotation table and the override bullets. */
export function parseSchedule(markdown: string): Schedule {
  const { rotation, overrides }: Schedule = { rotation: [], overrides: [] };
  for (const line of markdown.split("\n")) {
    const row = /^\| (\d{4}-\d{2}-\d{2}) \| (\w+) \| @([\w.-]+) \| @([\w.-]+) \|$/.exec(line);
    if (row) rotation.push({ week: row[1]!, team: row[2]!, primary: row[3]!, secondary: row[4]! });
    const found = OVERRIDE_LINE.exec(line);
    if (found)
      overrides.push({
        cancelled: found[1] !== undefined,
        start: seconds(`${found[2]!.replace(" ", "T")}:00Z`),
        end: seconds(`${found[3]!.replace(" ", "T")}:00Z`),
        team: found[4]!,
        role: found[5] as Role,
        handle: found[6]!,
      });
  }
  if (rotation.length === 0) throw new Error("the schedule document has no rotation rows");
  return { rotation, overrides };
}
