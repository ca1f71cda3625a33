import { addDays, allRows, checkAnswerIds } from "../../../envs/index.js";
import type { StateView } from "../../../envs/index.js";
import { policyTable } from "../facts.js";
import { WEEK, minutesOf } from "../world.js";
import { defineTransportTask, nonEmpty } from "./common.js";

const SUNDAY = addDays(WEEK[0], 6);

/** Drivers whose on-duty hours of the week of 23 June exceed the daily or the weekly limit. */
export function expectedOverHours(state: StateView): string[] {
  const limits = [...policyTable(state, "Driver hours").values()];
  const [daily, weekly] = [limits[0]! * 60, limits[1]! * 60];
  const shifts = allRows<{ driver_id: string; work_date: string; clock_in: string; clock_out: string }>(
    state.db,
    "SELECT driver_id, work_date, clock_in, clock_out FROM shifts WHERE work_date BETWEEN ? AND ?",
    WEEK[0],
    SUNDAY,
  );
  const days = new Map<string, number>();
  const weeks = new Map<string, number>();
  for (const shift of shifts) {
    const minutes = minutesOf(shift.clock_out) - minutesOf(shift.clock_in);
    const day = `${shift.driver_id}|${shift.work_date}`;
    days.set(day, (days.get(day) ?? 0) + minutes);
    weeks.set(shift.driver_id, (weeks.get(shift.driver_id) ?? 0) + minutes);
  }
  const over = new Set([...weeks].filter(([, m]) => m > weekly).map(([id]) => id));
  for (const [day, minutes] of days) if (minutes > daily) over.add(day.split("|")[0]!);
  return nonEmpty([...over].sort(), "driver over hours");
}

type Variant = { perShift?: boolean; dailyOnly?: boolean; trustBodies?: boolean };

function cell(variant: Variant): string {
  const listing = variant.trustBodies
    ? `shifts, page = [], 1
    while True:
        result = tools.list_shifts(driver_id=driver["driver_id"], date_from=WEEK[0], date_to="2025-06-29", page=page, per_page=50)
        shifts.extend(result.get("shifts", []))
        if not result.get("has_more"):
            break
        page += 1`
    : `shifts = fetch("list_shifts", "shifts", driver_id=driver["driver_id"], date_from=WEEK[0], date_to="2025-06-29")`;
  return String.raw`
policy = read_text(POLICY)
(_, daily), (_, weekly) = [(a, float(b)) for a, b in md_table(policy, "Driver hours")]
def hours(shift):
    h1, m1 = map(int, shift["clock_in"].split(":"))
    h2, m2 = map(int, shift["clock_out"].split(":"))
    return (h2 * 60 + m2 - h1 * 60 - m1) / 60
over = []
for driver in fetch("list_drivers", "drivers"):
    ${listing}
    per_day = defaultdict(float)
    for shift in shifts:
        ${variant.perShift ? 'per_day[shift["shift_id"]] += hours(shift)' : 'per_day[shift["work_date"]] += hours(shift)'}
    week = sum(per_day.values())
    if any(h > daily for h in per_day.values())${variant.dailyOnly ? "" : " or week > weekly"}:
        over.append(driver["driver_id"])
print(json.dumps(over))
`;
}

export const driverHoursTask = defineTransportTask<Variant>({
  id: "transport.driver-hours",
  summary:
    "List the drivers whose timesheets for the week of 23 June exceed the policy's daily or weekly hours.",
  instruction:
    'Payroll flagged possible hours violations. Check every driver\'s timesheet for the week of Monday 23 to Sunday 29 June 2025 against the driver hours limits in our transportation policy (policies/transportation-policy.md). Reply with a JSON array of the ids of drivers who exceeded a limit, e.g. ["DRV-004"].',
  tools: ["list_drivers", "list_shifts"],
  verify: ({ initial, answer }) => [checkAnswerIds(answer, expectedOverHours(initial))],
  cells: cell,
  nearMisses: [
    ["per-shift", "Holds each shift, not each day's total, to the daily limit.", { perShift: true }],
    ["daily-only", "Checks the daily limit and forgets the weekly one.", { dailyOnly: true }],
    ["trusts-error-bodies", "Reads a timeout body as a driver without shifts.", { trustBodies: true }],
  ],
});
