/**
 * What an instance's documents say, read back for the verifiers with the same patterns the oracles use: the
 * sponsors' terms, the rate agreement and procedures (workspace), and the OCR pages of the scanned pile.
 * Expectations follow the text the agent read, never the generator's drafts.
 */
import type { StateView } from "../../envs/index.js";
import { allRows, ocrAmountsIn, parseMarkdownTable } from "../../envs/index.js";
import { CATEGORIES, PATHS } from "./rules.js";
import type { Category } from "./rules.js";

export function requireFile(state: StateView, path: string): string {
  const text = state.readFile(path);
  if (text === null) throw new Error(`workspace file ${path} is missing`);
  return text;
}

function find(text: string, pattern: RegExp, what: string): RegExpExecArray {
  const found = pattern.exec(text);
  if (!found) throw new Error(`cannot read ${what}`);
  return found;
}

const dollars = (text: string): number => Number(text.replace(/[$,]/g, ""));

export interface Terms {
  idc: { rate: number; base: "MTDC" | "TDC" } | null;
  unallowable: Set<string>;
  equipmentThreshold: number;
  rebudgetPct: number | null;
  effortPct: number | null;
  extension: { months: number; noticeDays: number } | null;
}

/** The university-wide rules: the negotiated rate, MTDC exclusions and subaward cap, thresholds and caps. */
export function readPolicies(state: StateView) {
  const agreement = requireFile(state, PATHS.rateAgreement);
  const manual = requireFile(state, PATHS.manual);
  const research = parseMarkdownTable(agreement, "Rates").find((row) => row[0] === "Organized research");
  if (!research) throw new Error("cannot read the negotiated research rate");
  return {
    negotiatedRate: Number(research[1]!.replace("%", "")),
    excluded: new Set(
      find(agreement, /the exclusions are object codes (.*?)\. A subaward/, "the MTDC exclusions")[1]!.match(
        /\d{4}/g,
      ),
    ),
    subawardCap: dollars(
      find(agreement, /up to the first (\$[\d,.]+) of each subaward/, "the subaward cap")[1]!,
    ),
    equipmentThreshold: dollars(
      find(manual, /capitalizes items costing (\$[\d,.]+) or more per unit/, "the equipment threshold")[1]!,
    ),
    effortCaps: new Map(
      parseMarkdownTable(manual, "Effort").map(([appointment, cap]) => [
        appointment!.replace(" ", "_"),
        Number(cap!.replace("%", "")),
      ]),
    ),
  };
}

/** Each sponsor's terms, by sponsor id. */
export function readTerms(state: StateView): Map<string, Terms> {
  const policies = readPolicies(state);
  const sponsors = allRows<{ sponsor_id: string; terms_document: string }>(
    state.db,
    "SELECT sponsor_id, terms_document FROM sponsors",
  );
  return new Map(
    sponsors.map(({ sponsor_id, terms_document }) => {
      const text = requireFile(state, terms_document);
      const rate =
        /paid at ([\d.]+)% of (?:total direct costs \((TDC)\)|modified total direct costs \((MTDC)\))/.exec(
          text,
        );
      const idc = /federally negotiated rate/.test(text)
        ? { rate: policies.negotiatedRate, base: "MTDC" as const }
        : rate
          ? { rate: Number(rate[1]), base: rate[2] ? ("TDC" as const) : ("MTDC" as const) }
          : null;
      const unallowable = text.slice(text.indexOf("## Unallowable costs"), text.indexOf("## Equipment"));
      const equipment = /equipment is an article costing (\$[\d,.]+) or more per unit/.exec(text);
      const extension = /up to (\d+) months beyond .*? at least (\d+) days before/.exec(text);
      const terms: Terms = {
        idc,
        unallowable: new Set([...unallowable.matchAll(/\(object code (\d{4})\)/g)].map((match) => match[1]!)),
        equipmentThreshold: equipment ? dollars(equipment[1]!) : policies.equipmentThreshold,
        rebudgetPct:
          Number(/exceeds (\d+)% of its approved direct-cost budget/.exec(text)?.[1] ?? NaN) || null,
        effortPct: Number(/A reduction of (\d+)% or more in the effort/.exec(text)?.[1] ?? NaN) || null,
        extension: extension ? { months: Number(extension[1]), noticeDays: Number(extension[2]) } : null,
      };
      return [sponsor_id, terms];
    }),
  );
}

