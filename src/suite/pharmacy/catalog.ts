/** The products a hospital pharmacy stocks: generic, class, schedule, form, strengths, dose unit. */
export interface CatalogEntry {
  generic: string;
  drugClass: string;
  schedule: "II" | "III" | "IV" | "V" | null;
  form: string;
  strengths: readonly string[];
  doseUnit: string;
  doses: readonly number[];
}

const entry = (
  generic: string,
  drugClass: string,
  schedule: CatalogEntry["schedule"],
  form: string,
  strengths: string[],
  doseUnit: string,
  doses: number[],
): CatalogEntry => ({ generic, drugClass, schedule, form, strengths, doseUnit, doses });

export const CATALOG: readonly CatalogEntry[] = [
  entry("morphine", "opioid analgesic", "II", "injection", ["2 mg/mL", "4 mg/mL"], "mg", [2, 4]),
  entry("pantoprazole", "proton pump inhibitor", null, "tablet", ["40 mg", "20 mg"], "mg", [20, 40]),
  entry("lorazepam", "benzodiazepine", "IV", "injection", ["2 mg/mL"], "mg", [0.5, 1, 2]),
  entry("atorvastatin", "statin", null, "tablet", ["40 mg", "80 mg", "10 mg"], "mg", [10, 40, 80]),
  entry("hydromorphone", "opioid analgesic", "II", "injection", ["1 mg/mL", "2 mg/mL"], "mg", [0.5, 1]),
  entry("cefazolin", "cephalosporin", null, "vial", ["1 g", "2 g"], "g", [1, 2]),
  entry("midazolam", "benzodiazepine", "IV", "injection", ["1 mg/mL", "5 mg/mL"], "mg", [1, 2]),
  entry("esomeprazole", "proton pump inhibitor", null, "capsule", ["40 mg", "20 mg"], "mg", [20, 40]),
  entry("fentanyl", "opioid analgesic", "II", "injection", ["50 mcg/mL"], "mcg", [25, 50]),
  entry("rosuvastatin", "statin", null, "tablet", ["10 mg", "20 mg"], "mg", [10, 20]),
  entry("ketamine", "anesthetic", "III", "vial", ["50 mg/mL", "10 mg/mL"], "mg", [25, 50]),
  entry("ceftriaxone", "cephalosporin", null, "vial", ["1 g", "2 g"], "g", [1, 2]),
  entry("oxycodone", "opioid analgesic", "II", "tablet", ["5 mg", "10 mg"], "mg", [5, 10]),
  entry("enoxaparin", "anticoagulant", null, "syringe", ["40 mg", "80 mg"], "mg", [40, 80]),
  entry("tramadol", "opioid analgesic", "IV", "tablet", ["50 mg"], "mg", [50, 100]),
  entry("heparin", "anticoagulant", null, "vial", ["5,000 units/mL"], "units", [5000]),
  entry("pregabalin", "anticonvulsant", "V", "capsule", ["75 mg", "150 mg"], "mg", [75, 150]),
  entry("levetiracetam", "anticonvulsant", null, "tablet", ["500 mg", "750 mg"], "mg", [500, 750]),
  entry("diazepam", "benzodiazepine", "IV", "tablet", ["5 mg", "2 mg"], "mg", [2, 5]),
  entry("metoprolol", "beta blocker", null, "tablet", ["25 mg", "50 mg"], "mg", [25, 50]),
  entry("testosterone cypionate", "androgen", "III", "vial", ["200 mg/mL"], "mg", [100, 200]),
  entry("carvedilol", "beta blocker", null, "tablet", ["6.25 mg", "12.5 mg"], "mg", [6.25, 12.5]),
  entry("lacosamide", "anticonvulsant", "V", "tablet", ["100 mg", "50 mg"], "mg", [50, 100]),
  entry("ondansetron", "antiemetic", null, "injection", ["2 mg/mL"], "mg", [4, 8]),
  entry("granisetron", "antiemetic", null, "injection", ["1 mg/mL"], "mg", [1]),
  entry("vancomycin", "glycopeptide antibiotic", null, "vial", ["1 g", "500 mg"], "mg", [1000, 1250]),
  entry("piperacillin-tazobactam", "penicillin", null, "vial", ["3.375 g", "4.5 g"], "g", [3.375, 4.5]),
  entry("ampicillin-sulbactam", "penicillin", null, "vial", ["3 g"], "g", [3]),
  entry("insulin glargine", "insulin", null, "pen", ["100 units/mL"], "units", [10, 20]),
  entry("insulin detemir", "insulin", null, "pen", ["100 units/mL"], "units", [10, 20]),
  entry("famotidine", "H2 blocker", null, "tablet", ["20 mg"], "mg", [20]),
  entry("apixaban", "anticoagulant", null, "tablet", ["5 mg", "2.5 mg"], "mg", [2.5, 5]),
  entry("simvastatin", "statin", null, "tablet", ["20 mg", "40 mg"], "mg", [20, 40]),
  entry("acetaminophen", "analgesic", null, "tablet", ["325 mg", "500 mg"], "mg", [650, 1000]),
  entry("furosemide", "loop diuretic", null, "injection", ["10 mg/mL"], "mg", [20, 40]),
  entry("bumetanide", "loop diuretic", null, "injection", ["0.25 mg/mL"], "mg", [1, 2]),
];

export const MANUFACTURERS = [
  "Hospira",
  "Fresenius Kabi",
  "Hikma",
  "Sandoz",
  "Teva",
  "Baxter",
  "Mylan",
  "Sagent",
  "Amneal",
  "Apotex",
];

export const NURSING_UNITS = [
  "4 West Med/Surg",
  "5 East Cardiac",
  "Medical ICU",
  "Emergency Department",
  "3 North Oncology",
  "Labor and Delivery",
  "6 West Ortho",
  "Surgical ICU",
  "PACU",
  "2 South Pediatrics",
  "Cath Lab",
  "7 East Neuro",
];
