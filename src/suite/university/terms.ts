/** The academic calendar: which terms exist relative to the instance's reference date, and their key dates. */
import { makeDate } from "../../envs/index.js";

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

function makeTerm(season: Term["season"], year: number): Term {
  if (season === "spring") {
    return {
      code: `${year}01`,
      name: `Spring ${year}`,
      season,
      year,
      startDate: makeDate(year, 1, 13),
      addDropDeadline: makeDate(year, 1, 27),
      endDate: makeDate(year, 5, 9),
      gradesDueDate: makeDate(year, 5, 16),
    };
  }
  return {
    code: `${year}08`,
    name: `Fall ${year}`,
    season,
    year,
    startDate: makeDate(year, 8, 26),
    addDropDeadline: makeDate(year, 9, 9),
    endDate: makeDate(year, 12, 13),
    gradesDueDate: makeDate(year, 12, 20),
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
    monthDay <= "05-16"
      ? makeTerm("spring", year)
      : monthDay <= "12-20"
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
