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
  panel: string;
  unit: string;
  decimals: number;
  /** The SI unit some analysers print, and the factor: conventional = SI x factor. */
  si?: [string, number];
  ranges: Record<Species, [number, number]>;
}
const SI: Record<string, [string, number]> = {
  BUN: ["mmol/L", 2.8],
  CREA: ["umol/L", 1 / 88.4],
  GLU: ["mmol/L", 18],
};
/** code panel unit decimals, then the dog, cat and rabbit ranges. */
export const ANALYTES: Analyte[] = `ALT CHEM U/L 0 10-125 12-130 14-80
ALKP CHEM U/L 0 23-212 14-111 12-96
BUN CHEM mg/dL 0 7-27 16-36 13-30
CREA CHEM mg/dL 1 0.5-1.8 0.8-2.4 0.5-2.5
GLU CHEM mg/dL 0 74-143 71-159 75-150
TP CHEM g/dL 1 5.2-8.2 5.7-8.9 5.4-7.5
WBC CBC K/uL 2 5.05-16.76 2.87-17.02 5.2-12.5
HCT CBC % 1 37.3-61.7 30.3-52.3 33-50
PLT CBC K/uL 0 148-484 151-600 250-650`
  .split("\n")
  .map((line) => {
    const [code = "", panel = "", unit = "", decimals, ...ranges] = line.split(" ");
    const [dog, cat, rabbit] = ranges.map((range) => range.split("-").map(Number) as [number, number]);
    return {
      code,
      panel,
      unit,
      decimals: Number(decimals),
      si: SI[code],
      ranges: { dog: dog!, cat: cat!, rabbit: rabbit! },
    };
  });

/** Recheck intervals (days after the run) for a value above the species range. */
export const RECHECK_DAYS: Record<string, number> = { CREA: 14, GLU: 7, ALT: 30 };

const id = (field: string, entity: string, prefix: string, digits: number, listTool?: string) =>
  defineIdFormat({ field, entity, prefix, digits, ...(listTool ? { listTool } : {}) });
export const clinicId = id("clinic_id", "clinic", "CLN-", 2, "list_clinics");
export const ownerId = id("owner_id", "owner", "OWN-", 5);
export const patientId = id("patient_id", "patient", "PAT-", 5, "list_patients");
export const visitId = id("visit_id", "visit", "VIS-", 5, "list_visits");
export const rxId = id("rx_id", "prescription", "RX-", 5, "list_prescriptions");
export const labId = id("lab_id", "lab order", "LAB-", 5, "list_lab_orders");
export const invoiceId = id("invoice_id", "invoice", "INV-", 5, "list_invoices");

/** `months` calendar months after `date`, the day clamped to the month's end. */
export function addMonths(date: string, months: number): string {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const index = year * 12 + month - 1 + months;
  const [y, m] = [Math.floor(index / 12), (index % 12) + 1];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return `${y}-${String(m).padStart(2, "0")}-${String(Math.min(day, last)).padStart(2, "0")}`;
}
