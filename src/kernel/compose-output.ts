/** The default cap on what one execution returns to the model (characters), as in the paper's runtime. */
export const DEFAULT_MAX_OUTPUT_CHARS = 50_000;
export const NO_OUTPUT = "(no output)";

// CSI sequences, OSC sequences and single-character escapes.
const ANSI_PATTERN = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI_PATTERN, "");
}

/**
 * Cuts the middle out of a long text, keeping 70% head and 30% tail, with a marker that says how much was
 * omitted and asks for concise summaries instead of raw data.
 */
export function truncateMiddle(
  text: string,
  maxChars: number = DEFAULT_MAX_OUTPUT_CHARS,
): { text: string; truncated: boolean } {
  if (text.length <= maxChars) return { text, truncated: false };
  const headChars = Math.floor(maxChars * 0.7);
  const tailChars = maxChars - headChars;
  const omitted = text.length - headChars - tailChars;
  const marker =
    `\n\n... [${omitted} characters omitted: output truncated to ${maxChars} characters. ` +
    `Print concise summaries (counts, aggregates, the few rows you need) instead of raw data.] ...\n\n`;
  return { text: text.slice(0, headChars) + marker + text.slice(text.length - tailChars), truncated: true };
}

export interface OutputParts {
  /** Notes that precede the output (for example that the kernel was restarted). */
  notes: string[];
  stdout: string;
  /** repr of the trailing expression's value, if any. */
  value: string | null;
  stderr: string;
  /** The trimmed traceback when the program raised. */
  traceback: string | null;
  /** Messages about how the execution ended (timeout, crash), after everything else. */
  trailer: string[];
}

/**
 * What one execution returns to the model: stdout, then the trailing expression's value, then a
 * `[stderr]:` block with stderr and the traceback; ANSI codes stripped; `(no output)` when empty;
 * then the middle cut.
 */
export function composeOutput(
  parts: OutputParts,
  maxChars: number = DEFAULT_MAX_OUTPUT_CHARS,
): { text: string; truncated: boolean } {
  const sections: string[] = [];
  for (const note of parts.notes) sections.push(note);
  const body: string[] = [];
  if (parts.stdout.length > 0) body.push(parts.stdout.replace(/\n$/, ""));
  if (parts.value !== null) body.push(parts.value);
  const errorText = [parts.stderr.replace(/\n$/, ""), (parts.traceback ?? "").replace(/\n$/, "")]
    .filter((text) => text.length > 0)
    .join("\n");
  if (errorText.length > 0) body.push(`[stderr]:\n${errorText}`);
  const bodyText = stripAnsi(body.join("\n"));
  sections.push(
    bodyText.trim().length > 0
      ? bodyText
      : parts.notes.length + parts.trailer.length > 0 && bodyText.length === 0
        ? ""
        : NO_OUTPUT,
  );
  for (const line of parts.trailer) sections.push(line);
  const text = sections.filter((section) => section.length > 0).join("\n");
  return truncateMiddle(text.length > 0 ? text : NO_OUTPUT, maxChars);
}
