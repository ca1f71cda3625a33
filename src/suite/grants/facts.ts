/**
 * What an instance's documents say, read back for the verifiers with the same patterns the oracles use: the
 * sponsors' terms, the rate agreement and procedures (workspace), and the OCR pages of the scanned pile.
 * Expectations follow the text the agent read, never the generator's drafts.
 */
import type { StateView } from "../../envs/index.js";
import { allRows, ocrAmountsIn, parseMarkdownTable, requireFile } from "../../envs/index.js";
import { CATEGORIES, PATHS } from "./rules.js";
import type { Category } from "./rules.js";

type Strings<Names extends string> = Record<Names, string>;
type Ledger = Strings<"txn_id" | "award_id" | "object_code" | "category" | "description" | "posted_on">;
export type Charge = Ledger & { amount: number; subaward_id: string | null };
export type AwardRow = Strings<"award_id" | "sponsor_id" | "status" | "end_date"> & { extensions: number };
export type Terms = ReturnType<typeof readTerms> extends Map<string, infer T> ? T : never;

/** The posted charges matching a condition on `transactions`, in id order. */
export function charges(state: StateView, where: string, ...params: unknown[]): Charge[] {
  const sql = `SELECT * FROM transactions WHERE status = 'posted' AND ${where} ORDER BY txn_id`;
  return allRows<Charge>(state.db, sql, ...params);
}

/** Throws when generation left a task without a case to act on (the verifier would reward doing nothing). */
export function nonEmpty<T extends { size: number } | { length: number }>(value: T, what: string): T {
  if (("size" in value ? value.size : value.length) === 0) throw new Error(`generation produced no ${what}`);
  return value;
}

/** The first group of `pattern` in `text`; throws naming `what` when it is not there. */
function group(text: string, pattern: RegExp, what: string): string {
  const found = pattern.exec(text);
  if (!found) throw new Error(`cannot read ${what}`);
  return found[1]!;
}

const dollars = (text: string): number => Number(text.replace(/[$,%]/g, ""));
const optional = (text: string, pattern: RegExp): number | null => {
  const found = pattern.exec(text);
  return found ? dollars(found[1]!) : null;
};

/** The university-wide rules: the negotiated rate, MTDC exclusions and subaward cap, thresholds and caps. */
export function readPolicies(state: StateView) {
  const [agreement, manual] = [requireFile(state, PATHS.rateAgreement), requireFile(state, PATHS.manual)];
  const research = parseMarkdownTable(agreement, "Rates").find((row) => row[0] === "Organized research");
  const excluded = group(agreement, /exclusions are object codes (.*?)\. A subaward/, "the exclusions");
  const caps = parseMarkdownTable(manual, "Effort").map(
    ([who, cap]) => [who!.replace(" ", "_"), dollars(cap!)] as const,
  );
  const cap = group(agreement, /up to the first (\$[\d,.]+) of each subaward/, "the subaward cap");
  const equipment = group(manual, /capitalizes items costing (\$[\d,.]+) or more/, "the threshold");
  const negotiatedRate = dollars(research?.[1] ?? "NaN");
  return {
    negotiatedRate,
    excluded: new Set(excluded.match(/\d{4}/g)),
    subawardCap: dollars(cap),
    equipment: dollars(equipment),
    effortCaps: new Map(caps),
  };
}

const RATE = /paid at ([\d.]+)% of (?:total direct costs \((TDC)\)|modified total direct costs)/;

/** Each sponsor's terms, by sponsor id. */
export function readTerms(state: StateView) {
  const policies = readPolicies(state);
  type Row = { sponsor_id: string; terms_document: string };
  const sponsors = allRows<Row>(state.db, "SELECT * FROM sponsors");
  return new Map(
    sponsors.map(({ sponsor_id, terms_document }) => {
      const text = requireFile(state, terms_document);
      const rate = RATE.exec(text);
      const negotiated = /federally negotiated rate/.test(text);
      const extension = /up to (\d+) months beyond .*? at least (\d+) days before/.exec(text);
      const unallowable = text.slice(text.indexOf("## Unallowable costs"), text.indexOf("## Equipment"));
      const terms = {
        idc: negotiated
          ? { rate: policies.negotiatedRate, base: "MTDC" }
          : rate && { rate: +rate[1]!, base: rate[2] ?? "MTDC" },
        unallowable: new Set([...unallowable.matchAll(/\(object code (\d{4})\)/g)].map((match) => match[1]!)),
        equipment:
          optional(text, /equipment is an article costing (\$[\d,.]+) or more/) ?? policies.equipment,
        rebudgetPct: optional(text, /exceeds (\d+)% of its approved direct-cost budget/),
        effortPct: optional(text, /A reduction of (\d+)% or more in the effort/),
        extension: extension && { months: +extension[1]!, noticeDays: +extension[2]! },
      };
      return [sponsor_id, terms] as const;
    }),
  );
}

