import { addDays, prefixedId } from "../../envs/index.js";

export const supplierId = prefixedId("supplier_id", "supplier", "SUP-", 3, "list_suppliers");
export const materialLotId = prefixedId("material_lot_id", "material lot", "ML-", 4, "list_material_lots");
export const partNumber = prefixedId("part_number", "product", "PN-", 4, "list_products");
export const charId = prefixedId("char_id", "characteristic", "CH-", 3, "list_characteristics");
export const lotId = prefixedId("lot_id", "production lot", "LOT-", 5, "list_lots");
export const gaugeId = prefixedId("gauge_id", "gauge", "GA-", 3, "list_gauges");
export const ncrId = prefixedId("ncr_id", "NCR", "NCR-", 4, "list_ncrs");
export const capaId = prefixedId("capa_id", "CAPA", "CAPA-", 4, "list_capas");

/** The sampling plan's table: lot size range (both ends included) to the samples measured per characteristic. */
export const SAMPLE_PLAN: ReadonlyArray<{ min: number; max: number; samples: number }> = [
  { min: 2, max: 50, samples: 3 },
  { min: 51, max: 150, samples: 5 },
  { min: 151, max: 500, samples: 8 },
  { min: 501, max: 1200, samples: 13 },
  { min: 1201, max: 3200, samples: 20 },
];

/** The sampling plan's row for a lot of `quantity` pieces. */
export function samplePlanRow(quantity: number): (typeof SAMPLE_PLAN)[number] {
  const row = SAMPLE_PLAN.find((entry) => quantity >= entry.min && quantity <= entry.max);
  if (!row) throw new Error(`lot size ${quantity} is outside the sampling plan`);
  return row;
}

export function requiredSamples(quantity: number): number {
  return samplePlanRow(quantity).samples;
}

/** Calibration intervals in days by gauge type (calibration SOP). */
export const CALIBRATION_DAYS: Record<string, number> = {
  micrometer: 90,
  bore_gauge: 60,
  caliper: 180,
  height_gauge: 365,
};

/** Days from the NCR's opening by which its CAPA must be closed (quality manual). */
export const CAPA_DAYS: Record<string, number> = { critical: 20, major: 45, minor: 90 };

/** Defect codes and whether they are charged to the raw-material supplier (quality manual). */
export const DEFECT_CODES: ReadonlyArray<{ code: string; meaning: string; supplier: boolean }> = [
  { code: "DIM", meaning: "Dimension outside the drawing tolerance", supplier: false },
  { code: "COS", meaning: "Cosmetic: burrs, tool marks, scratches", supplier: false },
  {
    code: "MAT",
    meaning: "Material non-conformance: inclusions, wrong alloy, certificate mismatch",
    supplier: true,
  },
  { code: "HRD", meaning: "Hardness outside the material specification", supplier: true },
];

/** Use-as-is is allowed when a non-critical dimension is outside its limit by at most this share of the band. */
export const USE_AS_IS_BAND_SHARE = 0.1;

export type Disposition = "rework" | "scrap" | "use_as_is" | "return_to_supplier";

export interface CharacteristicLimits {
  feature: string;
  lower_limit: number;
  upper_limit: number;
  critical: number;
}

/** The disposition the quality manual prescribes for an NCR. */
export function prescribedDisposition(
  defectCode: string,
  c: CharacteristicLimits | undefined,
  measuredValue: number | null,
): Disposition {
  if (defectCode === "MAT" || defectCode === "HRD") return "return_to_supplier";
  if (defectCode === "COS") return "rework";
  if (!c || measuredValue === null) throw new Error("a DIM NCR needs a characteristic and a value");
  if (c.critical === 1) return "scrap";
  const above = measuredValue > c.upper_limit;
  const excess = above ? measuredValue - c.upper_limit : c.lower_limit - measuredValue;
  if (excess <= USE_AS_IS_BAND_SHARE * (c.upper_limit - c.lower_limit)) return "use_as_is";
  const materialLeft = c.feature === "external" ? above : !above;
  return materialLeft ? "rework" : "scrap";
}

/** Scorecard rating by supplier-charged NCR count (quality manual). */
export function supplierRating(count: number): string {
  return count === 0 ? "A" : count <= 2 ? "B" : "C";
}

/** The last day a CAPA may still be closed for an NCR opened on `openedOn`. */
export function capaDeadline(openedOn: string, severity: string): string {
  const days = CAPA_DAYS[severity];
  if (days === undefined) throw new Error(`unknown severity ${severity}`);
  return addDays(openedOn, days);
}
