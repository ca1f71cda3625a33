/**
 * The clinic's fixed operating rules and reference data. The generator renders them into the workspace
 * documents (scheduling rules, no-show policy, coverage table, billing policy); verifiers and task
 * preparation reuse the same values so that documents, data and expectations cannot drift apart.
 * Nothing here is exposed to an agent except through those documents.
 */

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

export const VISIT_RULES: Record<VisitType, VisitRule> = {
  new_patient: {
    label: "New patient visit",
    lengthMinutes: 40,
    roomType: "exam",
    turnoverMinutes: 0,
    physicianOnly: false,
    noShowFee: 75,
  },
  follow_up: {
    label: "Follow-up visit",
    lengthMinutes: 20,
    roomType: "exam",
    turnoverMinutes: 0,
    physicianOnly: false,
    noShowFee: 35,
  },
  annual_physical: {
    label: "Annual physical",
    lengthMinutes: 40,
    roomType: "exam",
    turnoverMinutes: 0,
    physicianOnly: false,
    noShowFee: 75,
  },
  sick_visit: {
    label: "Same-day sick visit",
    lengthMinutes: 20,
    roomType: "exam",
    turnoverMinutes: 0,
    physicianOnly: false,
    noShowFee: 35,
  },
  well_child: {
    label: "Well-child check",
    lengthMinutes: 30,
    roomType: "exam",
    turnoverMinutes: 0,
    physicianOnly: false,
    noShowFee: 35,
  },
  procedure: {
    label: "In-office procedure",
    lengthMinutes: 60,
    roomType: "procedure",
    turnoverMinutes: 15,
    physicianOnly: true,
    noShowFee: 100,
  },
  imaging: {
    label: "Imaging study",
    lengthMinutes: 30,
    roomType: "imaging",
    turnoverMinutes: 0,
    physicianOnly: false,
    noShowFee: 50,
  },
  telehealth: {
    label: "Telehealth video visit",
    lengthMinutes: 20,
    roomType: null,
    turnoverMinutes: 0,
    physicianOnly: false,
    noShowFee: 25,
  },
};

