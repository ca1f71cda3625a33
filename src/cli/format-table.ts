/**
 * A plain aligned text table (for terminals and Markdown-free logs). With `maxWidth`, the last column is cut
 * (ending in "...") so that every line fits.
 */
export function formatTable(
  headers: string[],
  rows: Array<Array<string | number>>,
  options: { maxWidth?: number } = {},
): string {
  const cells = rows.map((row) => row.map((cell) => String(cell)));
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...cells.map((row) => (row[column] ?? "").length)),
  );
  const last = headers.length - 1;
  if (options.maxWidth !== undefined && last >= 0) {
    const before = widths.slice(0, last).reduce((sum, width) => sum + width + 2, 0);
    widths[last] = Math.max(headers[last]!.length, Math.min(widths[last]!, options.maxWidth - before));
    for (const row of cells) {
      const value = row[last];
      if (value !== undefined && value.length > widths[last])
        row[last] = `${value.slice(0, Math.max(0, widths[last] - 3)).trimEnd()}...`;
    }
  }
  const line = (row: string[]): string =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join("  ")
      .trimEnd();
  return [line(headers), line(widths.map((width) => "-".repeat(width))), ...cells.map(line)].join("\n");
}
