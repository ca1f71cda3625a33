/** The fixed organisation of the fictional employer: departments, positions and pay bands. */

export const COMPANY_NAME = "Harborline Supply Co.";
export const EMAIL_DOMAIN = "harborline.example";

export interface DepartmentSpec {
  id: number;
  name: string;
  costCenter: string;
  location: string;
  /** Share of the headcount. */
  weight: number;
  projectCodes: string[];
}

const HQ = "Portland HQ";
const RENO = "Reno Distribution Center";

/** id, name, cost center, location, share of the headcount, project codes. */
const DEPARTMENT_ROWS: Array<[number, string, string, string, number, string[]]> = [
  [10, "Engineering", "CC-4100", HQ, 0.17, ["ENG-PLATFORM", "ENG-ROUTING", "ENG-MAINT", "ENG-QA"]],
  [20, "Customer Support", "CC-5200", "Boise Contact Center", 0.22, ["CS-TIER1", "CS-TIER2", "CS-CHAT"]],
  [30, "Warehouse & Logistics", "CC-6300", RENO, 0.23, ["WH-PICK", "WH-PACK", "WH-RECEIVE", "WH-FLEET"]],
  [40, "Finance", "CC-2100", HQ, 0.08, ["FIN-AP", "FIN-CLOSE", "FIN-PAYROLL"]],
  [50, "People Operations", "CC-2200", HQ, 0.06, ["HR-OPS", "HR-RECRUIT"]],
  [60, "Sales", "CC-3100", HQ, 0.1, ["SAL-PIPE", "SAL-ACCT"]],
  [70, "Facilities", "CC-6900", RENO, 0.08, ["FAC-MAINT", "FAC-SAFETY"]],
  [80, "Marketing", "CC-3300", HQ, 0.06, ["MKT-CAMPAIGN", "MKT-CONTENT"]],
];

export const DEPARTMENTS: DepartmentSpec[] = DEPARTMENT_ROWS.map(
  ([id, name, costCenter, location, weight, projectCodes]) => ({
    id,
    name,
    costCenter,
    location,
    weight,
    projectCodes,
  }),
);

export interface PositionSpec {
  id: number;
  title: string;
  departmentId: number;
  grade: string;
  flsaStatus: "exempt" | "non_exempt";
  payType: "salaried" | "hourly";
  /** Relative frequency within the department. */
  weight: number;
  /** Whether agencies supply contractors for this role. */
  contractorsAllowed?: boolean;
  /** Whether it is the department's most senior role (one holder heads the department). */
  head?: boolean;
}

const salaried = { flsaStatus: "exempt", payType: "salaried" } as const;
const hourly = { flsaStatus: "non_exempt", payType: "hourly" } as const;
/** Agencies supply contractors for the role. */
const agency = { contractorsAllowed: true } as const;
/** The department's most senior role: only its head holds it. */
const headOf = { weight: 0, head: true } as const;

