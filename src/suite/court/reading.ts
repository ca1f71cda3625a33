import { MONTH_NAMES, parseOcrAmount } from "../../envs/index.js";

/** Readers for the scanned papers, as a careful program reads them (the oracles' Python does the same). */
const MONTHS = MONTH_NAMES.map((name) => name.slice(0, 3).toUpperCase());
const iso = (y: number, m: number, d: number): string =>
  `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;

/** The first date in `text` in any of the papers' styles, as YYYY-MM-DD. */
export function parseDate(text: string): string | null {
  let m = /(\d{4})-(\d\d)-(\d\d)/.exec(text);
  if (m) return iso(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /(\d{1,2})\/(\d{1,2})\/(\d{2,4})\b/.exec(text);
  if (m) return iso(m[3]!.length === 2 ? 2000 + Number(m[3]) : Number(m[3]), Number(m[1]), Number(m[2]));
  m = /\b([A-Za-z]{3})[a-z]* (\d{1,2}),? (\d{4})/.exec(text);
  if (m && MONTHS.includes(m[1]!.toUpperCase()))
    return iso(Number(m[3]), MONTHS.indexOf(m[1]!.toUpperCase()) + 1, Number(m[2]));
  m = /\b(\d{1,2}) ([A-Z]{3}) (\d{4})/.exec(text);
  if (m && MONTHS.includes(m[2]!)) return iso(Number(m[3]), MONTHS.indexOf(m[2]!) + 1, Number(m[1]));
  return null;
}

/** A case number in any of its written forms (O/0 and l/1 misreads undone) as `CV-2025-00123`. */
export function parseCaseNumber(text: string): string | null {
  const fixed = text.replace(/[\dOlI]+/g, (run) => run.replace(/O/g, "0").replace(/[lI]/g, "1"));
  let m = /\b(CV|SC)-(\d{4})-(\d{5})\b/.exec(fixed);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  m = /\b(CV|SC) (\d{2})-(\d+)\b/.exec(fixed);
  if (m) return `${m[1]}-20${m[2]}-${m[3]!.padStart(5, "0")}`;
  m = /No\. (\d{4})(CV|SC)(\d+)\b/.exec(fixed);
  if (m) return `${m[2]}-${m[1]}-${m[3]!.padStart(5, "0")}`;
  return null;
}

/** A scanned batch split into documents: pages separated by form feeds, a document starting at "Page 1 of". */
export function splitDocuments(text: string): string[] {
  const docs: string[] = [];
  for (const page of text.split("\f")) {
    if (!page.trim()) continue;
    if (/Page 1 of \d+/.test(page) || docs.length === 0) docs.push(page);
    else docs[docs.length - 1] += `\n${page}`;
  }
  return docs;
}

const lineAfter = (doc: string, label: RegExp): string | null => {
  const lines = doc.split("\n");
  const at = lines.findIndex((line) => label.test(line));
  return at < 0 ? null : (lines.slice(at + 1).find((line) => line.trim() !== "") ?? null);
};

/** The FILED stamp's date: the date in the three lines under "F I L E D". */
export const stampDate = (doc: string): string | null =>
  parseDate(
    doc
      .split(/F I L E D/)[1]
      ?.split("\n")
      .slice(1, 4)
      .join("\n") ?? "",
  );

export const docCaseNumber = (doc: string): string | null =>
  parseCaseNumber(lineAfter(doc, /CASE NUMBER:/) ?? "");

export interface Proof {
  caseId: string | null;
  served: string | null;
  method: "personal" | "substituted" | null;
  mailed: string | null;
  signed: boolean;
  filed: string | null;
}

export function readProof(doc: string): Proof {
  const method = /\[[Xx]\] by (personal|substituted) service/.exec(doc)?.[1] as Proof["method"] | undefined;
  return {
    caseId: docCaseNumber(doc),
    served: parseDate(/Date of service: (.*?)\s{2,}/.exec(doc)?.[1] ?? ""),
    method: method ?? null,
    mailed: parseDate(/mailed a copy on \(date\): (.*)/.exec(doc)?.[1] ?? ""),
    signed: /^\s*\/s\/ \S/m.test(doc),
    filed: stampDate(doc),
  };
}

/** The amount on the receipt stamp's FEE PAID line, OCR misreads undone. */
export function feePaid(text: string): number | null {
  const found = /FEE PAID: \$ (.*)/.exec(text)?.[1]?.trim();
  return found ? parseOcrAmount(found) : null;
}

/** An intake paper's docket entry type: the first listed title its text (lines joined) contains. */
export function intakeType(doc: string, titles: string[][]): string | null {
  const joined = doc.replace(/-\n\s*/g, "").replace(/\s+/g, " ");
  return titles.find(([title]) => joined.includes(title!))?.[1] ?? null;
}
