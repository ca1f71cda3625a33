/**
 * Business-hours arithmetic shared by the generator (to plant tickets at exact SLA boundaries) and the
 * verifiers (to recompute expectations). The oracles re-implement the same rules in Python from the
 * workspace policy, so every rule here must match the text of `sla-policy.md` and `service-desk-handbook.md`.
 *
 * Timestamps are ISO strings in UTC at whole minutes (`2025-05-06T14:20:00Z`); holidays are ISO dates.
 */

export const BUSINESS_DAY_START_MINUTE = 8 * 60;
export const BUSINESS_DAY_END_MINUTE = 18 * 60;
const MINUTES_PER_DAY = 24 * 60;
const MS_PER_MINUTE = 60_000;

export function isoToMinutes(iso: string): number {
  return Math.round(Date.parse(iso) / MS_PER_MINUTE);
}

export function minutesToIso(minutes: number): string {
  return new Date(minutes * MS_PER_MINUTE).toISOString().replace(/\.\d{3}Z$/, "Z");
}

export function dateOfMinutes(minutes: number): string {
  return minutesToIso(minutes).slice(0, 10);
}

/** Whether the UTC day starting at `dayStartMinutes` is a working day (Monday-Friday, not a holiday). */
function isWorkingDay(dayStartMinutes: number, holidays: ReadonlySet<string>): boolean {
  const weekday = new Date(dayStartMinutes * MS_PER_MINUTE).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !holidays.has(dateOfMinutes(dayStartMinutes));
}

/** Business minutes (Mon-Fri 08:00-18:00 UTC, holidays excluded) inside [start, end). */
export function businessMinutesBetween(
  startMinutes: number,
  endMinutes: number,
  holidays: ReadonlySet<string>,
): number {
  if (endMinutes <= startMinutes) return 0;
  let total = 0;
  let dayStart = Math.floor(startMinutes / MINUTES_PER_DAY) * MINUTES_PER_DAY;
  for (; dayStart < endMinutes; dayStart += MINUTES_PER_DAY) {
    if (!isWorkingDay(dayStart, holidays)) continue;
    const open = Math.max(startMinutes, dayStart + BUSINESS_DAY_START_MINUTE);
    const close = Math.min(endMinutes, dayStart + BUSINESS_DAY_END_MINUTE);
    if (close > open) total += close - open;
  }
  return total;
}

/** The instant `amount` business minutes after `startMinutes` (the end of the last counted minute). */
export function addBusinessMinutes(
  startMinutes: number,
  amount: number,
  holidays: ReadonlySet<string>,
): number {
  let remaining = amount;
  let cursor = startMinutes;
  for (;;) {
    const dayStart = Math.floor(cursor / MINUTES_PER_DAY) * MINUTES_PER_DAY;
    if (isWorkingDay(dayStart, holidays)) {
      const open = Math.max(cursor, dayStart + BUSINESS_DAY_START_MINUTE);
      const close = dayStart + BUSINESS_DAY_END_MINUTE;
      if (open < close) {
        if (remaining <= close - open) return open + remaining;
        remaining -= close - open;
      }
    }
    cursor = dayStart + MINUTES_PER_DAY;
  }
}

/** The latest instant from which `amount` business minutes elapse before `endMinutes`. */
export function subtractBusinessMinutes(
  endMinutes: number,
  amount: number,
  holidays: ReadonlySet<string>,
): number {
  let remaining = amount;
  let cursor = endMinutes;
  for (;;) {
    const dayStart = Math.floor((cursor - 1) / MINUTES_PER_DAY) * MINUTES_PER_DAY;
    if (isWorkingDay(dayStart, holidays)) {
      const close = Math.min(cursor, dayStart + BUSINESS_DAY_END_MINUTE);
      const open = dayStart + BUSINESS_DAY_START_MINUTE;
      if (open < close) {
        if (remaining <= close - open) return close - remaining;
        remaining -= close - open;
      }
    }
    cursor = dayStart;
  }
}

/** Whether an instant falls inside business hours. */
export function isBusinessMinute(minutes: number, holidays: ReadonlySet<string>): boolean {
  const dayStart = Math.floor(minutes / MINUTES_PER_DAY) * MINUTES_PER_DAY;
  const offset = minutes - dayStart;
  return (
    isWorkingDay(dayStart, holidays) &&
    offset >= BUSINESS_DAY_START_MINUTE &&
    offset < BUSINESS_DAY_END_MINUTE
  );
}

/** First day of the calendar month before the month of `isoDate`, and first day of `isoDate`'s month. */
export function previousMonthRange(isoDate: string): { start: string; end: string } {
  const year = Number(isoDate.slice(0, 4));
  const month = Number(isoDate.slice(5, 7));
  const end = `${isoDate.slice(0, 7)}-01`;
  const previousYear = month === 1 ? year - 1 : year;
  const previousMonth = month === 1 ? 12 : month - 1;
  return { start: `${previousYear}-${String(previousMonth).padStart(2, "0")}-01`, end };
}
