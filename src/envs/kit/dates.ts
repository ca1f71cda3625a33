/**
 * Calendar arithmetic on ISO dates (`YYYY-MM-DD`) as whole UTC days, so that generation and verification
 * never depend on the host's time zone or the wall clock. Date-times are accepted where a date is expected
 * (the time part is ignored).
 */

const MS_PER_DAY = 86_400_000;

/** The English month names, January first: `MONTH_NAMES[month - 1]`. */
export const MONTH_NAMES: readonly string[] = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** Days since 1970-01-01 of an ISO date or date-time; throws on anything else. */
export function toDayNumber(isoDate: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(isoDate);
  if (!match) throw new Error(`'${isoDate}' is not an ISO date (YYYY-MM-DD)`);
  return Math.round(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / MS_PER_DAY);
}

/** The ISO date of a day number (see `toDayNumber`). */
export function fromDayNumber(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

/** The date `days` after `isoDate` (negative for before). */
export function addDays(isoDate: string, days: number): string {
  return fromDayNumber(toDayNumber(isoDate) + days);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return toDayNumber(to) - toDayNumber(from);
}

/** 0 = Monday ... 6 = Sunday (ISO weekday order). */
export function weekdayIndex(isoDate: string): number {
  return (((toDayNumber(isoDate) + 3) % 7) + 7) % 7;
}

/** Saturday or Sunday. */
export function isWeekend(isoDate: string): boolean {
  return weekdayIndex(isoDate) >= 5;
}

/** The Monday of the week containing the date. */
export function mondayOf(isoDate: string): string {
  return addDays(isoDate, -weekdayIndex(isoDate));
}

/** Whether two inclusive date ranges share at least one day. */
export function rangesOverlap(startA: string, endA: string, startB: string, endB: string): boolean {
  return startA <= endB && startB <= endA;
}

/** The n-th (1-based) weekday (0 = Monday) of a month, or the last one for n = -1 (holidays like "last Monday in May"). */
export function nthWeekdayOfMonth(year: number, month: number, weekday: number, n: number): string {
  if (n > 0) {
    const first = makeDate(year, month, 1);
    return addDays(first, ((weekday - weekdayIndex(first) + 7) % 7) + (n - 1) * 7);
  }
  const last = makeDate(year, month + 1, 0);
  return addDays(last, -((weekdayIndex(last) - weekday + 7) % 7));
}

/** The English weekday name (`Monday`). */
export function weekdayName(isoDate: string): string {
  return ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][
    weekdayIndex(isoDate)
  ] as string;
}

/** The date `businessDays` Monday-to-Friday days after `isoDate` (skipping `holidays`, ISO dates). */
export function addBusinessDays(
  isoDate: string,
  businessDays: number,
  holidays: ReadonlySet<string> = new Set(),
): string {
  let date = isoDate.slice(0, 10);
  const step = businessDays < 0 ? -1 : 1;
  for (let remaining = Math.abs(businessDays); remaining > 0;) {
    date = addDays(date, step);
    if (!isWeekend(date) && !holidays.has(date)) remaining -= 1;
  }
  return date;
}

/** The ISO date of a calendar day (months and days past their end roll over, as `Date.UTC` does). */
export function makeDate(year: number, month: number, day: number): string {
  return fromDayNumber(Math.round(Date.UTC(year, month - 1, day) / MS_PER_DAY));
}

/** The last day of the month `months` after the month of `isoDate` (0: its own month's last day). */
export function monthEndAfter(isoDate: string, months: number): string {
  return makeDate(Number(isoDate.slice(0, 4)), Number(isoDate.slice(5, 7)) + months + 1, 0);
}

/** Every date from `start` to `end`, both included. */
export function dateRange(start: string, end: string): string[] {
  const dates: string[] = [];
  for (let day = toDayNumber(start); day <= toDayNumber(end); day += 1) dates.push(fromDayNumber(day));
  return dates;
}

/** `YYYY-MM-DDTHH:MM:SS` for a date and a number of seconds into that day. */
export function dateTime(isoDate: string, secondsIntoDay: number): string {
  const pad = (value: number): string => String(value).padStart(2, "0");
  const hours = Math.floor(secondsIntoDay / 3600);
  const minutes = Math.floor((secondsIntoDay % 3600) / 60);
  return `${isoDate.slice(0, 10)}T${pad(hours)}:${pad(minutes)}:${pad(secondsIntoDay % 60)}`;
}

/** "March 4, 2026", as people write dates in memos and letters. */
export function longDate(isoDate: string): string {
  return new Date(`${isoDate.slice(0, 10)}T00:00:00Z`).toLocaleString("en-US", {
    month: "long",
    day: "numeric",
    year: "numeric",
    timeZone: "UTC",
  });
}

/** The calendar month before the one containing `isoDate`: first and last day, `June 2025`, `2025-06`. */
export function previousMonth(isoDate: string): { start: string; end: string; label: string; key: string } {
  const year = Number(isoDate.slice(0, 4));
  const month = Number(isoDate.slice(5, 7));
  const start = makeDate(year, month - 1, 1);
  const end = makeDate(year, month, 0);
  const label = new Date(`${start}T00:00:00Z`).toLocaleString("en-US", {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
  return { start, end, label, key: start.slice(0, 7) };
}

/** The earlier of two ISO dates (ISO strings compare as dates). */
export function earlierDate(left: string, right: string): string {
  return left < right ? left : right;
}

/** The later of two ISO dates. */
export function laterDate(left: string, right: string): string {
  return left > right ? left : right;
}
