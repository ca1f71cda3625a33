import { buildSummaryTable } from "./report-content.js";
import type { SummaryRow } from "./results-file.js";

/**
 * The summary per harness and scale as a plain text table with aligned columns (numbers right-aligned),
 * for the console after a run.
 */
export function formatSummaryTable(summary: readonly SummaryRow[]): string {
  const table = buildSummaryTable(summary);
  const header = table.columns.map((column) => column.label);
  const widths = header.map((label, index) =>
    Math.max(label.length, ...table.rows.map((row) => (row[index] ?? "").length)),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, index) => {
        const width = widths[index] ?? 0;
        return table.columns[index]?.numeric ? cell.padStart(width) : cell.padEnd(width);
      })
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((width) => "-".repeat(width)).join("  "), ...table.rows.map(line)].join(
    "\n",
  );
}
