import { addDays, parseAnswerJson, parseMarkdownTable, type StateView } from "../../../envs/index.js";
import { commissionFee, type CommissionTerms, type FeeRates } from "../fees.js";
import { shiftMonths } from "../generate-documents.js";
import { PATHS } from "../rules.js";

/** Shared expectation readers: the workspace documents read back as the agent reads them. */
function dollars(text: string | undefined): number {
  if (text === undefined) throw new Error("a rate the documents should state is missing");
  return Number(text.replace(/[$,]/g, ""));
}

/** The rate card's tier rates, kill-fee percentages and minimum fee, and every contributor agreement. */
export function readRates(state: StateView): {
  rates(freelancer: { freelancer_id: string; tier: string }): FeeRates;
} {
  const card = state.readFile(PATHS.rateCard) ?? "";
  const tiers = new Map(parseMarkdownTable(card, "Rates by tier").map((row) => [row[0]!, row]));
  const base = {
    minimumArticleFee: dollars(/never less than (\$[\d,]+\.\d\d)/.exec(card)?.[1]),
    killAfterFilingPct: Number(/kill fee: (\d+)%/.exec(card)?.[1]),
    killBeforeFilingPct: Number(/, (\d+)% when it had not/.exec(card)?.[1]),
  };
  const agreements = new Map<string, FeeRates>();
  for (const path of state.listFiles().filter((file) => file.startsWith(`${PATHS.agreementsDir}/`))) {
    const text = state.readFile(path) ?? "";
    const id = /\((FL-\d{4})\)/.exec(text)?.[1];
    const perWord = /Articles: (\$[\d,]+\.\d\d) per word/.exec(text)?.[1];
    const perImage = /Photos: (\$[\d,]+\.\d\d) per image/.exec(text)?.[1];
    if (!id) throw new Error(`agreement ${path} names no contributor`);
    agreements.set(id, { ...base, perWord: dollars(perWord), perImage: dollars(perImage) });
  }
  return {
    rates: (freelancer) => {
      const agreed = agreements.get(freelancer.freelancer_id);
      if (agreed) return agreed;
      const row = tiers.get(freelancer.tier);
      if (!row) throw new Error(`the rate card has no tier ${freelancer.tier}`);
      return { ...base, perWord: Number(row[1]), perImage: Number(row[2]) };
    },
  };
}

export interface PendingCommission extends CommissionTerms {
  commission_id: string;
  freelancer_id: string;
  tier: string;
}

/** Filed or killed commissions without any payment, with the fee the rate card allows. */
export function pendingFees(state: StateView): Array<PendingCommission & { fee: number }> {
  const reader = readRates(state);
  const rows = state.db
    .prepare(
      `SELECT c.*, f.tier FROM commissions c JOIN freelancers f ON f.freelancer_id = c.freelancer_id
        WHERE c.status IN ('filed', 'killed') AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.commission_id = c.commission_id)
        ORDER BY c.commission_id`,
    )
    .all() as PendingCommission[];
  return rows.map((row) => ({ ...row, fee: commissionFee(row, reader.rates(row)) }));
}

export interface Licence {
  ref: string;
  images: string[];
  web: boolean;
  /** The last day the licence runs; null for a perpetual licence. */
  lastDay: string | null;
}

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

export function parseLongDate(text: string): string {
  const match = /^(\w+) (\d{1,2}), (\d{4})$/.exec(text.trim());
  if (!match) throw new Error(`not a long date: ${text}`);
  return `${match[3]}-${String(MONTHS.indexOf(match[1]!) + 1).padStart(2, "0")}-${match[2]!.padStart(2, "0")}`;
}

export function readLicences(state: StateView): Licence[] {
  return state
    .listFiles()
    .filter((file) => file.startsWith(`${PATHS.licencesDir}/`))
    .map((path) => {
      const text = state.readFile(path) ?? "";
      const field = (name: string): string => {
        const value = new RegExp(`^${name}:\\s+(.+)$`, "m").exec(text)?.[1];
        if (value === undefined) throw new Error(`licence ${path} has no ${name}`);
        return value.trim();
      };
      const term = field("Term");
      const months = /^(\d+) months from (.+)$/.exec(term);
      return {
        ref: field("Licence no."),
        images: field("Images").split(/,\s*/),
        web: /\bweb\b/.test(field("Permitted media")),
        lastDay: months ? addDays(shiftMonths(parseLongDate(months[2]!), Number(months[1])), -1) : null,
      };
    });
}

/** A JSON list answer as a sorted list of trimmed strings, or null when it is not a list. */
export function answerList(answer: string): string[] | null {
  const parsed = parseAnswerJson(answer);
  return Array.isArray(parsed) ? parsed.map((item) => String(item).trim()).sort() : null;
}

export function sameList(actual: string[] | null, expected: string[]): { passed: boolean; message: string } {
  const passed = actual !== null && JSON.stringify(actual) === JSON.stringify([...expected].sort());
  return {
    passed,
    message: `expected ${JSON.stringify([...expected].sort())}, got ${JSON.stringify(actual)}`,
  };
}

/** Compares a JSON object of key -> number with the expectation (money tolerance); returns problems. */
export function compareNumbers(answer: string, expected: Map<string, number>): string[] {
  const actual = parseAnswerJson(answer);
  if (!actual || typeof actual !== "object" || Array.isArray(actual))
    return ["the answer is not a JSON object"];
  const given = new Map(
    Object.entries(actual as Record<string, unknown>).map(([key, value]) => [key.trim(), Number(value)]),
  );
  const problems: string[] = [];
  for (const [key, value] of expected) {
    if (!given.has(key)) problems.push(`missing ${key}`);
    else if (!(Math.abs(given.get(key)! - value) <= 0.011))
      problems.push(`${key}: ${given.get(key)}, expected ${value}`);
  }
  for (const key of given.keys()) if (!expected.has(key)) problems.push(`unexpected ${key}`);
  return problems;
}
