/** The cooperative's fixed facts, its grading arithmetic, and the rule documents read back for verifiers. */
import { parseMarkdownTable } from "../../envs/index.js";
import type { StateView } from "../../envs/index.js";

export const CROPS = ["corn", "soybeans"] as const;
export type Crop = (typeof CROPS)[number];
export const KG_TO_LB = 2.20462;

export const DOCS = {
  grading: "grading/discount-schedule.md",
  scale: "scale/scale-house-procedures.md",
  delivery: "contracts/delivery-rules.md",
  aeration: "storage/aeration-policy.md",
  patronage: "board/patronage-allocation.md",
} as const;

export interface GradeFactor {
  lbPerBu: number;
  baseMoisture: number;
  shrinkPerStep: number;
  dryingCents: number;
  fmAllowance: number;
}

/** What the generator writes into the discount schedule (verifiers read the document instead). */
export const GRADE_FACTORS: Record<Crop, GradeFactor> = {
  corn: { lbPerBu: 56, baseMoisture: 15.0, shrinkPerStep: 0.7, dryingCents: 2, fmAllowance: 2.0 },
  soybeans: { lbPerBu: 60, baseMoisture: 13.5, shrinkPerStep: 0.6, dryingCents: 3, fmAllowance: 1.0 },
};

/** Patronage year and rates per settled bushel, as the board document states them. */
export const FISCAL_YEAR = { start: "2024-07-01", end: "2025-06-30" };
export const PATRONAGE_RATES: Record<Crop, number> = { corn: 0.09, soybeans: 0.12 };
/** Aeration policy: a rise of at least RISE_F degrees F between the last export day and LOOKBACK days before. */
export const AERATION = { riseF: 5, lookbackDays: 3 };
/** Delivery rules: a contract delivered to at least this share of its bushels counts as filled. */
export const FILL_TOLERANCE = 0.98;
/** Scale reconciliation: keyed net weights within this many pounds of the journal agree. */
export const WEIGHT_TOLERANCE_LB = 5;

/** Settled bushels: scale bushels less moisture shrink per 0.5 point (or part) above base and FM dockage. */
export function settledBushels(
  netLb: number,
  crop: string,
  moisture: number,
  fm: number,
  factors: Map<string, GradeFactor>,
): number {
  const f = factors.get(crop)!;
  const steps = Math.max(0, Math.ceil((Math.round(moisture * 10) - Math.round(f.baseMoisture * 10)) / 5));
  const dock = Math.max(0, fm - f.fmAllowance);
  return (netLb / f.lbPerBu) * (1 - (steps * f.shrinkPerStep + dock) / 100);
}

export const round2 = (value: number): number => Math.round(value * 100) / 100;

function table(state: StateView, path: string, heading: string): string[][] {
  return parseMarkdownTable(state.readFile(path) ?? "", heading);
}

/** The discount schedule's grade factors per crop. */
export function gradeFactors(state: StateView): Map<string, GradeFactor> {
  return new Map(
    table(state, DOCS.grading, "Grade factors").map(([crop, lb, base, shrink, drying, fm]) => [
      crop!,
      {
        lbPerBu: Number(lb),
        baseMoisture: Number(base),
        shrinkPerStep: Number(shrink),
        dryingCents: Number(drying),
        fmAllowance: Number(fm),
      },
    ]),
  );
}

/** A named value from a two-column "setting | value" table of a policy document. */
export function policyValue(state: StateView, path: string, heading: string, name: string): number {
  const row = table(state, path, heading).find(([key]) => key === name);
  return Number(row?.[1]);
}

export function patronageRates(state: StateView): Map<string, number> {
  return new Map(table(state, DOCS.patronage, "Rates").map(([crop, rate]) => [crop!, Number(rate)]));
}
