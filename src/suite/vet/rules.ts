import { defineIdFormat } from "../../envs/index.js";

/** The practice's reference data: what its protocol, formulary and lab documents state. */
export const SPECIES = ["dog", "cat", "rabbit"] as const;
export type Species = (typeof SPECIES)[number];

export const PATHS = {
  protocol: "protocols/vaccination-protocol.md",
  formulary: "protocols/formulary.md",
  ranges: "lab/reference-ranges.md",
  reminders: "protocols/reminders-and-rechecks.md",
  printouts: "lab/printouts",
} as const;

/** [species, vaccine, core, booster interval in months]. */
export const VACCINES: Array<[Species, string, boolean, number]> = [
  ["dog", "DHPP", true, 36],
  ["dog", "RABIES", true, 36],
  ["dog", "LEPTO", false, 12],
  ["dog", "BORDETELLA", false, 12],
  ["cat", "FVRCP", true, 36],
  ["cat", "RABIES", true, 12],
  ["cat", "FELV", false, 12],
  ["rabbit", "RHDV2", true, 12],
  ["rabbit", "MYXO", false, 12],
];
export const GRACE_DAYS = 30;
export const SERIES_WEEKS = 16;

/** [drug, species, max mg/kg per dose]; the dog row comes first, as in the printed formulary. */
export const FORMULARY: Array<[string, Species, number]> = [
  ["meloxicam", "dog", 0.2],
  ["meloxicam", "cat", 0.05],
  ["meloxicam", "rabbit", 1],
  ["gabapentin", "dog", 20],
  ["gabapentin", "cat", 10],
  ["amoxicillin-clavulanate", "dog", 20],
  ["amoxicillin-clavulanate", "cat", 15],
  ["maropitant", "dog", 1],
  ["maropitant", "cat", 1],
  ["enrofloxacin", "dog", 10],
  ["enrofloxacin", "cat", 5],
  ["enrofloxacin", "rabbit", 10],
  ["buprenorphine", "cat", 0.02],
  ["buprenorphine", "rabbit", 0.05],
  ["carprofen", "dog", 4.4],
];
export const LB_PER_KG = 2.2046;

/** Weight-loss alert thresholds (percent between the two latest weighed visits). */
export const WEIGHT_LOSS_PCT: Record<Species, number> = { dog: 10, cat: 7.5, rabbit: 10 };

export interface Analyte {
  code: string;
  panel: "CHEM" | "CBC";
  unit: string;
  decimals: number;
  /** The SI unit some analysers print, and the factor: conventional = SI x factor. */
  si?: [string, number];
  ranges: Record<Species, [number, number]>;
}
export const ANALYTES: Analyte[] = [
  {
    code: "ALT",
    panel: "CHEM",
    unit: "U/L",
    decimals: 0,
    ranges: { dog: [10, 125], cat: [12, 130], rabbit: [14, 80] },
  },
  {
    code: "ALKP",
    panel: "CHEM",
    unit: "U/L",
    decimals: 0,
    ranges: { dog: [23, 212], cat: [14, 111], rabbit: [12, 96] },
  },
  {
    code: "BUN",
    panel: "CHEM",
    unit: "mg/dL",
    decimals: 0,
    si: ["mmol/L", 2.8],
    ranges: { dog: [7, 27], cat: [16, 36], rabbit: [13, 30] },
  },
  {
    code: "CREA",
    panel: "CHEM",
    unit: "mg/dL",
    decimals: 1,
    si: ["umol/L", 1 / 88.4],
    ranges: { dog: [0.5, 1.8], cat: [0.8, 2.4], rabbit: [0.5, 2.5] },
  },
  {
    code: "GLU",
    panel: "CHEM",
    unit: "mg/dL",
    decimals: 0,
    si: ["mmol/L", 18],
    ranges: { dog: [74, 143], cat: [71, 159], rabbit: [75, 150] },
  },
  {
    code: "TP",
    panel: "CHEM",
    unit: "g/dL",
    decimals: 1,
    ranges: { dog: [5.2, 8.2], cat: [5.7, 8.9], rabbit: [5.4, 7.5] },
  },
  {
    code: "WBC",
    panel: "CBC",
    unit: "K/uL",
    decimals: 2,
    ranges: { dog: [5.05, 16.76], cat: [2.87, 17.02], rabbit: [5.2, 12.5] },
  },
  {
    code: "HCT",
    panel: "CBC",
    unit: "%",
    decimals: 1,
    ranges: { dog: [37.3, 61.7], cat: [30.3, 52.3], rabbit: [33, 50] },
  },
  {
    code: "PLT",
    panel: "CBC",
    unit: "K/uL",
    decimals: 0,
    ranges: { dog: [148, 484], cat: [151, 600], rabbit: [250, 650] },
  },
];

/** Recheck intervals (days after the run) for a value above the species range. */
export const RECHECK_DAYS: Record<string, number> = { CREA: 14, GLU: 7, ALT: 30 };

export const clinicId = defineIdFormat({
  field: "clinic_id",
  entity: "clinic",
  prefix: "CLN-",
  digits: 2,
  listTool: "list_clinics",
});
export const ownerId = defineIdFormat({ field: "owner_id", entity: "owner", prefix: "OWN-", digits: 5 });
export const patientId = defineIdFormat({
  field: "patient_id",
  entity: "patient",
  prefix: "PAT-",
  digits: 5,
  listTool: "list_patients",
});
export const visitId = defineIdFormat({
  field: "visit_id",
  entity: "visit",
  prefix: "VIS-",
  digits: 5,
  listTool: "list_visits",
});
export const rxId = defineIdFormat({
  field: "rx_id",
  entity: "prescription",
  prefix: "RX-",
  digits: 5,
  listTool: "list_prescriptions",
});
export const labId = defineIdFormat({
  field: "lab_id",
  entity: "lab order",
  prefix: "LAB-",
  digits: 5,
  listTool: "list_lab_orders",
});
export const invoiceId = defineIdFormat({
  field: "invoice_id",
  entity: "invoice",
  prefix: "INV-",
  digits: 5,
  listTool: "list_invoices",
});

/** `months` calendar months after `date`, the day clamped to the month's end. */
export function addMonths(date: string, months: number): string {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const index = year * 12 + month - 1 + months;
  const [y, m] = [Math.floor(index / 12), (index % 12) + 1];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return `${y}-${String(m).padStart(2, "0")}-${String(Math.min(day, last)).padStart(2, "0")}`;
}
