/** The fixed organisation of the fictional employer: departments, positions and pay bands. */

export const COMPANY_NAME = "Harborline Supply Co.";
export const EMAIL_DOMAIN = "harborline.example";

export interface DepartmentSpec {
  id: string;
  name: string;
  costCenter: string;
  location: string;
  /** Share of the headcount. */
  weight: number;
  projectCodes: string[];
}

export const DEPARTMENTS: DepartmentSpec[] = [
  {
    id: "D01",
    name: "Engineering",
    costCenter: "CC-4100",
    location: "Portland HQ",
    weight: 0.17,
    projectCodes: ["ENG-PLATFORM", "ENG-ROUTING", "ENG-MAINT", "ENG-QA"],
  },
  {
    id: "D02",
    name: "Customer Support",
    costCenter: "CC-5200",
    location: "Boise Contact Center",
    weight: 0.22,
    projectCodes: ["CS-TIER1", "CS-TIER2", "CS-CHAT"],
  },
  {
    id: "D03",
    name: "Warehouse & Logistics",
    costCenter: "CC-6300",
    location: "Reno Distribution Center",
    weight: 0.23,
    projectCodes: ["WH-PICK", "WH-PACK", "WH-RECEIVE", "WH-FLEET"],
  },
  {
    id: "D04",
    name: "Finance",
    costCenter: "CC-2100",
    location: "Portland HQ",
    weight: 0.08,
    projectCodes: ["FIN-AP", "FIN-CLOSE", "FIN-PAYROLL"],
  },
  {
    id: "D05",
    name: "People Operations",
    costCenter: "CC-2200",
    location: "Portland HQ",
    weight: 0.06,
    projectCodes: ["HR-OPS", "HR-RECRUIT"],
  },
  {
    id: "D06",
    name: "Sales",
    costCenter: "CC-3100",
    location: "Portland HQ",
    weight: 0.1,
    projectCodes: ["SAL-PIPE", "SAL-ACCT"],
  },
  {
    id: "D07",
    name: "Facilities",
    costCenter: "CC-6900",
    location: "Reno Distribution Center",
    weight: 0.08,
    projectCodes: ["FAC-MAINT", "FAC-SAFETY"],
  },
  {
    id: "D08",
    name: "Marketing",
    costCenter: "CC-3300",
    location: "Portland HQ",
    weight: 0.06,
    projectCodes: ["MKT-CAMPAIGN", "MKT-CONTENT"],
  },
];

export interface PositionSpec {
  id: string;
  title: string;
  departmentId: string;
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

export const POSITIONS: PositionSpec[] = [
  { id: "P101", title: "Software Engineer I", departmentId: "D01", grade: "G4", ...salaried, weight: 3 },
  { id: "P102", title: "Software Engineer II", departmentId: "D01", grade: "G5", ...salaried, weight: 3 },
  { id: "P103", title: "Senior Software Engineer", departmentId: "D01", grade: "G6", ...salaried, weight: 2 },
  {
    id: "P104",
    title: "QA Technician",
    departmentId: "D01",
    grade: "G3",
    ...hourly,
    weight: 2,
    contractorsAllowed: true,
  },
  {
    id: "P105",
    title: "Engineering Manager",
    departmentId: "D01",
    grade: "G7",
    ...salaried,
    weight: 0,
    head: true,
  },
  {
    id: "P201",
    title: "Support Agent",
    departmentId: "D02",
    grade: "G2",
    ...hourly,
    weight: 6,
    contractorsAllowed: true,
  },
  { id: "P202", title: "Senior Support Agent", departmentId: "D02", grade: "G3", ...hourly, weight: 3 },
  { id: "P203", title: "Support Team Lead", departmentId: "D02", grade: "G4", ...salaried, weight: 1 },
  {
    id: "P204",
    title: "Support Operations Manager",
    departmentId: "D02",
    grade: "G6",
    ...salaried,
    weight: 0,
    head: true,
  },
  {
    id: "P301",
    title: "Warehouse Associate",
    departmentId: "D03",
    grade: "G1",
    ...hourly,
    weight: 6,
    contractorsAllowed: true,
  },
  {
    id: "P302",
    title: "Forklift Operator",
    departmentId: "D03",
    grade: "G2",
    ...hourly,
    weight: 3,
    contractorsAllowed: true,
  },
  { id: "P303", title: "Shift Supervisor", departmentId: "D03", grade: "G3", ...hourly, weight: 2 },
  {
    id: "P304",
    title: "Logistics Manager",
    departmentId: "D03",
    grade: "G5",
    ...salaried,
    weight: 0,
    head: true,
  },
  { id: "P401", title: "Accounts Payable Clerk", departmentId: "D04", grade: "G2", ...hourly, weight: 2 },
  { id: "P402", title: "Payroll Specialist", departmentId: "D04", grade: "G3", ...hourly, weight: 2 },
  { id: "P403", title: "Financial Analyst", departmentId: "D04", grade: "G4", ...salaried, weight: 2 },
  { id: "P404", title: "Controller", departmentId: "D04", grade: "G7", ...salaried, weight: 0, head: true },
  { id: "P501", title: "HR Coordinator", departmentId: "D05", grade: "G2", ...hourly, weight: 2 },
  { id: "P502", title: "Recruiter", departmentId: "D05", grade: "G4", ...salaried, weight: 2 },
  {
    id: "P503",
    title: "HR Business Partner",
    departmentId: "D05",
    grade: "G5",
    ...salaried,
    weight: 0,
    head: true,
  },
  {
    id: "P601",
    title: "Sales Development Representative",
    departmentId: "D06",
    grade: "G3",
    ...salaried,
    weight: 3,
  },
  { id: "P602", title: "Account Executive", departmentId: "D06", grade: "G5", ...salaried, weight: 3 },
  {
    id: "P603",
    title: "Sales Manager",
    departmentId: "D06",
    grade: "G6",
    ...salaried,
    weight: 0,
    head: true,
  },
  { id: "P701", title: "Facilities Technician", departmentId: "D07", grade: "G2", ...hourly, weight: 4 },
  { id: "P702", title: "Maintenance Lead", departmentId: "D07", grade: "G3", ...hourly, weight: 2 },
  {
    id: "P703",
    title: "Facilities Manager",
    departmentId: "D07",
    grade: "G5",
    ...salaried,
    weight: 0,
    head: true,
  },
  { id: "P801", title: "Marketing Coordinator", departmentId: "D08", grade: "G3", ...hourly, weight: 2 },
  { id: "P802", title: "Content Marketer", departmentId: "D08", grade: "G4", ...salaried, weight: 2 },
  {
    id: "P803",
    title: "Marketing Manager",
    departmentId: "D08",
    grade: "G6",
    ...salaried,
    weight: 0,
    head: true,
  },
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

export function departmentById(id: string): DepartmentSpec {
  const department = DEPARTMENTS.find((candidate) => candidate.id === id);
  if (!department) throw new Error(`unknown department ${id}`);
  return department;
}

export function positionById(id: string): PositionSpec {
  const position = POSITIONS.find((candidate) => candidate.id === id);
  if (!position) throw new Error(`unknown position ${id}`);
  return position;
}

/** Departments whose front-line staff work shifts (weekend and holiday work is common there). */
export const SHIFT_DEPARTMENT_IDS = ["D02", "D03", "D07"];
