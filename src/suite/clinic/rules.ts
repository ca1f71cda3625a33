/**
 * The clinic's fixed operating rules and reference data. The generator renders them into the workspace
 * documents (scheduling rules, no-show policy, coverage table, billing policy); verifiers and task
 * preparation reuse the same values so that documents, data and expectations cannot drift apart.
 * Nothing here is exposed to an agent except through those documents.
 */

import { roundCents } from "../../envs/index.js";

export type Credential = "MD" | "DO" | "NP" | "PA";
export type RoomType = "exam" | "procedure" | "imaging";
export type ChargeCategory = "office_visit" | "procedure" | "imaging" | "lab" | "admin_fee";

export interface SpecialtySeed {
  code: string;
  name: string;
  /** Providers of this specialty per nine providers (the total scales with the row factor). */
  sharePerNine: number;
  credentials: Credential[];
  /** Visit types offered, with relative booking weights. */
  visitMix: Array<[VisitType, number]>;
}

export const VISIT_TYPES = [
  "new_patient",
  "follow_up",
  "annual_physical",
  "sick_visit",
  "well_child",
  "procedure",
  "imaging",
  "telehealth",
] as const;
export type VisitType = (typeof VISIT_TYPES)[number];

export interface VisitRule {
  label: string;
  lengthMinutes: number;
  /** The room type the visit must be booked in; null for visits without a room (telehealth). */
  roomType: RoomType | null;
  /** Minutes the room stays blocked after the visit for cleaning and turnover. */
  turnoverMinutes: number;
  /** Only physicians (MD/DO) may perform the visit. */
  physicianOnly: boolean;
  noShowFee: number;
}

/** A visit type's rule; most visits need no turnover and may be performed by any credential. */
function visitRule(
  label: string,
  lengthMinutes: number,
  roomType: RoomType | null,
  noShowFee: number,
  special: Partial<VisitRule> = {},
): VisitRule {
  return { label, lengthMinutes, roomType, turnoverMinutes: 0, physicianOnly: false, noShowFee, ...special };
}

export const VISIT_RULES: Record<VisitType, VisitRule> = {
  new_patient: visitRule("New patient visit", 40, "exam", 75),
  follow_up: visitRule("Follow-up visit", 20, "exam", 35),
  annual_physical: visitRule("Annual physical", 40, "exam", 75),
  sick_visit: visitRule("Same-day sick visit", 20, "exam", 35),
  well_child: visitRule("Well-child check", 30, "exam", 35),
  procedure: visitRule("In-office procedure", 60, "procedure", 100, {
    turnoverMinutes: 15,
    physicianOnly: true,
  }),
  imaging: visitRule("Imaging study", 30, "imaging", 50),
  telehealth: visitRule("Telehealth video visit", 20, null, 25),
};

/** Visit types each specialty offers, with relative booking weights (in this order). */
const VISIT_MIX: Record<string, Partial<Record<VisitType, number>>> = {
  FM: { follow_up: 30, new_patient: 10, annual_physical: 15, sick_visit: 20, procedure: 6, telehealth: 12 },
  PED: { well_child: 35, sick_visit: 30, follow_up: 15, new_patient: 8, telehealth: 8 },
  DERM: { new_patient: 20, follow_up: 30, procedure: 30, telehealth: 10 },
  CARD: { new_patient: 20, follow_up: 35, imaging: 20, procedure: 10, telehealth: 10 },
  ORTH: { new_patient: 20, follow_up: 35, imaging: 25, procedure: 20 },
};

function specialty(
  code: string,
  name: string,
  sharePerNine: number,
  credentials: Credential[],
): SpecialtySeed {
  const visitMix = Object.entries(VISIT_MIX[code]!) as SpecialtySeed["visitMix"];
  return { code, name, sharePerNine, credentials, visitMix };
}

export const SPECIALTIES: SpecialtySeed[] = [
  specialty("FM", "Family Medicine", 4, ["MD", "DO", "NP", "PA", "MD"]),
  specialty("PED", "Pediatrics", 2, ["MD", "NP", "DO"]),
  specialty("DERM", "Dermatology", 1, ["MD", "PA"]),
  specialty("CARD", "Cardiology", 1, ["MD", "DO"]),
  specialty("ORTH", "Orthopedics", 1, ["MD", "PA", "DO"]),
];

export const WEEKDAY_NAMES = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] as const;

/** Clinic hours: every provider sees patients from 08:00 and the last visit must end by 17:00. */
export const CLINIC_OPEN_MINUTES = 8 * 60;
export const CLINIC_CLOSE_MINUTES = 17 * 60;

