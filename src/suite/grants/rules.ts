import { prefixedId } from "../../envs/index.js";

/** One id shape per entity: generators format with these, tools validate with them. */
export const sponsorId = prefixedId("sponsor_id", "sponsor", "SP-", 3, "list_sponsors");
export const awardId = prefixedId("award_id", "award", "AWD-", 5, "list_awards");
export const personId = prefixedId("person_id", "person", "EMP-", 5, "list_personnel");
export const txnId = prefixedId("txn_id", "transaction", "TXN-", 6, "list_transactions");
export const subawardId = prefixedId("subaward_id", "subaward", "SUB-", 4);
export const documentId = prefixedId("doc_id", "document", "DOC-", 5, "list_documents");

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

/** The chart of accounts: object code, budget category, name. */
export const OBJECT_CODES: Record<string, { name: string; category: Category }> = Object.fromEntries(
  `5100 salaries Faculty salaries
5110 salaries Staff and student wages
5200 fringe Fringe benefits
5310 supplies Laboratory supplies
5320 supplies Computing supplies and software
5340 supplies Non-capital equipment
5410 travel Domestic travel
5420 travel Foreign travel
5510 equipment Capital equipment
5610 participant_support Participant stipends
5620 participant_support Participant travel
5700 subawards Subaward payments
5810 other Publication costs
5820 other Memberships and dues
5840 other Hospitality (meals and entertainment)
5850 other Alcoholic beverages
5860 other Advertising and promotion
5870 other Tuition remission`
    .split("\n")
    .map((line) => {
      const [code, category, ...name] = line.split(" ");
      return [code!, { name: name.join(" "), category: category as Category }];
    }),
);
export const EQUIPMENT_CODE = "5510";
export const NON_CAPITAL_CODE = "5340";
export const SUBAWARD_CODE = "5700";

/** What the rate agreement leaves out of modified total direct costs (besides subaward amounts over the cap). */
export const SUBAWARD_MTDC_CAP = 25_000;
export const EQUIPMENT_THRESHOLD = 5_000;
/** Total committed effort allowed on active awards, by appointment (percent). */
export const EFFORT_CAPS = { faculty: 90, postdoc: 100, staff: 100, graduate_student: 50 } as const;
export type Appointment = keyof typeof EFFORT_CAPS;
export const KEY_ROLES = ["PI", "co-I", "key"];
/** The current budget period (the ledger holds its charges so far) and the certified effort period. */
export const BUDGET_PERIOD = { start: "2025-01-01", end: "2025-12-31" };
export const EFFORT_PERIOD = { start: "2024-07-01", end: "2024-12-31" };
export const IDC_MONTH = "2025-05";

export type SponsorType = "federal" | "foundation" | "industry" | "state";

/** A sponsor's terms as its terms document states them (the generator writes them; verifiers read the text). */
export interface SponsorTerms {
  type: SponsorType;
  /** `negotiated`: the university's negotiated rate on MTDC; null: no indirect costs. */
  idc: { rate: number | "negotiated"; base: string } | null;
  unallowable: string[];
  equipmentThreshold: number | null;
  rebudgetPct: number | null;
  effortPct: number | null;
  extension: { months: number; noticeDays: number } | null;
}

/** Terms from `type idc unallowable equipment rebudget effort months/notice` ("-" for none). */
export function termsFrom(line: string): SponsorTerms {
  const [type, idc, codes, equipment, rebudget, effort, extension] = line.split(" ");
  const [rate, base] = idc!.split("/");
  const [months, noticeDays] = extension!.split("/").map(Number);
  const number = (text: string | undefined): number | null => (text === "-" ? null : Number(text));
  return {
    type: type as SponsorType,
    idc: idc === "-" ? null : { rate: rate === "negotiated" ? rate : Number(rate), base: base ?? "MTDC" },
    unallowable: codes!.split(","),
    equipmentThreshold: number(equipment),
    rebudgetPct: number(rebudget),
    effortPct: number(effort),
    extension: extension === "-" ? null : { months: months!, noticeDays: noticeDays! },
  };
}

/**
 * The first nine sponsors' terms (every scale has them), chosen so that each rule a near-miss can get wrong
 * has a sponsor it matters for: a TDC base, no indirect costs, a lower equipment threshold, a 10% rebudgeting
 * threshold, no effort rule, shorter extensions with longer notice and no extensions at all.
 */
export const PLANTED_TERMS = [
  "federal negotiated 5840,5850,5860 - 25 25 12/10",
  "foundation 10/TDC 5820,5840,5850 - 10 - 6/30",
  "federal negotiated 5840,5850,5860 - 25 25 12/10",
  "industry 30/TDC 5850 - - - -",
  "foundation - 5840,5850,5870 2500 25 25 6/30",
  "federal negotiated 5840,5850,5860 - 25 25 12/10",
  "state 15/MTDC 5420,5840,5850 - 10 - 6/45",
  "foundation 12/MTDC 5820,5850 3000 25 25 12/30",
  "federal negotiated 5840,5850,5860 - 25 25 12/10",
].map(termsFrom);

export const FEDERAL_SPONSORS = (
  "National Science Foundation|National Institutes of Health|Department of Energy|National Aeronautics and " +
  "Space Administration|Department of Agriculture|National Oceanic and Atmospheric Administration|Environmental " +
  "Protection Agency|National Endowment for the Humanities|Department of Education|Office of Naval Research|Army " +
  "Research Office|Air Force Office of Scientific Research|Department of Transportation|Centers for Disease Control"
).split("|");
export const DEPARTMENTS =
  "Biology|Chemistry|Civil Engineering|Computer Science|Nursing|Physics|Psychology".split("|");
