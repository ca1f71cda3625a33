/** Money as numbers of dollars with cents, rounded the way a person (and a spreadsheet) expects. */

/** Rounds to cents, nudging by a tiny epsilon so that x.xx5 values round half away from zero. */
export function roundCents(value: number): number {
  return Math.round((value + Math.sign(value) * 1e-9) * 100) / 100;
}

/** `$1,234.50` (negative amounts as `-$12.00`). */
export function formatUsd(value: number): string {
  const text = Math.abs(value).toLocaleString("en-US", {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  return value < 0 ? `-$${text}` : `$${text}`;
}

/** Sums amounts and rounds the total to cents once (not per item). */
export function sumCents(values: Iterable<number>): number {
  let total = 0;
  for (const value of values) total += value;
  return roundCents(total);
}