/** Days of the appointment book around the reference date. */
export const PAST_DAYS = 35;
export const FUTURE_DAYS = 17;

/** The no-show review covers the 28 days before the reference date. */
export const NO_SHOW_REVIEW_DAYS = 28;
export const NO_SHOW_FLAG_THRESHOLD = 3;
export const NO_SHOW_CHARGE_CODE = "NOSHOW";

/** Patient balances strictly above this amount go to collections review. */
export const COLLECTIONS_THRESHOLD = 100;
export const SELF_PAY_DISCOUNT_PERCENT = 30;

export interface PlanSeed {
  code: string;
  payer: string;
  name: string;
  type: "commercial" | "medicare" | "medicaid";
  phone: string;
  /** Patient cost sharing per charge category; null means the category is not covered. */
  coverage: Record<
    Exclude<ChargeCategory, "admin_fee">,
    { copay: number; coinsurancePercent: number } | null
  >;
}

/** Cost sharing of a covered category: the copay, then the coinsurance percentage of the rest. */
const cost = (copay: number, coinsurancePercent: number) => ({ copay, coinsurancePercent });

const PLAN_COVERAGE: Record<string, PlanSeed["coverage"]> = {
  "BSC-PPO": { office_visit: cost(25, 0), procedure: cost(0, 20), imaging: cost(0, 20), lab: cost(0, 0) },
  "AET-HMO": { office_visit: cost(30, 0), procedure: cost(50, 10), imaging: null, lab: cost(0, 0) },
  "UHC-CP": { office_visit: cost(40, 0), procedure: cost(0, 30), imaging: cost(0, 30), lab: cost(0, 10) },
  "CIG-OA": { office_visit: cost(35, 0), procedure: null, imaging: cost(25, 10), lab: cost(0, 20) },
  "MCR-B": { office_visit: cost(0, 20), procedure: cost(0, 20), imaging: cost(0, 20), lab: cost(0, 0) },
  "HUM-MA": { office_visit: cost(10, 0), procedure: cost(0, 20), imaging: cost(20, 0), lab: cost(0, 0) },
  "MCD-ST": { office_visit: cost(0, 0), procedure: cost(0, 0), imaging: cost(0, 0), lab: cost(0, 0) },
  "CHP-MCO": { office_visit: cost(5, 0), procedure: cost(10, 0), imaging: cost(10, 0), lab: cost(0, 0) },
};

function plan(code: string, payer: string, name: string, type: PlanSeed["type"], phone: string): PlanSeed {
  return { code, payer, name, type, phone, coverage: PLAN_COVERAGE[code]! };
}

export const PLANS: PlanSeed[] = [
  plan("BSC-PPO", "Blue Shield", "Blue Shield PPO Gold", "commercial", "800-555-0141"),
  plan("AET-HMO", "Aetna", "Aetna HMO Select", "commercial", "800-555-0172"),
  plan("UHC-CP", "UnitedHealthcare", "UnitedHealthcare Choice Plus", "commercial", "800-555-0119"),
  plan("CIG-OA", "Cigna", "Cigna Open Access Plus", "commercial", "800-555-0163"),
  plan("MCR-B", "Medicare", "Original Medicare Part B", "medicare", "800-555-0100"),
  plan("HUM-MA", "Humana", "Humana Gold Plus Medicare Advantage", "medicare", "800-555-0187"),
  plan("MCD-ST", "State Medicaid", "State Medicaid Fee-for-Service", "medicaid", "800-555-0125"),
  plan("CHP-MCO", "Community Health Plan", "Community Health Plan Family Care", "medicaid", "800-555-0158"),
];

export interface FeeLine {
  code: string;
  description: string;
  category: ChargeCategory;
  amount: number;
}

function feeOf(category: ChargeCategory) {
  return (code: string, description: string, amount: number): FeeLine => ({
    code,
    description,
    category,
    amount,
  });
}
const officeFee = feeOf("office_visit");
const procedureFee = feeOf("procedure");
const imagingFee = feeOf("imaging");
const labFee = feeOf("lab");

const ESTABLISHED_VISIT_FEES = [
  officeFee("99213", "Established patient visit, low", 145),
  officeFee("99214", "Established patient visit, moderate", 210),
];

/** The clinic's fee schedule: the professional charge billed for each visit type, per specialty where it differs. */
export const VISIT_FEES: Record<VisitType, FeeLine[]> = {
  new_patient: [officeFee("99204", "New patient office visit, moderate", 265)],
  follow_up: ESTABLISHED_VISIT_FEES,
  annual_physical: [officeFee("99396", "Preventive visit, 40-64 years", 240)],
  sick_visit: ESTABLISHED_VISIT_FEES,
  well_child: [officeFee("99392", "Preventive visit, 1-4 years", 190)],
  procedure: [],
  imaging: [],
  telehealth: [officeFee("99212", "Telehealth visit, straightforward", 95)],
};

