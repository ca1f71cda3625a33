/** Calendar arithmetic on ISO dates, in UTC so that results never depend on the host's time zone. */

const DAY_MS = 86_400_000;

function toEpochDay(date: string): number {
  return Math.round(Date.parse(`${date.slice(0, 10)}T00:00:00Z`) / DAY_MS);
}

function fromEpochDay(epochDay: number): string {
  return new Date(epochDay * DAY_MS).toISOString().slice(0, 10);
}

/** The date `days` after `date` (negative for before); accepts dates or date-times, returns a date. */
export function addDays(date: string, days: number): string {
  return fromEpochDay(toEpochDay(date) + days);
}

/** Whole calendar days from `from` to `to` (date parts only). */
export function daysBetween(from: string, to: string): number {
  return toEpochDay(to) - toEpochDay(from);
}

/** `YYYY-MM-DDTHH:MM:SS` for a date and a number of seconds into that day. */
export function dateTime(date: string, secondsIntoDay: number): string {
  const hours = Math.floor(secondsIntoDay / 3600);
  const minutes = Math.floor((secondsIntoDay % 3600) / 60);
  const seconds = secondsIntoDay % 60;
  const pad = (value: number): string => String(value).padStart(2, "0");
  return `${date.slice(0, 10)}T${pad(hours)}:${pad(minutes)}:${pad(seconds)}`;
}

/** The first and last dates of the calendar month before the one containing `date`. */
export function previousMonth(date: string): { start: string; end: string; label: string; key: string } {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const previousYear = month === 1 ? year - 1 : year;
  const previousMonthNumber = month === 1 ? 12 : month - 1;
  const key = `${previousYear}-${String(previousMonthNumber).padStart(2, "0")}`;
  const start = `${key}-01`;
  const end = addDays(`${year}-${String(month).padStart(2, "0")}-01`, -1);
  const label = new Date(`${start}T00:00:00Z`).toLocaleString("en-US", {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
  return { start, end, label, key };
}

/** "March 4, 2026" style, as people write dates in memos. */
export function longDate(date: string): string {
  return new Date(`${date.slice(0, 10)}T00:00:00Z`).toLocaleString("en-US", {
    month: "long",
    day: "numeric",
    year: "numeric",
    timeZone: "UTC",
  });
}
