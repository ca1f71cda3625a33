/** HR-specific calendar rules on ISO dates; the general calendar arithmetic comes from the domain kit. */

export function yearOf(isoDate: string): number {
  return Number(isoDate.slice(0, 4));
}

/** Whole years of service completed on `onDate` for someone hired on `hireDate` (anniversary counts). */
export function completedYears(hireDate: string, onDate: string): number {
  const years = yearOf(onDate) - yearOf(hireDate);
  return onDate.slice(5) >= hireDate.slice(5) ? years : years - 1;
}
