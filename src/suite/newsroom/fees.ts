import { roundCents } from "../../envs/index.js";

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