export const PROCEDURE_FEES: Record<string, FeeLine[]> = {
  FM: [
    procedureFee("10060", "Incision and drainage of abscess", 285),
    procedureFee("11200", "Removal of skin tags", 170),
  ],
  DERM: [
    procedureFee("11102", "Tangential skin biopsy", 210),
    procedureFee("17110", "Destruction of benign lesions", 155),
    procedureFee("11402", "Excision of benign lesion", 340),
  ],
  CARD: [procedureFee("93015", "Cardiovascular stress test", 395)],
  ORTH: [
    procedureFee("20610", "Major joint injection", 245),
    procedureFee("29125", "Short arm splint application", 180),
  ],
  PED: [],
};

export const IMAGING_FEES: Record<string, FeeLine[]> = {
  CARD: [
    imagingFee("93306", "Transthoracic echocardiogram", 650),
    imagingFee("93000", "Electrocardiogram with interpretation", 85),
  ],
  ORTH: [
    imagingFee("73030", "X-ray shoulder, 2 views", 120),
    imagingFee("73560", "X-ray knee, 2 views", 115),
    imagingFee("73110", "X-ray wrist, 3 views", 125),
  ],
};

export const LAB_FEES: FeeLine[] = [
  labFee("36415", "Venipuncture", 25),
  labFee("80053", "Comprehensive metabolic panel", 60),
  labFee("85025", "Complete blood count", 40),
  labFee("80061", "Lipid panel", 55),
];

/** A closed-open interval of minutes since midnight on one date. */
export interface DayInterval {
  date: string;
  startMinutes: number;
  endMinutes: number;
}

/** Parses `YYYY-MM-DDTHH:MM` into its date and minutes since midnight. */
export function splitStartTime(startTime: string): { date: string; minutes: number } {
  const [date, time] = startTime.split("T") as [string, string];
  const [hours, minutes] = time.split(":").map(Number) as [number, number];
  return { date, minutes: hours * 60 + minutes };
}

export function formatStartTime(date: string, minutes: number): string {
  const hours = String(Math.floor(minutes / 60)).padStart(2, "0");
  const rest = String(minutes % 60).padStart(2, "0");
  return `${date}T${hours}:${rest}`;
}

export function formatClock(minutes: number): string {
  return formatStartTime("x", minutes).slice(2);
}

/** The minutes a provider is busy with a visit (turnover is the room's problem, not the provider's). */
export function providerInterval(visitType: string, startTime: string): DayInterval {
  const { date, minutes } = splitStartTime(startTime);
  const rule = VISIT_RULES[visitType as VisitType];
  return { date, startMinutes: minutes, endMinutes: minutes + rule.lengthMinutes };
}

/** The minutes a room is blocked by a visit, including its turnover. */
export function roomInterval(visitType: string, startTime: string): DayInterval {
  const { date, minutes } = splitStartTime(startTime);
  const rule = VISIT_RULES[visitType as VisitType];
  return { date, startMinutes: minutes, endMinutes: minutes + rule.lengthMinutes + rule.turnoverMinutes };
}

export function intervalsOverlap(first: DayInterval, second: DayInterval): boolean {
  return (
    first.date === second.date &&
    first.startMinutes < second.endMinutes &&
    second.startMinutes < first.endMinutes
  );
}

/** 0 = Sunday ... 6 = Saturday. */
export function weekdayOf(isoDate: string): number {
  return new Date(`${isoDate.slice(0, 10)}T00:00:00Z`).getUTCDay();
}

/** Cost-sharing terms of one plan by charge category; a null entry means the category is not covered. */
export type PlanCoverage = Partial<Record<string, { copay: number; coinsurancePercent: number } | null>>;

/**
 * The patient's share of one charge under the billing policy (see billing/patient-billing-policy.md);
 * `coverage` is null for self-pay patients.
 */
export function patientShare(
  charge: { category: string; amount: number },
  coverage: PlanCoverage | null,
): number {
  if (charge.category === "admin_fee") return charge.amount;
  if (!coverage) return roundCents((charge.amount * (100 - SELF_PAY_DISCOUNT_PERCENT)) / 100);
  const terms = coverage[charge.category];
  if (!terms) return charge.amount;
  const copay = Math.min(charge.amount, terms.copay);
  return roundCents(
    Math.min(charge.amount, copay + ((charge.amount - copay) * terms.coinsurancePercent) / 100),
  );
}
