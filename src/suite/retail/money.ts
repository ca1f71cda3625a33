/** Rounds to cents, nudging by a tiny epsilon so that x.xx5 values round the way a person expects. */
export function roundCents(value: number): number {
  return Math.round((value + Math.sign(value) * 1e-9) * 100) / 100;
}

/** Formats an amount as `$1,234.50`. */
export function formatUsd(value: number): string {
  return `$${value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}
