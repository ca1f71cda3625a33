import {
  MONTH_NAMES,
  addDays,
  allRows,
  check,
  parseAnswerJson,
  parseMarkdownTable,
  type Check,
  type StateView,
  requireFile,
} from "../../../envs/index.js";
import { commissionFee, type CommissionTerms, type FeeRates } from "../fees.js";
import { shiftMonths } from "../documents.js";
import { PATHS } from "../rules.js";

/** The number a document states in `pattern`'s first group; throws when the rule was lost. */
export function documentNumber(state: StateView, path: string, pattern: RegExp): number {
  const found = pattern.exec(requireFile(state, path))?.[1];
  if (found === undefined) throw new Error(`${path} no longer states ${pattern.source}`);
  return Number(found.replace(/[$,]/g, ""));
}

const AGREEMENT = /\((FL-\d{4})\)[\s\S]*Articles: \$([\d,.]+) per word\. Photos: \$([\d,.]+) per image/;

/** The rates for one freelancer: their contributor agreement's, else the rate card's for their tier. */
function readRates(state: StateView): (freelancer: { freelancer_id: string; tier: string }) => FeeRates {
  const card = requireFile(state, PATHS.rateCard);
  const tiers = new Map(parseMarkdownTable(card, "Rates by tier").map((row) => [row[0]!, row]));
  const base = {
    minimumArticleFee: documentNumber(state, PATHS.rateCard, /never less than (\$[\d,]+\.\d\d)/),
    killAfterFilingPct: documentNumber(state, PATHS.rateCard, /kill fee: (\d+)%/),
    killBeforeFilingPct: documentNumber(state, PATHS.rateCard, /, (\d+)% when it had not/),
  };
  const agreements = new Map<string, FeeRates>();
  for (const path of state.listFiles().filter((file) => file.startsWith(`${PATHS.agreementsDir}/`))) {
    const found = AGREEMENT.exec(requireFile(state, path))?.slice(1);
    if (!found) throw new Error(`agreement ${path} names no contributor or rates`);
    const [id = "", perWord, perImage] = found.map((value) => value.replace(/,/g, ""));
    agreements.set(id, { ...base, perWord: Number(perWord), perImage: Number(perImage) });
  }
  return (freelancer) => {
    const row = tiers.get(freelancer.tier);
    if (!row) throw new Error(`the rate card has no tier ${freelancer.tier}`);
    const card = { ...base, perWord: Number(row[1]), perImage: Number(row[2]) };
    return agreements.get(freelancer.freelancer_id) ?? card;
  };
}

/** Filed or killed commissions without any payment, with the fee the rate card allows. */
export function pendingFees(
  state: StateView,
): Array<CommissionTerms & { commission_id: string; freelancer_id: string; fee: number }> {
  const rates = readRates(state);
  const rows = allRows<CommissionTerms & { commission_id: string; freelancer_id: string; tier: string }>(
    state.db,
    `SELECT c.*, f.tier FROM commissions c JOIN freelancers f ON f.freelancer_id = c.freelancer_id
      WHERE c.status IN ('filed', 'killed') AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.commission_id = c.commission_id)
      ORDER BY c.commission_id`,
  );
  return rows.map((row) => ({ ...row, fee: commissionFee(row, rates(row)) }));
}

/** Each licence's images, whether it permits web use, and its last day (null for a perpetual licence). */
export function readLicences(
  state: StateView,
): Array<{ images: string[]; web: boolean; lastDay: string | null }> {
  return state
    .listFiles()
    .filter((file) => file.startsWith(`${PATHS.licencesDir}/`))
    .map((path) => {
      const text = requireFile(state, path);
      const field = (name: string): string => {
        const value = new RegExp(`^${name}:\\s+(.+)$`, "m").exec(text)?.[1];
        if (value === undefined) throw new Error(`licence ${path} has no ${name}`);
        return value.trim();
      };
      const term = /^(\d+) months from (\w+) (\d{1,2}), (\d{4})$/.exec(field("Term"));
      const month = String(MONTH_NAMES.indexOf(term?.[2] ?? "") + 1).padStart(2, "0");
      const start = term ? `${term[4]}-${month}-${term[3]!.padStart(2, "0")}` : "";
      return {
        images: field("Images").split(/,\s*/),
        web: /\bweb\b/.test(field("Permitted media")),
        lastDay: term ? addDays(shiftMonths(start, Number(term[1])), -1) : null,
      };
    });
}

/** The answer as a JSON list compared, sorted, with the expected list. */
export function checkList(id: string, answer: string, expected: string[]): Check {
  const parsed = parseAnswerJson(answer);
  const actual = Array.isArray(parsed) ? parsed.map((item) => String(item).trim()).sort() : null;
  const wanted = JSON.stringify([...expected].sort());
  return check(id, JSON.stringify(actual) === wanted, `expected ${wanted}, got ${JSON.stringify(actual)}`);
}
