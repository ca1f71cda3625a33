/** The academic calendar: which terms exist relative to the instance's reference date, and their key dates. */

export interface Term {
  /** Banner-style code, sortable: YYYY01 for spring, YYYY08 for fall. */
  code: string;
  name: string;
  season: "spring" | "fall";
  year: number;
  startDate: string;
  addDropDeadline: string;
  endDate: string;
  gradesDueDate: string;
}

/** How many graded terms precede the term in progress. */
export const COMPLETED_TERM_COUNT = 4;

/** Month-day of each key date; the term code ends in the month classes begin. */
const SEASONS = {
  spring: { name: "Spring", month: "01", start: "01-13", addDrop: "01-27", end: "05-09", gradesDue: "05-16" },
  fall: { name: "Fall", month: "08", start: "08-26", addDrop: "09-09", end: "12-13", gradesDue: "12-20" },
};

function makeTerm(season: Term["season"], year: number): Term {
  const dates = SEASONS[season];
  return {
    code: `${year}${dates.month}`,
    name: `${dates.name} ${year}`,
    season,
    year,
    startDate: `${year}-${dates.start}`,
    addDropDeadline: `${year}-${dates.addDrop}`,
    endDate: `${year}-${dates.end}`,
    gradesDueDate: `${year}-${dates.gradesDue}`,
  };
}

function previousTerm(term: Term): Term {
  return term.season === "fall" ? makeTerm("spring", term.year) : makeTerm("fall", term.year - 1);
}

/** The term after `term` (the calendar lists one upcoming term so the current one is not the last row). */
export function nextTerm(term: Term): Term {
  return term.season === "fall" ? makeTerm("spring", term.year + 1) : makeTerm("fall", term.year);
}

/**
 * The term in progress (or about to start) at the reference date, and the graded terms before it,
 * oldest first. The current term is last.
 */
export function termsForReferenceDate(referenceDate: string): { completed: Term[]; current: Term } {
  const year = Number(referenceDate.slice(0, 4));
  const monthDay = referenceDate.slice(5);
  // Grades of a term are on record once its grades-due date has passed; until then it is "current".
  const current =
    monthDay <= SEASONS.spring.gradesDue
      ? makeTerm("spring", year)
      : monthDay <= SEASONS.fall.gradesDue
        ? makeTerm("fall", year)
        : makeTerm("spring", year + 1);
  const completed: Term[] = [];
  let cursor = current;
  for (let index = 0; index < COMPLETED_TERM_COUNT; index += 1) {
    cursor = previousTerm(cursor);
    completed.unshift(cursor);
  }
  return { completed, current };
}
