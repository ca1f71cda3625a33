/**
 * Calendar arithmetic on ISO dates (YYYY-MM-DD) as whole UTC days, so that generation and verification never
 * depend on the host time zone or the wall clock.
 */

const MS_PER_DAY = 86_400_000;

/** Days since 1970-01-01 of an ISO date (the time part of a timestamp is ignored). */
export function toDayNumber(isoDate: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(isoDate);
  if (!match) throw new Error(`'${isoDate}' is not an ISO date (YYYY-MM-DD)`);
  return Math.round(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / MS_PER_DAY);
}

export function fromDayNumber(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

export function addDays(isoDate: string, days: number): string {
  return fromDayNumber(toDayNumber(isoDate) + days);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return toDayNumber(to) - toDayNumber(from);
}

/** 0 = Monday ... 6 = Sunday (ISO weekday order, as the overtime policy's work week). */
export function weekdayIndex(isoDate: string): number {
  return (((toDayNumber(isoDate) + 3) % 7) + 7) % 7;
}

export function isWeekend(isoDate: string): boolean {
  return weekdayIndex(isoDate) >= 5;
}

/** The Monday of the week containing the date. */
export function mondayOf(isoDate: string): string {
  return addDays(isoDate, -weekdayIndex(isoDate));
}

export function yearOf(isoDate: string): number {
  return Number(isoDate.slice(0, 4));
}

export function makeDate(year: number, month: number, day: number): string {
  return fromDayNumber(Math.round(Date.UTC(year, month - 1, day) / MS_PER_DAY));
}

/** The n-th (1-based) given weekday (0 = Monday) of a month; n = -1 for the last one. */
export function nthWeekdayOfMonth(year: number, month: number, weekday: number, n: number): string {
  if (n > 0) {
    const first = makeDate(year, month, 1);
    const offset = (weekday - weekdayIndex(first) + 7) % 7;
    return addDays(first, offset + (n - 1) * 7);
  }
  const last = addDays(makeDate(year, month + 1, 1), -1);
  const offset = (weekdayIndex(last) - weekday + 7) % 7;
  return addDays(last, -offset);
}

/** Every date from `start` to `end`, both included. */
export function dateRange(start: string, end: string): string[] {
  const dates: string[] = [];
  for (let day = toDayNumber(start); day <= toDayNumber(end); day += 1) dates.push(fromDayNumber(day));
  return dates;
}

/** Whether two inclusive date ranges share at least one day. */
export function rangesOverlap(startA: string, endA: string, startB: string, endB: string): boolean {
  return startA <= endB && startB <= endA;
}

/** Whole years of service completed on `onDate` for someone hired on `hireDate` (anniversary counts). */
export function completedYears(hireDate: string, onDate: string): number {
  const years = yearOf(onDate) - yearOf(hireDate);
  return onDate.slice(5) >= hireDate.slice(5) ? years : years - 1;
}
