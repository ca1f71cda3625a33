/** Numbers as the page shows them. */

// Formatters made once: toLocaleString makes one per call, which a list of thousands of cells feels.
const WHOLE = new Intl.NumberFormat("en-US");
const SMALL = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });
const LARGE = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });

export function formatCount(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "-";
  if (Number.isInteger(value)) return WHOLE.format(value);
  return (Math.abs(value) < 10 ? SMALL : LARGE).format(value);
}

/** 12,345 tokens as `12.3k`, small counts as they are. */
export function formatTokens(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "-";
  if (Math.abs(value) < 10_000) return formatCount(Math.round(value));
  return `${(value / 1000).toFixed(value < 100_000 ? 1 : 0)}k`;
}

export function formatDuration(milliseconds: number | null | undefined): string {
  if (milliseconds === null || milliseconds === undefined || !Number.isFinite(milliseconds)) return "-";
  if (milliseconds < 1000) return `${Math.round(milliseconds)} ms`;
  if (milliseconds < 60_000) return `${(milliseconds / 1000).toFixed(1)} s`;
  return `${Math.floor(milliseconds / 60_000)} min ${Math.round((milliseconds % 60_000) / 1000)} s`;
}

export function formatRate(passed: number, total: number): string {
  if (total === 0) return "-";
  return (passed / total).toFixed(2);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}