/** Every award's register row, by id. */
export function awardsOf(state: StateView): Map<string, AwardRow> {
  return new Map(allRows<AwardRow>(state.db, "SELECT * FROM awards").map((row) => [row.award_id, row]));
}

/** The terms of the sponsor of each award, by award id. */
export function termsByAward(state: StateView): Map<string, Terms> {
  const terms = readTerms(state);
  return new Map([...awardsOf(state)].map(([id, award]) => [id, terms.get(award.sponsor_id)!]));
}

/** The OCR text (pages joined) and register row of every document of a type. */
export function scans(state: StateView, docType: string) {
  type Doc = { doc_id: string; award_id: string | null; status: string; received_on: string; text: string };
  return allRows<Doc>(
    state.db,
    `SELECT d.*, group_concat(p.ocr_text, char(10) ORDER BY p.page_no) AS text FROM documents d
       JOIN document_pages p ON p.doc_id = d.doc_id WHERE d.doc_type = ? GROUP BY d.doc_id ORDER BY d.doc_id`,
    docType,
  );
}

/** `07/31/2025` -> `2025-07-31` */
const isoFromMdy = (text: string): string => `${text.slice(6, 10)}-${text.slice(0, 2)}-${text.slice(3, 5)}`;

/** An award letter: the award, the amendment number (0 for the original) and the budget lines it prints. */
export function readLetter(text: string) {
  const budget = new Map<Category, number>();
  for (const line of text.split("\n"))
    for (const [category, label] of Object.entries(CATEGORIES))
      if (line.trimStart().startsWith(label))
        budget.set(category as Category, ocrAmountsIn(line.split(label)[1]!)[0]!);
  const amendment = Number(/AMENDMENT No\. (\d+)/.exec(text)?.[1] ?? 0);
  return { award: group(text, /Award No\.: (AWD-\d{5})/, "a notice's award"), amendment, budget };
}

/** A subaward invoice's number, subaward, billed period end, current-period total and signature. */
export function readInvoice(text: string) {
  return {
    invoiceNo: group(text, /Invoice No\.: (\S+)/, "an invoice number"),
    subaward: group(text, /Subaward No\.: (SUB-\d{4})/, "an invoice's subaward"),
    periodEnd: isoFromMdy(group(text, /billed: \S+ - (\d\d\/\d\d\/\d{4})/, "an invoice period")),
    amount: ocrAmountsIn(group(text, /^TOTAL AMOUNT DUE(.*)$/m, "an invoice total"))[0]!,
    signed: /^Signature: \/s\//m.test(text),
  };
}

const CERT_ROW = /^\s*(AWD-\d{5})\s+.*?\s+(\d+(?:\.\d+)?)\s*%?\s+(\d+(?:\.\d+)?)\s*%?\s*$/;

/** An effort certification: the person and, per award, committed and certified effort. */
export function readCertification(text: string) {
  const rows = text.split("\n").flatMap((line) => {
    const match = CERT_ROW.exec(line);
    return match ? [{ award: match[1]!, committed: Number(match[2]), certified: Number(match[3]) }] : [];
  });
  return { person: group(text, /Employee ID: (EMP-\d{5})/, "a certification's employee"), rows };
}

/** An extension request: the award and the end date asked for (ISO dates). */
export function readRequest(text: string): { award: string; newEnd: string } {
  const joined = text.replace(/-\n\s*/g, "").replace(/\s*\n\s*/g, " ");
  const asked = group(
    joined,
    /current end date of \w+ \d{1,2}, \d{4} to (\w+ \d{1,2}, \d{4})/,
    "a request's date",
  );
  const award = group(joined, /Re: Request for no-cost extension - Award (AWD-\d{5})/, "a request's award");
  return { award, newEnd: new Date(`${asked} UTC`).toISOString().slice(0, 10) };
}
