/**
 * What a program's output (as the kernel composed it for the model) is made of, so the page can show each
 * part as what it is: notes before, printed output, the trailing expression's value, the `[stderr]:` block
 * with a traceback, the marker where the middle of a long output was cut (50,000 characters by default) and
 * the kernel's bracketed messages after (a timeout, a crash, the episode ending).
 */
export type OutputSectionKind = "note" | "stdout" | "value" | "stderr" | "traceback" | "truncation" | "empty";

export interface OutputSection {
  kind: OutputSectionKind;
  text: string;
}

const TRUNCATION =
  /\n\n\.\.\. \[\d+ characters omitted: output truncated to \d+ characters\.[^\]\n]*\] \.\.\.\n\n/;
const STDERR_HEADER = "[stderr]:\n";
const TRACEBACK_HEADER = "Traceback (most recent call last):";
const EXCEPTION_LINE = /^[A-Za-z_][\w.]*(Error|Exception|Interrupt|Exit|Warning)\b.*$/;
const BRACKETED = /^\[[^\n]*\]$/;

/** Statements that leave no value (what a trailing bare expression would print otherwise). */
const STATEMENT =
  /^(def|class|if|elif|else|for|while|with|try|except|finally|import|from|return|pass|break|continue|raise|assert|del|global|nonlocal|async|await\s|print\s*\(|@)/;

/** Calls that return None, which the kernel does not print. */
const NONE_CALL =
  /^[\w.[\]'"]+\.(append|extend|update|sort|insert|remove|clear|add|discard|write|writelines|reverse|close)\(/;

/** Whether the code's last top-level statement is a bare expression, whose repr the kernel prints last. */
export function endsWithExpression(code: string): boolean {
  const lines = code.split("\n").filter((line) => line.trim().length > 0 && !line.trim().startsWith("#"));
  const last = lines[lines.length - 1];
  if (last === undefined || /^\s/.test(last)) return false;
  if (STATEMENT.test(last) || NONE_CALL.test(last)) return false;
  // An assignment (`x = 1`, `x += 1`, `x: int = 1`), not a comparison (`x == 1`).
  if (/^[\w.[\]'", ]+\s*(:[^=]+)?(\+|-|\*|\/|%|\||&|\^|<<|>>|\*\*|\/\/)?=(?!=)/.test(last)) return false;
  return true;
}

/** Splits a program's output into its sections; `code` decides whether the last printed line is a value. */
export function splitOutput(text: string, code = ""): OutputSection[] {
  if (text === "(no output)") return [{ kind: "empty", text }];
  const truncation = TRUNCATION.exec(text);
  const parts = truncation
    ? [
        { text: text.slice(0, truncation.index), truncated: false },
        { text: truncation[0].trim(), truncated: true },
        { text: text.slice(truncation.index + truncation[0].length), truncated: false },
      ]
    : [{ text, truncated: false }];
  const sections: OutputSection[] = [];
  let inStderr = false;
  parts.forEach((part, index) => {
    if (part.truncated) return void sections.push({ kind: "truncation", text: part.text });
    const first = index === 0;
    const last = index === parts.length - 1;
    let body = part.text;
    const notes: string[] = [];
    const trailer: string[] = [];
    if (first) {
      const lines = body.split("\n");
      while (lines.length > 1 && BRACKETED.test(lines[0]!) && lines[0] !== "[stderr]:")
        notes.push(lines.shift()!);
      body = lines.join("\n");
    }
    if (last) {
      const lines = body.split("\n");
      while (
        lines.length > 0 &&
        BRACKETED.test(lines[lines.length - 1]!) &&
        lines[lines.length - 1] !== "[stderr]:"
      )
        trailer.unshift(lines.pop()!);
      body = lines.join("\n");
    }
    for (const note of notes) sections.push({ kind: "note", text: note });
    const stderrAt = body.startsWith(STDERR_HEADER) ? 0 : body.indexOf(`\n${STDERR_HEADER}`);
    const printed = inStderr ? "" : stderrAt < 0 ? body : body.slice(0, Math.max(0, stderrAt));
    const errors = inStderr
      ? body
      : stderrAt < 0
        ? ""
        : body.slice(stderrAt + (stderrAt === 0 ? 0 : 1) + STDERR_HEADER.length);
    const errorSections = errors.length > 0 ? stderrSections(errors) : [];
    // A program that raised has no trailing value; one that only wrote to stderr may have.
    const mayHaveValue = !truncation && errorSections.every((section) => section.kind !== "traceback");
    if (printed.length > 0) sections.push(...printedSections(printed, mayHaveValue && code));
    if (stderrAt >= 0 || inStderr) inStderr = true;
    sections.push(...errorSections);
    for (const line of trailer) sections.push({ kind: "note", text: line });
  });
  return sections;
}

function printedSections(text: string, code: string | false): OutputSection[] {
  if (!code || !endsWithExpression(code)) return [{ kind: "stdout", text }];
  const cut = text.lastIndexOf("\n");
  if (cut < 0) return [{ kind: "value", text }];
  return [
    { kind: "stdout", text: text.slice(0, cut) },
    { kind: "value", text: text.slice(cut + 1) },
  ];
}

function stderrSections(text: string): OutputSection[] {
  const tracebackAt = text.indexOf(TRACEBACK_HEADER);
  if (tracebackAt >= 0) {
    const before = text.slice(0, tracebackAt).replace(/\n$/, "");
    return [
      ...(before.length > 0 ? [{ kind: "stderr" as const, text: before }] : []),
      { kind: "traceback", text: text.slice(tracebackAt) },
    ];
  }
  // A traceback without frames (the kernel keeps only the program's own) is its exception line alone.
  const lines = text.replace(/\n$/, "").split("\n");
  const lastLine = lines[lines.length - 1] ?? "";
  if (EXCEPTION_LINE.test(lastLine)) {
    const before = lines.slice(0, -1).join("\n");
    return [
      ...(before.length > 0 ? [{ kind: "stderr" as const, text: before }] : []),
      { kind: "traceback", text: lastLine },
    ];
  }
  return [{ kind: "stderr", text }];
}
