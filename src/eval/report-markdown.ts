import { buildReportContent, type ReportInput, type ReportTable } from "./report-content.js";

/**
 * Renders a run's metrics as GitHub-flavoured Markdown: run info, the summary per harness and scale, code
 * style, the per-task table and the paper's reference figures (labelled as the paper's).
 */
export function renderMarkdownReport(input: ReportInput): string {
  const content = buildReportContent(input);
  const lines: string[] = [`# ${escapeMarkdown(content.title)}`, ""];
  for (const [label, value] of content.runInfo)
    lines.push(`- **${escapeMarkdown(label)}:** ${escapeMarkdown(value)}`);
  lines.push("", "## Summary by harness and scale", "", ...markdownTable(content.summary), "");
  for (const note of content.summaryNotes) lines.push(escapeMarkdown(note), "");
  lines.push("## Code style (PTC and Hybrid)", "");
  if (content.codeStyle)
    lines.push(...markdownTable(content.codeStyle), "", escapeMarkdown(content.codeStyleNote), "");
  else lines.push("No code blocks in this run.", "");
  lines.push("## Per task", "", ...markdownTable(content.perTask), "");
  if (content.failures)
    lines.push(
      "## Failed episodes",
      "",
      ...markdownTable(content.failures),
      "",
      escapeMarkdown(content.failuresNote),
      "",
    );
  if (content.benchmark) {
    const section = content.benchmark;
    lines.push(`## ${escapeMarkdown(section.heading)}`, "", ...markdownTable(section.run), "");
    lines.push(...markdownTable(section.paper), "");
    for (const note of section.notes) lines.push(`- ${escapeMarkdown(note)}`);
    lines.push("");
  }
  if (content.cost) lines.push("## What the run cost", "", ...markdownTable(content.cost), "");
  lines.push(
    `## ${escapeMarkdown(content.paperHeading)}`,
    "",
    ...markdownTable(content.paperPassAtEight),
    "",
  );
  for (const note of content.paperNotes) lines.push(`- ${escapeMarkdown(note)}`);
  lines.push("");
  return lines.join("\n");
}

function markdownTable(table: ReportTable): string[] {
  const row = (cells: readonly string[]): string => `| ${cells.map(escapeCell).join(" | ")} |`;
  return [
    row(table.columns.map((column) => column.label)),
    `|${table.columns.map((column) => (column.numeric ? " ---: " : " --- ")).join("|")}|`,
    // A failure's row is marked in its first cell (Markdown has no row colours).
    ...table.rows.map((cells, index) =>
      table.highlighted?.[index] ? row([`✗ ${cells[0] ?? ""}`, ...cells.slice(1)]) : row(cells),
    ),
  ];
}

function escapeCell(value: string): string {
  return escapeMarkdown(value.replace(/\s*[\r\n]+\s*/g, " "));
}

/**
 * Backslash-escapes what Markdown would read as markup or raw HTML (task names and run ids are user data).
 * Underscores inside a word are left alone: GFM never reads them as emphasis, and `it_support` stays legible.
 */
function escapeMarkdown(value: string): string {
  return value
    .replace(/[\\`*[\]|<>&~#]/g, (character) => `\\${character}`)
    .replace(/(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, "\\_");
}