export const SPECIALTIES: SpecialtySeed[] = [
  {
    code: "FM",
    name: "Family Medicine",
    sharePerNine: 4,
    credentials: ["MD", "DO", "NP", "PA", "MD"],
    visitMix: [
      ["follow_up", 30],
      ["new_patient", 10],
      ["annual_physical", 15],
      ["sick_visit", 20],
      ["procedure", 6],
      ["telehealth", 12],
    ],
  },
  {
    code: "PED",
    name: "Pediatrics",
    sharePerNine: 2,
    credentials: ["MD", "NP", "DO"],
    visitMix: [
      ["well_child", 35],
      ["sick_visit", 30],
      ["follow_up", 15],
      ["new_patient", 8],
      ["telehealth", 8],
    ],
  },
  {
    code: "DERM",
    name: "Dermatology",
    sharePerNine: 1,
    credentials: ["MD", "PA"],
    visitMix: [
      ["new_patient", 20],
      ["follow_up", 30],
      ["procedure", 30],
      ["telehealth", 10],
    ],
  },
  {
    code: "CARD",
    name: "Cardiology",
    sharePerNine: 1,
    credentials: ["MD", "DO"],
    visitMix: [
      ["new_patient", 20],
      ["follow_up", 35],
      ["imaging", 20],
      ["procedure", 10],
      ["telehealth", 10],
    ],
  },
  {
    code: "ORTH",
    name: "Orthopedics",
    sharePerNine: 1,
    credentials: ["MD", "PA", "DO"],
    visitMix: [
      ["new_patient", 20],
      ["follow_up", 35],
      ["imaging", 25],
      ["procedure", 20],
    ],
  },
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

export const PLANS: PlanSeed[] = [
  {
    code: "BSC-PPO",
    payer: "Blue Shield",
    name: "Blue Shield PPO Gold",
    type: "commercial",
    phone: "800-555-0141",
    coverage: {
      office_visit: { copay: 25, coinsurancePercent: 0 },
      procedure: { copay: 0, coinsurancePercent: 20 },
      imaging: { copay: 0, coinsurancePercent: 20 },
      lab: { copay: 0, coinsurancePercent: 0 },
    },
  },
  {
    code: "AET-HMO",
    payer: "Aetna",
    name: "Aetna HMO Select",
    type: "commercial",
    phone: "800-555-0172",
    coverage: {
      office_visit: { copay: 30, coinsurancePercent: 0 },
      procedure: { copay: 50, coinsurancePercent: 10 },
      imaging: null,
      lab: { copay: 0, coinsurancePercent: 0 },
    },
  },
  {
    code: "UHC-CP",
    payer: "UnitedHealthcare",
    name: "UnitedHealthcare Choice Plus",
    type: "commercial",
    phone: "800-555-0119",
    coverage: {
      office_visit: { copay: 40, coinsurancePercent: 0 },
      procedure: { copay: 0, coinsurancePercent: 30 },
      imaging: { copay: 0, coinsurancePercent: 30 },
      lab: { copay: 0, coinsurancePercent: 10 },
    },
  },
  {
    code: "CIG-OA",
    payer: "Cigna",
    name: "Cigna Open Access Plus",
    type: "commercial",
    phone: "800-555-0163",
    coverage: {
      office_visit: { copay: 35, coinsurancePercent: 0 },
      procedure: null,
      imaging: { copay: 25, coinsurancePercent: 10 },
      lab: { copay: 0, coinsurancePercent: 20 },
    },
  },
  {
    code: "MCR-B",
    payer: "Medicare",
    name: "Original Medicare Part B",
    type: "medicare",
    phone: "800-555-0100",
    coverage: {
      office_visit: { copay: 0, coinsurancePercent: 20 },
      procedure: { copay: 0, coinsurancePercent: 20 },
      imaging: { copay: 0, coinsurancePercent: 20 },
      lab: { copay: 0, coinsurancePercent: 0 },
    },
  },
  {
    code: "HUM-MA",
    payer: "Humana",
    name: "Humana Gold Plus Medicare Advantage",
    type: "medicare",
    phone: "800-555-0187",
    coverage: {
      office_visit: { copay: 10, coinsurancePercent: 0 },
      procedure: { copay: 0, coinsurancePercent: 20 },
      imaging: { copay: 20, coinsurancePercent: 0 },
      lab: { copay: 0, coinsurancePercent: 0 },
    },
  },
  {
    code: "MCD-ST",
    payer: "State Medicaid",
    name: "State Medicaid Fee-for-Service",
    type: "medicaid",
    phone: "800-555-0125",
    coverage: {
      office_visit: { copay: 0, coinsurancePercent: 0 },
      procedure: { copay: 0, coinsurancePercent: 0 },
      imaging: { copay: 0, coinsurancePercent: 0 },
      lab: { copay: 0, coinsurancePercent: 0 },
    },
  },
  {
    code: "CHP-MCO",
    payer: "Community Health Plan",
    name: "Community Health Plan Family Care",
    type: "medicaid",
    phone: "800-555-0158",
    coverage: {
      office_visit: { copay: 5, coinsurancePercent: 0 },
      procedure: { copay: 10, coinsurancePercent: 0 },
      imaging: { copay: 10, coinsurancePercent: 0 },
      lab: { copay: 0, coinsurancePercent: 0 },
    },
  },
];

export interface FeeLine {
  code: string;
  description: string;
  category: ChargeCategory;
  amount: number;
}

/** The clinic's fee schedule: the professional charge billed for each visit type, per specialty where it differs. */
export const VISIT_FEES: Record<VisitType, FeeLine[]> = {
  new_patient: [
    {
      code: "99204",
      description: "New patient office visit, moderate",
      category: "office_visit",
      amount: 265,
    },
  ],
  follow_up: [
    { code: "99213", description: "Established patient visit, low", category: "office_visit", amount: 145 },
    {
      code: "99214",
      description: "Established patient visit, moderate",
      category: "office_visit",
      amount: 210,
    },
  ],
  annual_physical: [
    { code: "99396", description: "Preventive visit, 40-64 years", category: "office_visit", amount: 240 },
  ],
  sick_visit: [
    { code: "99213", description: "Established patient visit, low", category: "office_visit", amount: 145 },
    {
      code: "99214",
      description: "Established patient visit, moderate",
      category: "office_visit",
      amount: 210,
    },
  ],
  well_child: [
    { code: "99392", description: "Preventive visit, 1-4 years", category: "office_visit", amount: 190 },
  ],
  procedure: [],
  imaging: [],
  telehealth: [
    { code: "99212", description: "Telehealth visit, straightforward", category: "office_visit", amount: 95 },
  ],
};

export const PROCEDURE_FEES: Record<string, FeeLine[]> = {
  FM: [
    { code: "10060", description: "Incision and drainage of abscess", category: "procedure", amount: 285 },
    { code: "11200", description: "Removal of skin tags", category: "procedure", amount: 170 },
  ],
  DERM: [
    { code: "11102", description: "Tangential skin biopsy", category: "procedure", amount: 210 },
    { code: "17110", description: "Destruction of benign lesions", category: "procedure", amount: 155 },
    { code: "11402", description: "Excision of benign lesion", category: "procedure", amount: 340 },
  ],
  CARD: [{ code: "93015", description: "Cardiovascular stress test", category: "procedure", amount: 395 }],
  ORTH: [
    { code: "20610", description: "Major joint injection", category: "procedure", amount: 245 },
    { code: "29125", description: "Short arm splint application", category: "procedure", amount: 180 },
  ],
  PED: [],
};

export const IMAGING_FEES: Record<string, FeeLine[]> = {
  CARD: [
    { code: "93306", description: "Transthoracic echocardiogram", category: "imaging", amount: 650 },
    { code: "93000", description: "Electrocardiogram with interpretation", category: "imaging", amount: 85 },
  ],
  ORTH: [
    { code: "73030", description: "X-ray shoulder, 2 views", category: "imaging", amount: 120 },
    { code: "73560", description: "X-ray knee, 2 views", category: "imaging", amount: 115 },
    { code: "73110", description: "X-ray wrist, 3 views", category: "imaging", amount: 125 },
  ],
};

export const LAB_FEES: FeeLine[] = [
  { code: "36415", description: "Venipuncture", category: "lab", amount: 25 },
  { code: "80053", description: "Comprehensive metabolic panel", category: "lab", amount: 60 },
  { code: "85025", description: "Complete blood count", category: "lab", amount: 40 },
  { code: "80061", description: "Lipid panel", category: "lab", amount: 55 },
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

/** The abbreviated weekday name (`Tue`) of WEEKDAY_NAMES, as the clinic's documents write it. */
export function weekdayName(isoDate: string): string {
  return WEEKDAY_NAMES[weekdayOf(isoDate)] as string;
}

/** Rounds a money amount to cents (half away from zero on the cent). */
export function roundCents(amount: number): number {
  return Math.round((amount + Number.EPSILON * Math.sign(amount)) * 100) / 100;
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
