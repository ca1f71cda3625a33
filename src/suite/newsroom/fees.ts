import { roundCents } from "../../envs/index.js";
import { RATE_CARD } from "./rules.js";

/** A commission as the fee rules need it. */
export interface CommissionTerms {
  kind: string;
  status: string;
  commissioned_units: number;
  filed_units: number | null;
  filed_on: string | null;
}

/** The rates that apply to one freelancer: the rate card's tier rates or a negotiated agreement's. */
export interface FeeRates {
  perWord: number;
  perImage: number;
  minimumArticleFee: number;
  killAfterFilingPct: number;
  killBeforeFilingPct: number;
}

/** A freelancer's rates: their signed agreement's, else the rate card's for their tier. */
export function ratesFor(
  freelancer: { id: string; tier: string },
  agreements: Map<string, FeeRates>,
): FeeRates {
  const tier = { perWord: RATE_CARD.article[freelancer.tier]!, perImage: RATE_CARD.photo[freelancer.tier]! };
  return agreements.get(freelancer.id) ?? { ...RATE_CARD, ...tier };
}

/**
 * The fee the rate card allows: filed work is paid on the lesser of the filed and commissioned units
 * (articles at least the minimum fee); killed work gets the kill-fee share of the full commissioned fee.
 */
export function commissionFee(commission: CommissionTerms, rates: FeeRates): number {
  const rate = commission.kind === "article" ? rates.perWord : rates.perImage;
  if (commission.status === "killed") {
    const pct = commission.filed_on ? rates.killAfterFilingPct : rates.killBeforeFilingPct;
    return roundCents((rate * commission.commissioned_units * pct) / 100);
  }
  const units = Math.min(commission.filed_units ?? 0, commission.commissioned_units);
  const fee = roundCents(rate * units);
  return commission.kind === "article" ? Math.max(fee, rates.minimumArticleFee) : fee;
}
