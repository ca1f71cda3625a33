/** Fixed reference data of the graduate school: departments, the course catalog and the programs. */

export interface CatalogCourse {
  code: string;
  title: string;
  credits: number;
  /** Seminars are graded pass/fail; everything else carries a letter grade. */
  gradingBasis: "letter" | "pass_fail";
  /** Which terms the course is normally offered in. */
  offered: "fall" | "spring" | "both";
  prerequisites: string[];
}

export interface CatalogDepartment {
  name: string;
  prefix: string;
  building: string;
  courses: CatalogCourse[];
}

function course(
  code: string,
  title: string,
  offered: CatalogCourse["offered"],
  prerequisites: string[] = [],
  credits = 3,
  gradingBasis: CatalogCourse["gradingBasis"] = "letter",
): CatalogCourse {
  return { code, title, credits, gradingBasis, offered, prerequisites };
}

function department(
  name: string,
  prefix: string,
  building: string,
  courses: CatalogCourse[],
): CatalogDepartment {
  return { name, prefix, building, courses };
}

export const DEPARTMENTS: CatalogDepartment[] = [
  department("Computer Science", "CS", "Hollis Hall", [
    course("CS 450", "Programming Bridge for Graduate Students", "fall"),
    course("CS 501", "Design and Analysis of Algorithms", "both"),
    course("CS 510", "Advanced Operating Systems", "fall"),
    course("CS 520", "Database Systems", "both"),
    course("CS 530", "Computer Networks", "spring"),
    course("CS 540", "Machine Learning", "both"),
    course("CS 545", "Deep Learning", "spring", ["CS 540"]),
    course("CS 550", "Distributed Systems", "spring", ["CS 510"]),
    course("CS 560", "Computer Security", "both"),
    course("CS 565", "Applied Cryptography", "spring", ["CS 560"]),
    course("CS 570", "Compiler Construction", "fall", ["CS 501"]),
    course("CS 580", "Natural Language Processing", "fall", ["CS 540"]),
    course("CS 598", "Computer Science Graduate Seminar", "both", [], 1, "pass_fail"),
  ]),
  department("Data Science", "DS", "Merritt Center", [
    course("DS 500", "Foundations of Data Science", "both"),
    course("DS 510", "Statistical Learning", "both", ["DS 500"]),
    course("DS 520", "Data Visualization", "fall"),
    course("DS 530", "Big Data Systems", "spring", ["CS 520"]),
    course("DS 610", "Causal Inference", "spring", ["DS 510"]),
    course("DS 690", "Data Science Capstone", "both", ["DS 510"]),
  ]),
  department("Statistics", "STAT", "Ferris Building", [
    course("STAT 400", "Mathematical Foundations for Statistics", "fall"),
    course("STAT 501", "Probability Theory", "fall"),
    course("STAT 502", "Statistical Inference", "spring", ["STAT 501"]),
    course("STAT 520", "Linear Models", "fall", ["STAT 502"]),
    course("STAT 530", "Bayesian Methods", "spring", ["STAT 502"]),
    course("STAT 540", "Time Series Analysis", "both"),
    course("STAT 560", "Survey Sampling", "spring"),
  ]),
  department("Electrical Engineering", "EE", "Kessler Engineering Hall", [
    course("EE 501", "Linear Systems Theory", "fall"),
    course("EE 510", "Digital Signal Processing", "spring", ["EE 501"], 4),
    course("EE 520", "VLSI Design", "fall", [], 4),
    course("EE 530", "Power Systems Analysis", "both"),
    course("EE 540", "Wireless Communications", "fall", ["EE 510"]),
    course("EE 550", "Embedded Systems", "both"),
    course("EE 598", "Engineering Graduate Seminar", "both", [], 1, "pass_fail"),
  ]),
  department("Economics", "ECON", "Lowell House", [
    course("ECON 501", "Microeconomic Theory", "fall"),
    course("ECON 502", "Macroeconomic Theory", "spring"),
    course("ECON 510", "Econometrics I", "fall"),
    course("ECON 511", "Econometrics II", "spring", ["ECON 510"]),
    course("ECON 530", "Labor Economics", "spring", ["ECON 501"]),
    course("ECON 540", "Development Economics", "fall"),
  ]),
  department("Public Health", "PH", "Avery Health Sciences", [
    course("PH 500", "Principles of Epidemiology", "both"),
    course("PH 510", "Biostatistics I", "fall"),
    course("PH 511", "Biostatistics II", "spring", ["PH 510"]),
    course("PH 520", "Health Policy and Management", "both"),
    course("PH 530", "Environmental Health", "spring"),
    course("PH 540", "Global Health", "fall"),
    course("PH 690", "Public Health Practicum", "both", ["PH 500"]),
  ]),
  department("Management", "MGMT", "Whitcomb School of Business", [
    course("MGMT 400", "Quantitative Methods Bootcamp", "fall"),
    course("MGMT 500", "Managerial Accounting", "both"),
    course("MGMT 510", "Corporate Finance", "both", ["MGMT 500"]),
    course("MGMT 520", "Marketing Strategy", "fall"),
    course("MGMT 530", "Operations Management", "spring"),
    course("MGMT 540", "Organizational Behavior", "both"),
    course("MGMT 550", "Business Analytics", "spring", ["MGMT 400"]),
  ]),
];

