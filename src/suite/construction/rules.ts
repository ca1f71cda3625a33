import { prefixedId } from "../../envs/index.js";

/** The project office's reference data: what its general conditions and COI requirements state. */
export const PATHS = {
  conditions: "contracts/general-conditions.md",
  coi: "safety/coi-requirements.md",
  directory: "contracts/project-directory.md",
  logs: "daily-logs",
} as const;

/** Change-order approval authority: [role, limit in USD or null for no limit]. */
export const AUTHORITY: Array<[string, number | null]> = [
  ["Project manager", 10_000],
  ["Project executive", 50_000],
  ["Owner's representative", null],
];

/** Retainage: 10% of work completed to date until it reaches 50% of the adjusted contract sum, then 5%. */
export const RETAINAGE = { before: 10, after: 5, thresholdPct: 50 } as const;

/** Working days the architect has to answer an RFI, by priority. */
export const RFI_DAYS: Record<string, number> = { standard: 7, urgent: 3 };
/** Working days the architect has to review a submittal, by type. */
export const SUBMITTAL_DAYS: Record<string, number> = { "shop drawing": 10, "product data": 7, sample: 5 };

/** Holidays observed by the project office (no work, not working days). */
export const HOLIDAYS = ["2025-01-01", "2025-01-20", "2025-02-17", "2025-05-26", "2025-06-19", "2025-07-04"];

/** Required insurance and minimum limits. */
export const COVERAGES: Array<[string, string, number]> = [
  ["GL", "Commercial general liability, each occurrence", 1_000_000],
  ["AUTO", "Business auto liability, combined single limit", 1_000_000],
  ["WC", "Workers' compensation (statutory) / employer's liability", 500_000],
];

export const TRADES = [
  "Concrete",
  "Steel erection",
  "Electrical",
  "Plumbing",
  "HVAC",
  "Drywall",
  "Roofing",
  "Glazing",
  "Painting",
  "Fire protection",
  "Masonry",
  "Earthwork",
];

export const projectId = prefixedId("project_id", "project", "PRJ-", 2, "list_projects");
export const subId = prefixedId("sub_id", "subcontractor", "SUB-", 3, "list_subcontractors");
export const contractId = prefixedId("contract_id", "contract", "CTR-", 4, "list_contracts");
export const coId = prefixedId("co_id", "change order", "CO-", 4, "list_change_orders");
export const payAppId = prefixedId("pay_app_id", "pay application", "PA-", 4, "list_pay_apps");
export const rfiId = prefixedId("rfi_id", "RFI", "RFI-", 4, "list_rfis");
export const submittalId = prefixedId("submittal_id", "submittal", "SBM-", 4, "list_submittals");
export const threadId = prefixedId("thread_id", "e-mail thread", "THR-", 4, "list_email_threads");
