import { defineIdFormat, roundCents } from "../../envs/index.js";

/** One id shape per entity: generators format with these, the portal's routes match them. */
export const permitId = defineIdFormat({
  field: "permit_id",
  entity: "permit",
  pattern: /^(BP|EP|PP|MP)-\d{4}-\d{5}$/,
  example: "BP-2025-00142",
});
export const inspectionId = defineIdFormat({
  field: "inspection_id",
  entity: "inspection",
  prefix: "INSP-",
  digits: 5,
});
export const licenseId = defineIdFormat({
  field: "license_id",
  entity: "contractor",
  prefix: "CL-",
  digits: 5,
});

export const DISTRICTS = ["Northgate", "Riverside", "Old Town", "Eastfield", "Harbor", "Westbrook"] as const;

export const PERMIT_TYPES = {
  building: { prefix: "BP", label: "Building", trade: "general", permitFee: 420, planRate: 0.65 },
  electrical: { prefix: "EP", label: "Electrical", trade: "electrical", permitFee: 160, planRate: 0.4 },
  plumbing: { prefix: "PP", label: "Plumbing", trade: "plumbing", permitFee: 150, planRate: 0.4 },
  mechanical: { prefix: "MP", label: "Mechanical", trade: "mechanical", permitFee: 175, planRate: 0.45 },
} as const;
export type PermitType = keyof typeof PERMIT_TYPES;

/** The inspections each permit type passes through, in order; `final` closes the permit. */
export const INSPECTION_SEQUENCE: Record<PermitType, string[]> = {
  building: ["Footing", "Framing", "Insulation", "Final"],
  electrical: ["Rough Electrical", "Final"],
  plumbing: ["Underground Plumbing", "Rough Plumbing", "Final"],
  mechanical: ["Rough Mechanical", "Final"],
};

export const PLAN_REVIEW_MIN = 75;
export const PLAN_REVIEW_MAX = 2500;
export const REINSPECTION_FEE = 95;
export const TECH_SURCHARGE_PCT = 4;
export const REINSPECTION_LEAD_BUSINESS_DAYS = 5;
/** How the memo writes a business-day lead (and the verifier reads it back). */
export const ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh"];
export const STOP_WORK_LICENSE_CODE = "SW-LIC";
export const STOP_WORK_CODES = ["SW-LIC", "SW-NOP", "SW-SAFE", "SW-DEV"] as const;
export const BUILDING_OFFICIAL = "Renata Solis";
export const PORTAL_HOST = "https://permits.riverton.gov";

/** The plan-review fee the fee schedule sets for a permit of this type and valuation. */
export function planReviewFee(rate: number, valuation: number): number {
  return roundCents(Math.min(PLAN_REVIEW_MAX, Math.max(PLAN_REVIEW_MIN, (valuation * rate) / 100)));
}

/** Violations inspectors cite, with the code each note ends a finding with. */
export const VIOLATIONS: Record<PermitType, Array<[string, string]>> = {
  building: [
    ["IRC R602.3", "Top plate splice nailing short of schedule at the north wall"],
    ["IRC R314.3", "Smoke alarm missing in the second-floor hallway"],
    ["IRC R403.1", "Footing width under the required minimum at the rear corner"],
    ["IRC N1102.4", "Air sealing incomplete around the attic hatch"],
    ["IRC R311.7", "Stair riser heights vary by more than 3/8 inch"],
  ],
  electrical: [
    ["NEC 210.8", "Missing GFCI protection at the kitchen counter receptacles"],
    ["NEC 110.12", "Open knockouts in the panel enclosure"],
    ["NEC 250.50", "Grounding electrode conductor not bonded to the water pipe"],
    ["NEC 334.30", "Cable not secured within 12 inches of the box"],
  ],
  plumbing: [
    ["IPC 312.5", "Test pressure dropped during the water test"],
    ["IPC 308.5", "Pipe supports spaced farther apart than allowed"],
    ["IPC 1002.1", "Fixture installed without a trap"],
    ["IRC P2904", "Sprinkler line shows a leak at the manifold"],
  ],
  mechanical: [
    ["IMC 603.9", "Duct joints not sealed with mastic"],
    ["IMC 304.3", "Appliance clearance to combustibles below the listing"],
    ["IRC M1411.3", "Condensate drain lacks an overflow switch"],
  ],
};