/** Every award's sponsor id and status. */
export function awardsOf(
  state: StateView,
): Map<string, { sponsor_id: string; status: string; end_date: string; extensions: number }> {
  const rows = allRows<{
    award_id: string;
    sponsor_id: string;
    status: string;
    end_date: string;
    extensions: number;
  }>(state.db, "SELECT * FROM awards");
  return new Map(rows.map((row) => [row.award_id, row]));
}

/** The OCR text of every document of a type (pages joined), by doc id, with its register row. */
export function scans(
  state: StateView,
  docType: string,
): Array<{ doc_id: string; award_id: string | null; status: string; received_on: string; text: string }> {
  const docs = allRows<{ doc_id: string; award_id: string | null; status: string; received_on: string }>(
    state.db,
    "SELECT doc_id, award_id, status, received_on FROM documents WHERE doc_type = ? ORDER BY doc_id",
    docType,
  );
  return docs.map((doc) => ({
    ...doc,
    text: allRows<{ ocr_text: string }>(
      state.db,
      "SELECT ocr_text FROM document_pages WHERE doc_id = ? ORDER BY page_no",
      doc.doc_id,
    )
      .map((row) => row.ocr_text)
      .join("\n"),
  }));
}

/** `07/31/2025` -> `2025-07-31` */
export const isoFromMdy = (text: string): string =>
  `${text.slice(6, 10)}-${text.slice(0, 2)}-${text.slice(3, 5)}`;

/** An award letter: the award, the amendment number (0 for the original) and the budget lines it prints. */
export function readLetter(text: string): {
  award: string;
  amendment: number;
  budget: Map<Category, number>;
} {
  const budget = new Map<Category, number>();
  for (const line of text.split("\n"))
    for (const [category, label] of Object.entries(CATEGORIES))
      if (line.trimStart().startsWith(label))
        budget.set(category as Category, ocrAmountsIn(line.slice(line.indexOf(label) + label.length))[0]!);
  return {
    award: find(text, /Award No\.: (AWD-\d{5})/, "an award letter's award")[1]!,
    amendment: Number(/AMENDMENT No\. (\d+)/.exec(text)?.[1] ?? 0),
    budget,
  };
}

/** A subaward invoice's number, subaward, billed period end, current-period total and signature. */
export function readInvoice(text: string) {
  const total = find(text, /^TOTAL AMOUNT DUE(.*)$/m, "an invoice total")[1]!;
  return {
    invoiceNo: find(text, /Invoice No\.: (\S+)/, "an invoice number")[1]!,
    subaward: find(text, /Subaward No\.: (SUB-\d{4})/, "an invoice's subaward")[1]!,
    periodEnd: isoFromMdy(
      find(text, /billed: \d\d\/\d\d\/\d{4} - (\d\d\/\d\d\/\d{4})/, "an invoice period")[1]!,
    ),
    amount: ocrAmountsIn(total)[0]!,
    signed: /^Signature: \/s\//m.test(text),
  };
}

export const CERT_ROW = /^\s*(AWD-\d{5})\s+(.*?)\s+(\d+(?:\.\d+)?)\s*%?\s+(\d+(?:\.\d+)?)\s*%?\s*$/;

/** An effort certification: the person and, per award, committed and certified effort. */
export function readCertification(text: string): {
  person: string;
  rows: Array<{ award: string; committed: number; certified: number }>;
} {
  return {
    person: find(text, /Employee ID: (EMP-\d{5})/, "a certification's employee")[1]!,
    rows: text
      .split("\n")
      .map((line) => CERT_ROW.exec(line))
      .filter((match) => match !== null)
      .map((match) => ({ award: match[1]!, committed: Number(match[3]), certified: Number(match[4]) })),
  };
}

/** An extension request: the award, its current end date and the end date asked for (ISO dates). */
export function readRequest(text: string): { award: string; currentEnd: string; newEnd: string } {
  const joined = text.replace(/-\n\s*/g, "").replace(/\s*\n\s*/g, " ");
  const dates = find(
    joined,
    /current end date of (\w+ \d{1,2}, \d{4}) to (\w+ \d{1,2}, \d{4})/,
    "a request's dates",
  );
  const iso = (date: string): string => new Date(`${date} UTC`).toISOString().slice(0, 10);
  return {
    award: find(joined, /Re: Request for no-cost extension - Award (AWD-\d{5})/, "a request's award")[1]!,
    currentEnd: iso(dates[1]!),
    newEnd: iso(dates[2]!),
  };
}