export interface CatalogProgram {
  code: string;
  name: string;
  department: string;
  degree: string;
  /** Courses every student of the program must pass (order = the usual sequence). */
  core: string[];
  /** Courses students usually choose from after the core. */
  electives: string[];
  /** A bridge course (below 500) some admits are required to take in their first term. */
  bridge: string | null;
  /** Candidate values for the handbook's minimum credits; one is picked per seed. */
  creditOptions: number[];
  maxTransferCredits: number;
}

type ProgramFields = [string, string, string, string, string, string, string];

/**
 * A program from "code | name | department | degree | bridge course (- for none) | credit options | maximum
 * transfer credits" and its core and elective course lists.
 */
function program(fields: string, core: string, electives: string): CatalogProgram {
  const [code, name, department, degree, bridge, credits, transfer] = fields.split(" | ") as ProgramFields;
  return {
    code,
    name,
    department,
    degree,
    core: core.split(", "),
    electives: electives.split(", "),
    bridge: bridge === "-" ? null : bridge,
    creditOptions: credits.split(", ").map(Number),
    maxTransferCredits: Number(transfer),
  };
}

export const PROGRAMS: CatalogProgram[] = [
  program(
    "MSCS | M.S. in Computer Science | Computer Science | MS | CS 450 | 30, 33 | 6",
    "CS 501, CS 520, CS 540",
    "CS 510, CS 530, CS 545, CS 550, CS 560, CS 570, CS 580, CS 598, DS 520",
  ),
  program(
    "MSDS | M.S. in Data Science | Data Science | MS | CS 450 | 30, 33 | 6",
    "DS 500, DS 510, CS 520, DS 690",
    "DS 520, DS 530, DS 610, CS 540, CS 545, STAT 540, STAT 530, CS 598",
  ),
  program(
    "MSSTAT | M.S. in Statistics | Statistics | MS | STAT 400 | 30, 33 | 6",
    "STAT 501, STAT 502, STAT 520",
    "STAT 530, STAT 540, STAT 560, DS 510, ECON 510, PH 510",
  ),
  program(
    "MENGEE | M.Eng. in Electrical Engineering | Electrical Engineering | MEng | - | 30, 32 | 6",
    "EE 501, EE 510, EE 550",
    "EE 520, EE 530, EE 540, EE 598, CS 510, CS 530",
  ),
  program(
    "MAECON | M.A. in Economics | Economics | MA | STAT 400 | 30 | 3",
    "ECON 501, ECON 502, ECON 510",
    "ECON 511, ECON 530, ECON 540, STAT 540, PH 520, MGMT 510",
  ),
  program(
    "MPH | Master of Public Health | Public Health | MPH | - | 33, 36 | 6",
    "PH 500, PH 510, PH 520, PH 690",
    "PH 511, PH 530, PH 540, STAT 560, ECON 540, MGMT 540",
  ),
  program(
    "MSBA | M.S. in Business Analytics | Management | MS | MGMT 400 | 30, 33 | 6",
    "MGMT 500, MGMT 550, DS 500",
    "MGMT 510, MGMT 520, MGMT 530, MGMT 540, DS 520, CS 520, STAT 540",
  ),
  program(
    "GCCYB | Graduate Certificate in Cybersecurity | Computer Science | Certificate | - | 12 | 0",
    "CS 560, CS 565",
    "CS 530, CS 510, CS 550, CS 520",
  ),
  program(
    "GCDA | Graduate Certificate in Data Analytics | Data Science | Certificate | - | 12 | 0",
    "DS 500, DS 510",
    "DS 520, STAT 540, MGMT 550, CS 520",
  ),
];

export const ALL_COURSES: CatalogCourse[] = DEPARTMENTS.flatMap((department) => department.courses);

export function catalogCourse(code: string): CatalogCourse {
  const found = ALL_COURSES.find((item) => item.code === code);
  if (!found) throw new Error(`unknown catalog course '${code}'`);
  return found;
}

export function departmentOfCourse(code: string): CatalogDepartment {
  const prefix = code.split(" ")[0];
  const found = DEPARTMENTS.find((department) => department.prefix === prefix);
  if (!found) throw new Error(`no department for course '${code}'`);
  return found;
}