export const POSITIONS: PositionSpec[] = [
  { id: 101, title: "Software Engineer I", departmentId: 10, grade: "G4", ...salaried, weight: 3 },
  { id: 102, title: "Software Engineer II", departmentId: 10, grade: "G5", ...salaried, weight: 3 },
  { id: 103, title: "Senior Software Engineer", departmentId: 10, grade: "G6", ...salaried, weight: 2 },
  { id: 104, title: "QA Technician", departmentId: 10, grade: "G3", ...hourly, weight: 2, ...agency },
  { id: 105, title: "Engineering Manager", departmentId: 10, grade: "G7", ...salaried, ...headOf },
  { id: 201, title: "Support Agent", departmentId: 20, grade: "G2", ...hourly, weight: 6, ...agency },
  { id: 202, title: "Senior Support Agent", departmentId: 20, grade: "G3", ...hourly, weight: 3 },
  { id: 203, title: "Support Team Lead", departmentId: 20, grade: "G4", ...salaried, weight: 1 },
  { id: 204, title: "Support Operations Manager", departmentId: 20, grade: "G6", ...salaried, ...headOf },
  { id: 301, title: "Warehouse Associate", departmentId: 30, grade: "G1", ...hourly, weight: 6, ...agency },
  { id: 302, title: "Forklift Operator", departmentId: 30, grade: "G2", ...hourly, weight: 3, ...agency },
  { id: 303, title: "Shift Supervisor", departmentId: 30, grade: "G3", ...hourly, weight: 2 },
  { id: 304, title: "Logistics Manager", departmentId: 30, grade: "G5", ...salaried, ...headOf },
  { id: 401, title: "Accounts Payable Clerk", departmentId: 40, grade: "G2", ...hourly, weight: 2 },
  { id: 402, title: "Payroll Specialist", departmentId: 40, grade: "G3", ...hourly, weight: 2 },
  { id: 403, title: "Financial Analyst", departmentId: 40, grade: "G4", ...salaried, weight: 2 },
  { id: 404, title: "Controller", departmentId: 40, grade: "G7", ...salaried, ...headOf },
  { id: 501, title: "HR Coordinator", departmentId: 50, grade: "G2", ...hourly, weight: 2 },
  { id: 502, title: "Recruiter", departmentId: 50, grade: "G4", ...salaried, weight: 2 },
  { id: 503, title: "HR Business Partner", departmentId: 50, grade: "G5", ...salaried, ...headOf },
  {
    id: 601,
    title: "Sales Development Representative",
    departmentId: 60,
    grade: "G3",
    ...salaried,
    weight: 3,
  },
  { id: 602, title: "Account Executive", departmentId: 60, grade: "G5", ...salaried, weight: 3 },
  { id: 603, title: "Sales Manager", departmentId: 60, grade: "G6", ...salaried, ...headOf },
  { id: 701, title: "Facilities Technician", departmentId: 70, grade: "G2", ...hourly, weight: 4 },
  { id: 702, title: "Maintenance Lead", departmentId: 70, grade: "G3", ...hourly, weight: 2 },
  { id: 703, title: "Facilities Manager", departmentId: 70, grade: "G5", ...salaried, ...headOf },
  { id: 801, title: "Marketing Coordinator", departmentId: 80, grade: "G3", ...hourly, weight: 2 },
  { id: 802, title: "Content Marketer", departmentId: 80, grade: "G4", ...salaried, weight: 2 },
  { id: 803, title: "Marketing Manager", departmentId: 80, grade: "G6", ...salaried, ...headOf },
];

export interface PayBand {
  grade: string;
  payType: "salaried" | "hourly";
  min: number;
  max: number;
}

/** Published pay bands (annual dollars for salaried grades, dollars per hour for hourly grades). */
export const PAY_BANDS: PayBand[] = [
  { grade: "G1", payType: "hourly", min: 17.0, max: 22.5 },
  { grade: "G2", payType: "hourly", min: 19.0, max: 26.0 },
  { grade: "G3", payType: "hourly", min: 23.0, max: 31.5 },
  { grade: "G3", payType: "salaried", min: 50_000, max: 66_000 },
  { grade: "G4", payType: "salaried", min: 62_000, max: 86_000 },
  { grade: "G5", payType: "salaried", min: 78_000, max: 108_000 },
  { grade: "G6", payType: "salaried", min: 98_000, max: 136_000 },
  { grade: "G7", payType: "salaried", min: 125_000, max: 172_000 },
];

export function payBandFor(grade: string, payType: string): PayBand {
  const band = PAY_BANDS.find((candidate) => candidate.grade === grade && candidate.payType === payType);
  if (!band) throw new Error(`no pay band for ${grade}/${payType}`);
  return band;
}

export function departmentById(id: number): DepartmentSpec {
  const department = DEPARTMENTS.find((candidate) => candidate.id === id);
  if (!department) throw new Error(`unknown department ${id}`);
  return department;
}

export function positionById(id: number): PositionSpec {
  const position = POSITIONS.find((candidate) => candidate.id === id);
  if (!position) throw new Error(`unknown position ${id}`);
  return position;
}

/** Departments whose front-line staff work shifts (weekend and holiday work is common there). */
export const SHIFT_DEPARTMENT_IDS = [20, 30, 70];

/** Customer Support, whose standard day is 7.5 hours. */
export const CUSTOMER_SUPPORT_ID = 20;

export const PEOPLE_OPERATIONS_ID = 50;
