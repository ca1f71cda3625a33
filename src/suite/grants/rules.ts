import { defineIdFormat } from "../../envs/index.js";

/** One id shape per entity: generators format with these, tools validate with them. */
export const sponsorId = defineIdFormat({ field: "sponsor_id", entity: "sponsor", prefix: "SP-", digits: 3 });
export const awardId = defineIdFormat({
  field: "award_id",
  entity: "award",
  prefix: "AWD-",
  digits: 5,
  listTool: "list_awards",
});
export const personId = defineIdFormat({
  field: "person_id",
  entity: "person",
  prefix: "EMP-",
  digits: 5,
  listTool: "list_personnel",
});
export const txnId = defineIdFormat({ field: "txn_id", entity: "transaction", prefix: "TXN-", digits: 6 });
export const subawardId = defineIdFormat({ field: "subaward_id", entity: "subaward", prefix: "SUB-", digits: 4 });
export const documentId = defineIdFormat({
  field: "doc_id",
  entity: "document",
  prefix: "DOC-",
  digits: 5,
  listTool: "list_documents",
});

export const UNIVERSITY = "Northfield State University";
export const PATHS = {
  rateAgreement: "finance/fa-rate-agreement.md",
  chart: "finance/chart-of-accounts.csv",
  manual: "policies/osp-procedures.md",
  terms: "sponsor-terms/",
} as const;

/** Budget categories in the order award letters print them, with the letters' labels. */
export const CATEGORIES = {
  salaries: "Salaries and wages",
  fringe: "Fringe benefits",
  equipment: "Equipment",
  supplies: "Materials and supplies",
  travel: "Travel",
  participant_support: "Participant support costs",
  subawards: "Subawards",
  other: "Other direct costs",
} as const;
export type Category = keyof typeof CATEGORIES;

/** The chart of accounts: object code -> name and budget category. */
export const OBJECT_CODES: Record<string, { name: string; category: Category }> = {
  "5100": { name: "Faculty salaries", category: "salaries" },
  "5110": { name: "Staff and student wages", category: "salaries" },
  "5200": { name: "Fringe benefits", category: "fringe" },
  "5310": { name: "Laboratory supplies", category: "supplies" },
  "5320": { name: "Computing supplies and software", category: "supplies" },
  "5340": { name: "Non-capital equipment", category: "supplies" },
  "5410": { name: "Domestic travel", category: "travel" },
  "5420": { name: "Foreign travel", category: "travel" },
  "5510": { name: "Capital equipment", category: "equipment" },
  "5610": { name: "Participant stipends", category: "participant_support" },
  "5620": { name: "Participant travel", category: "participant_support" },
  "5700": { name: "Subaward payments", category: "subawards" },
  "5810": { name: "Publication costs", category: "other" },
  "5820": { name: "Memberships and dues", category: "other" },
  "5840": { name: "Hospitality (meals and entertainment)", category: "other" },
  "5850": { name: "Alcoholic beverages", category: "other" },
  "5860": { name: "Advertising and promotion", category: "other" },
  "5870": { name: "Tuition remission", category: "other" },
};
export const EQUIPMENT_CODE = "5510";
export const NON_CAPITAL_CODE = "5340";
export const SUBAWARD_CODE = "5700";

/** What the rate agreement leaves out of modified total direct costs (besides subaward amounts over the cap). */
export const MTDC_EXCLUDED = ["5510", "5610", "5620", "5870"];
export const SUBAWARD_MTDC_CAP = 25_000;
export const EQUIPMENT_THRESHOLD = 5_000;
/** Total committed effort allowed on active awards, by appointment (percent). */
export const EFFORT_CAPS = { faculty: 90, postdoc: 100, staff: 100, graduate_student: 50 } as const;
export type Appointment = keyof typeof EFFORT_CAPS;
export const KEY_ROLES = ["PI", "co-I", "key"];
/** The budget period (the ledger holds its charges so far) and the effort reporting period of the certifications. */
export const BUDGET_PERIOD = { start: "2025-01-01", end: "2025-12-31" };
export const EFFORT_PERIOD = { start: "2024-07-01", end: "2024-12-31" };
export const IDC_MONTH = "2025-05";

export type SponsorType = "federal" | "foundation" | "industry" | "state";

/** A sponsor's terms, as its terms document states them (the generator writes them; nothing else reads this). */
export interface SponsorTerms {
  type: SponsorType;
  /** `negotiated`: the university's federally negotiated rate on MTDC; null: no indirect costs. */
  idc: { rate: number | "negotiated"; base: "MTDC" | "TDC" } | null;
  unallowable: string[];
  equipmentThreshold: number | null;
  rebudgetPct: number | null;
  effortPct: number | null;
  extension: { months: number; noticeDays: number } | null;
}

const FEDERAL: SponsorTerms = {
  type: "federal",
  idc: { rate: "negotiated", base: "MTDC" },
  unallowable: ["5840", "5850", "5860"],
  equipmentThreshold: null,
  rebudgetPct: 25,
  effortPct: 25,
  extension: { months: 12, noticeDays: 10 },
};

/**
 * The first nine sponsors' terms (every scale has them), chosen so that each rule a near-miss can get wrong
 * has a sponsor it matters for: a TDC base, no indirect costs, a lower equipment threshold, a 10% rebudgeting
 * threshold, no effort rule, a shorter extension allowance and no extensions at all.
 */
export const PLANTED_TERMS: SponsorTerms[] = [
  FEDERAL,
  {
    type: "foundation",
    idc: { rate: 10, base: "TDC" },
    unallowable: ["5820", "5840", "5850"],
    equipmentThreshold: null,
    rebudgetPct: 10,
    effortPct: null,
    extension: { months: 6, noticeDays: 30 },
  },
  FEDERAL,
  {
    type: "industry",
    idc: { rate: 30, base: "TDC" },
    unallowable: ["5850"],
    equipmentThreshold: null,
    rebudgetPct: null,
    effortPct: null,
    extension: null,
  },
  {
    type: "foundation",
    idc: null,
    unallowable: ["5840", "5850", "5870"],
    equipmentThreshold: 2_500,
    rebudgetPct: 25,
    effortPct: 25,
    extension: { months: 6, noticeDays: 30 },
  },
  FEDERAL,
  {
    type: "state",
    idc: { rate: 15, base: "MTDC" },
    unallowable: ["5420", "5840", "5850"],
    equipmentThreshold: null,
    rebudgetPct: 10,
    effortPct: null,
    extension: { months: 6, noticeDays: 45 },
  },
  {
    type: "foundation",
    idc: { rate: 12, base: "MTDC" },
    unallowable: ["5820", "5850"],
    equipmentThreshold: 3_000,
    rebudgetPct: 25,
    effortPct: 25,
    extension: { months: 12, noticeDays: 30 },
  },
  FEDERAL,
];

export const FEDERAL_SPONSORS = [
  "National Science Foundation",
  "National Institutes of Health",
  "Department of Energy",
  "National Aeronautics and Space Administration",
  "Department of Agriculture",
  "National Oceanic and Atmospheric Administration",
  "Environmental Protection Agency",
  "National Endowment for the Humanities",
  "Department of Education",
  "Office of Naval Research",
  "Army Research Office",
  "Air Force Office of Scientific Research",
  "Department of Transportation",
  "Centers for Disease Control and Prevention",
];

export const DEPARTMENTS = [
  "Biology",
  "Chemistry",
  "Civil Engineering",
  "Computer Science",
  "Earth Sciences",
  "Nursing",
  "Physics",
  "Psychology",
];
