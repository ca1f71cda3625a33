/**
 * Workspace document writers (and readers for verifiers): CSV, Markdown, JSON. Generators render with them
 * and verifiers parse the same files back, so expectations come from exactly the text the agent reads.
 */

/** A CSV cell value; null is the empty cell. */
export type CsvValue = string | number | boolean | null;

/** One CSV cell: the value as text, quoted (with doubled quotes) only when it holds a quote, comma or line break. */
export function csvCell(value: CsvValue): string {
  const text = value === null ? "" : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** RFC 4180 CSV: a header line, one line per row, `\n` line ends and a final newline; quotes only when needed. */
export function toCsv(headers: readonly string[], rows: ReadonlyArray<readonly CsvValue[]>): string {
  return `${[headers, ...rows].map((row) => row.map(csvCell).join(",")).join("\n")}\n`;
}

/** Splits CSV text into rows of cells (quoted cells, doubled quotes, `\n` or `\r\n` line ends). */
export function parseCsvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index] as string;
    if (quoted) {
      if (character === '"' && text[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (character === '"') quoted = false;
      else cell += character;
    } else if (character === '"') quoted = true;
    else if (character === ",") {
      row.push(cell);
      cell = "";
    } else if (character === "\n" || character === "\r") {
      if (character === "\r" && text[index + 1] === "\n") index += 1;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
    } else cell += character;
  }
  if (cell !== "" || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/** The cells of one CSV line (quoted cells and doubled quotes honoured); an empty line is one empty cell. */
export function splitCsvLine(line: string): string[] {
  return parseCsvRows(line)[0] ?? [""];
}

/**
 * CSV text as records keyed by the header row. Blank lines are skipped; a short row gives empty strings.
 * With `trim`, headers and cells are trimmed (tolerant reading of files an agent wrote).
 */
export function parseCsv(text: string, options: { trim?: boolean } = {}): Array<Record<string, string>> {
  const clean = (value: string): string => (options.trim ? value.trim() : value);
  const rows = parseCsvRows(text).filter((row) => row.some((cell) => cell.trim() !== ""));
  const [headers, ...body] = rows;
  if (!headers) return [];
  return body.map((row) =>
    Object.fromEntries(headers.map((header, index) => [clean(header), clean(row[index] ?? "")])),
  );
}

/** A Markdown pipe table (header, `---` rule, rows), no trailing newline. */
export function markdownTable(
  headers: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<string | number>>,
): string {
  const line = (cells: ReadonlyArray<string | number>): string => `| ${cells.map(String).join(" | ")} |`;
  return [line(headers), line(headers.map(() => "---")), ...rows.map(line)].join("\n");
}

/**
 * The body rows of the first Markdown table under the first heading that contains `headingText` (cells
 * trimmed, header and rule rows dropped). Throws when there is no such heading.
 */
export function parseMarkdownTable(markdown: string, headingText: string): string[][] {
  const lines = markdown.split("\n");
  const start = lines.findIndex((line) => line.startsWith("#") && line.includes(headingText));
  if (start < 0) throw new Error(`no heading containing '${headingText}'`);
  const rows: string[][] = [];
  let seenHeader = false;
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith("#")) break;
    if (!line.startsWith("|")) {
      if (rows.length > 0) break;
      continue;
    }
    const cells = line
      .slice(1, line.trimEnd().length - 1)
      .split("|")
      .map((cell) => cell.trim());
    if (!seenHeader) {
      seenHeader = true;
      continue;
    }
    if (cells.every((cell) => /^:?-+:?$/.test(cell))) continue;
    rows.push(cells);
  }
  return rows;
}

/** `md_table(text, heading)` for oracle programs: the body rows of the table under the heading, as `parseMarkdownTable` reads them. */
export const PYTHON_MARKDOWN_HELPERS = String.raw`
def md_table(text, heading):
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("#") and heading in line)
    rows, seen_header = [], False
    for line in lines[start + 1:]:
        if line.startswith("#") or (not line.startswith("|") and rows):
            break
        if not line.startswith("|"):
            continue
        cells = [cell.strip() for cell in line.rstrip()[1:-1].split("|")]
        if not seen_header:
            seen_header = True
        elif not all(re.fullmatch(r":?-+:?", cell) for cell in cells):
            rows.append(cells)
    return rows
`;

/** One block of a Markdown document. */
export type MarkdownBlock =
  | string
  | { heading: string; level?: 2 | 3 | 4 }
  | { bullets: readonly string[] }
  | { numbered: readonly string[] }
  | { table: { headers: readonly string[]; rows: ReadonlyArray<ReadonlyArray<string | number>> } };

/**
 * A Markdown document: `# title`, then the blocks separated by blank lines (a string is a paragraph), with a
 * final newline.
 *
 * @example
 * renderMarkdown("Returns policy", [
 *   "Effective 2025-01-01.",
 *   { heading: "Windows" },
 *   { table: { headers: ["tier", "days"], rows: [["gold", 60]] } },
 * ]);
 */
export function renderMarkdown(title: string, blocks: readonly MarkdownBlock[]): string {
  const parts = [`# ${title}`];
  for (const block of blocks) {
    if (typeof block === "string") parts.push(block);
    else if ("heading" in block) parts.push(`${"#".repeat(block.level ?? 2)} ${block.heading}`);
    else if ("bullets" in block) parts.push(block.bullets.map((item) => `- ${item}`).join("\n"));
    else if ("numbered" in block)
      parts.push(block.numbered.map((item, index) => `${index + 1}. ${item}`).join("\n"));
    else parts.push(markdownTable(block.table.headers, block.table.rows));
  }
  return `${parts.join("\n\n")}\n`;
}

/** A JSON workspace document: two-space indentation and a final newline. */
export function toJsonDocument(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * An e-mail as a workspace file: one `Name: value` line per header in the order given (`From`, `Sent`,
 * `Subject`, ...), a blank line, the body's paragraphs separated by blank lines, and a final newline.
 *
 * @example
 * renderEmail({ From: "Ann Lee <ann@example.com>", Date: "2025-06-02", Subject: "Credit request" },
 *             ["Hello billing team,", "Please credit invoice INV-00042.", "Thanks,\nAnn Lee"]);
 */
export function renderEmail(
  headers: Readonly<Record<string, string>>,
  body: string | readonly string[],
): string {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  const paragraphs = typeof body === "string" ? [body] : body;
  return `${lines.join("\n")}\n\n${paragraphs.join("\n\n")}\n`;
}

/** A workspace file a verifier reads back; throws naming it when the generator did not write it. */
export function requireFile(state: { readFile(path: string): string | null }, path: string): string {
  const text = state.readFile(path);
  if (text === null) throw new Error(`workspace file ${path} is missing`);
  return text;
}
