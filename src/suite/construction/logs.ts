import { addDays, isWeekend, weekdayName } from "../../envs/index.js";
import type { SeededRandom } from "../../core/index.js";
import { HOLIDAYS } from "./rules.js";

const STOPPED = [
  "Heavy rain from 06:30; work stopped at 09:15 and crews sent home.",
  "Lightning in the area, site shut down for the day.",
  "High winds, crane and deck work suspended; work stopped at 10:00.",
];
const WORKED_THROUGH = [
  "Light rain in the morning; crews worked through, no lost time.",
  "Rain all day; interior framing and rough-in continued, no delay.",
  "Gusty winds; ground crews continued under cover, no impact.",
];
const ACTIVITIES = [
  "Formed and poured footings at grid A-C.",
  "Steel erection level 2, decking started.",
  "Electrical rough-in floors 1-2.",
  "Drywall hanging in the east wing.",
  "Roofing membrane installation, north half.",
  "Storefront framing at the entry.",
  "Underground plumbing inspected and backfilled.",
];

/** A week of the superintendent's daily reports (Monday to Friday, some Saturdays) as one text file. */
export function renderWeekLog(
  random: SeededRandom,
  week: {
    project: string;
    superintendent: string;
    start: string;
    latest: boolean;
    crews: Array<{ name: string }>;
  },
): string {
  const lines = [
    "DAILY CONSTRUCTION REPORT",
    `Project: ${week.project}`,
    `Week of ${week.start}    Superintendent: ${week.superintendent}`,
    "",
  ];
  const saturday = week.latest || random.chance(0.3);
  for (let d = 0; d < (saturday ? 6 : 5); d += 1) {
    const day = addDays(week.start, d);
    const holiday = HOLIDAYS.includes(day);
    // The latest week always has a rained-out Saturday and a Tuesday worked through the rain.
    const planted = week.latest && d === 5 ? "stop" : week.latest && d === 1 ? "through" : null;
    const roll = random.next();
    const bad = planted !== null || roll < 0.3;
    const weather = bad
      ? `${random.pick(["Rain", "Heavy rain", "Thunderstorms", "High wind"])}, ${random.int(45, 70)}F`
      : `${random.pick(["Clear", "Partly cloudy", "Overcast"])}, ${random.int(55, 85)}F`;
    const stopped = !holiday && (planted === "stop" || (planted === null && bad && random.chance(0.5)));
    const crews = random.shuffle(week.crews).slice(0, random.int(2, 4));
    const counts = crews.map((crew) => `${crew.name} ${random.int(2, 12)}`);
    lines.push(`Date: ${weekdayName(day).slice(0, 3)} ${day}`, `Weather: ${weather}`);
    if (holiday) lines.push("Manpower: 0", "Work performed: none, holiday, site closed.", "Delays: none.");
    else {
      lines.push(`Manpower: ${counts.join(", ")}`, `Work performed: ${random.pick(ACTIVITIES)}`);
      lines.push(`Delays: ${stopped ? random.pick(STOPPED) : bad ? random.pick(WORKED_THROUGH) : "none."}`);
    }
    lines.push("");
  }
  lines.push(`Signed: ${week.superintendent}`);
  return `${lines.join("\n")}\n`;
}

const ENTRY = /^Date: \w{3} (\d{4}-\d\d-\d\d)\nWeather: ([^\n]*)\n(?:[^\n]+\n)*?Delays: ([^\n]*)$/gm;
export const STOP_PATTERN = /work stopped|work suspended|suspended|sent home|shut down/i;

/** The weather days a week's log records: working days on which work stopped for weather. */
export function weatherDays(text: string, holidays: ReadonlySet<string>): string[] {
  return [...text.matchAll(ENTRY)]
    .filter(([, day, , delays]) => !isWeekend(day!) && !holidays.has(day!) && STOP_PATTERN.test(delays!))
    .map(([, day]) => day!);
}
