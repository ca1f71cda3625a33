import { addBusinessDays, addDays, defineIdFormat, isWeekend, weekdayIndex } from "../../envs/index.js";

/** The clerk's office reference data: what its local rules, fee schedule and calendar documents state. */
export const PATHS = {
  localRules: "rules/local-rules.md",
  fees: "rules/fee-schedule.md",
  defaults: "rules/default-judgment.md",
  calendar: "rules/hearing-calendar.md",
  service: "scans/service",
  intake: "scans/intake",
} as const;

export const COUNTY = "Marlowe";
export const DIVISIONS = ["civil", "small_claims"] as const;
export type Division = (typeof DIVISIONS)[number];

/** Court holidays (the local rules' list): [date, name]. */
export const HOLIDAYS: Array<[string, string]> = `2024-01-01 New Year's Day
2024-01-15 Martin Luther King Jr. Day
2024-02-12 Lincoln's Birthday
2024-02-19 Presidents' Day
2024-04-01 Cesar Chavez Day (observed)
2024-05-27 Memorial Day
2024-06-19 Juneteenth
2024-07-04 Independence Day
2024-09-02 Labor Day
2024-09-27 Native American Day
2024-11-11 Veterans Day
2024-11-28 Thanksgiving Day
2024-11-29 Day after Thanksgiving
2024-12-25 Christmas Day
2025-01-01 New Year's Day
2025-01-20 Martin Luther King Jr. Day
2025-02-12 Lincoln's Birthday
2025-02-17 Presidents' Day
2025-03-31 Cesar Chavez Day
2025-05-26 Memorial Day
2025-06-19 Juneteenth
2025-07-04 Independence Day
2025-07-25 Court closure (records system migration)
2025-09-01 Labor Day
2025-09-26 Native American Day
2025-11-11 Veterans Day
2025-11-27 Thanksgiving Day
2025-11-28 Day after Thanksgiving
2025-12-25 Christmas Day`
  .split("\n")
  .map((line) => [line.slice(0, 10), line.slice(11)]);

export const RESPONSE_COURT_DAYS = 20;
export const SUBSTITUTED_EXTRA_DAYS = 10;
export const MOTION_NOTICE_COURT_DAYS = 16;
export const STALE_DAYS = 180;
export const HEARING_TIME = "08:30";
/** Docket entry types that are a defendant's response to the complaint. */
export const RESPONSES = ["answer", "demurrer"];

/** [filing type, division, band upper limit (inclusive, null = no limit), fee]. */
export const FEES: Array<[string, Division, number | null, number]> = [
  ["complaint", "civil", 10000, 225],
  ["complaint", "civil", 35000, 370],
  ["complaint", "civil", null, 435],
  ["answer or demurrer", "civil", 10000, 225],
  ["answer or demurrer", "civil", 35000, 370],
  ["answer or demurrer", "civil", null, 435],
  ["motion", "civil", null, 60],
  ["claim", "small_claims", 1500, 30],
  ["claim", "small_claims", 5000, 50],
  ["claim", "small_claims", null, 75],
];
export const BAND_LIMITS = [1500, 5000, 10000, 35000];

/** The fee the schedule charges for a filing type in a division at an amount in controversy. */
export function scheduledFee(filingType: string, division: Division, amount: number): number {
  const rows = FEES.filter(([type, div]) => div === division && type.split(" or ").includes(filingType));
  const row = rows.find(([, , upTo]) => upTo === null || amount <= upTo);
  if (!row) throw new Error(`no fee for ${filingType} in ${division}`);
  return row[3];
}

export const ENTRY_TYPES = [
  "complaint",
  "claim",
  "summons_issued",
  "proof_of_service",
  "answer",
  "demurrer",
  "motion",
  "fee_waiver_granted",
  "hearing_set",
  "minute_order",
  "case_management_statement",
  "substitution_of_attorney",
  "notice_change_of_address",
  "declaration",
  "default_entered",
  "judgment",
  "dismissal",
  "fee_deficiency_notice",
] as const;

/** Intake document titles and the docket entry type each is entered as (the local rules' table). */
export const INTAKE_TITLES: Array<[string, string]> = [
  ["CASE MANAGEMENT STATEMENT", "case_management_statement"],
  ["SUBSTITUTION OF ATTORNEY", "substitution_of_attorney"],
  ["NOTICE OF CHANGE OF ADDRESS", "notice_change_of_address"],
  ["DECLARATION", "declaration"],
];

/** Court days: not a weekend, not a listed holiday. */
export const holidaySet = (holidays: Array<[string, string]> = HOLIDAYS): Set<string> =>
  new Set(holidays.map(([day]) => day));
export const isCourtDay = (day: string, holidays: ReadonlySet<string>): boolean =>
  !isWeekend(day) && !holidays.has(day);

/** The response deadline: 20 court days after service is complete (10 calendar days after mailing for substituted service). */
export function responseDeadline(
  served: string,
  method: string,
  mailed: string | null,
  holidays: ReadonlySet<string>,
  [courtDays, extraDays] = [RESPONSE_COURT_DAYS, SUBSTITUTED_EXTRA_DAYS],
): string {
  const complete = method === "substituted" ? addDays(mailed ?? served, extraDays) : served;
  return addBusinessDays(complete, courtDays, holidays);
}

/** The first law-and-motion day (a court day) at least 16 court days after the motion was filed. */
export function motionHearingDate(
  filed: string,
  weekday: number,
  holidays: ReadonlySet<string>,
  notice = MOTION_NOTICE_COURT_DAYS,
): string {
  let day = addBusinessDays(filed, notice, holidays);
  while (!(isCourtDay(day, holidays) && weekdayIndex(day) === weekday)) day = addDays(day, 1);
  return day;
}

export const caseId = defineIdFormat({
  field: "case_id",
  entity: "case",
  pattern: /^(CV|SC)-\d{4}-\d{5}$/,
  example: "CV-2025-00123",
  listTool: "list_cases",
});
export const partyId = defineIdFormat({ field: "party_id", entity: "party", prefix: "PTY-", digits: 5 });
export const filingId = defineIdFormat({
  field: "filing_id",
  entity: "filing",
  prefix: "FIL-",
  digits: 5,
  listTool: "list_filings",
});
export const courtroomId = defineIdFormat({
  field: "courtroom_id",
  entity: "courtroom",
  prefix: "DEPT-",
  digits: 1,
  listTool: "list_courtrooms",
});
