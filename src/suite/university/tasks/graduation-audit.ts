import {
  checkOtherTablesUnchanged,
  defineTask,
  sumBy,
  parseAnswerList,
  type Check,
  type VerifyContext,
  requireFile,
  variantNearMisses,
} from "../../../envs/index.js";
import { TRANSFER_REGISTER_PATH, parseTransferRegister } from "../documents.js";
import { universityDomain } from "../domain.js";
import { meetsGraduationRequirements } from "../rules.js";
import {
  PYTHON_PRELUDE,
  attemptsByStudent,
  compareIds,
  handbookOf,
  normaliseId,
  studentRows,
} from "./shared.js";

/** Active students whose record meets every requirement of their program's handbook entry. */
export function expectedGraduates(context: VerifyContext): string[] {
  const { initial } = context;
  const handbook = handbookOf(initial);
  const transfers = parseTransferRegister(requireFile(initial, TRANSFER_REGISTER_PATH));
  const attempts = attemptsByStudent(initial.db);
  const approvedCredits = sumBy(
    transfers.filter((row) => row.status === "approved"),
    (row) => row.studentId,
    (row) => row.credits,
  );
  const graduates: string[] = [];
  for (const student of studentRows(initial.db)) {
    if (student.enrollment_status !== "active") continue;
    const requirement = handbook.programs.find((program) => program.code === student.program_code);
    if (!requirement) throw new Error(`the handbook has no requirements for program ${student.program_code}`);
    const inputs = {
      attempts: attempts.get(student.student_id) ?? [],
      requirement,
      handbook,
      approvedTransferCredits: approvedCredits.get(student.student_id) ?? 0,
    };
    if (meetsGraduationRequirements(inputs)) graduates.push(student.student_id);
  }
  return graduates;
}

function verify(context: VerifyContext): Check[] {
  const expected = expectedGraduates(context);
  const answered = parseAnswerList(context.answer).map(normaliseId);
  return [
    compareIds("graduates", "students cleared to graduate", expected, answered),
    checkOtherTablesUnchanged(context.initial.db, context.final.db, []),
  ];
}

interface AuditVariant {
  transferStatus: boolean;
  transferCap: boolean;
  bridgeRule: boolean;
  coreGrade: boolean;
}

function auditCells(variant: AuditVariant): string[] {
  return [
    PYTHON_PRELUDE,
    `handbook = read_text("handbook/graduate-program-handbook.md")
credit_grade = re.search(r"only with a grade of \\*\\*([A-F][+-]?)\\*\\*", handbook).group(1)
bridge_below = int(re.search(r"numbered below (\\d+)", handbook).group(1))
programs = {}
for block in handbook.split("\\n### ")[1:]:
    code = re.match(r".+ \\(([A-Z]+)\\)", block).group(1)
    core = re.search(r"Core courses \\(each with a grade of ([A-F][+-]?) or better\\): (.+)", block)
    programs[code] = {
        "credits": int(re.search(r"Minimum credits: (\\d+)", block).group(1)),
        "core_grade": core.group(1),
        "core": [item.strip() for item in core.group(2).split(",")],
        "max_transfer": int(re.search(r"Maximum transfer credits: (\\d+)", block).group(1)),
        "gpa": round(float(re.search(r"Minimum cumulative GPA: (\\d\\.\\d\\d)", block).group(1)) * 100),
    }
print(credit_grade, bridge_below, programs)`,
    `import csv, io
transfer_rows = list(csv.DictReader(io.StringIO(read_text("registrar/transfer-credit-register.csv"))))
transfer = defaultdict(int)
for row in transfer_rows:
    if ${variant.transferStatus ? 'row["status"] == "approved"' : 'row["status"] != "denied"'}:
        transfer[row["student_id"]] += int(row["credits"])
students = fetch_all("list_students", "students", enrollment_status="active")
enrollments = fetch_all("list_enrollments", "enrollments")
print(len(transfer_rows), "transfer rows;", len(students), "active students;", len(enrollments), "registrations")`,
    `by_student = defaultdict(list)
for e in enrollments:
    by_student[e["student_id"]].append(e)

def at_least(grade, minimum):
    return grade == "P" or (grade in points and points[grade] >= points[minimum])

def latest_graded(records, keep):
    latest = {}
    for e in records:
        if e["status"] == "completed" and keep(e):
            previous = latest.get(e["course_code"])
            if previous is None or e["term"] > previous["term"]:
                latest[e["course_code"]] = e
    return latest

cleared = []
for s in students:
    rules = programs[s["program_code"]]
    records = by_student.get(s["student_id"], [])
    if any(e["status"] == "completed" and e["grade"] == "I" for e in records):
        continue
    graded = latest_graded(records, lambda e: e["grade"] not in (None, "I", "W"))
    credits = sum(e["credits"] for code, e in graded.items()
                  if ${variant.bridgeRule ? "int(code.split()[1]) >= bridge_below and " : ""}at_least(e["grade"], credit_grade))
    credits += ${variant.transferCap ? 'min(transfer[s["student_id"]], rules["max_transfer"])' : 'transfer[s["student_id"]]'}
    core_ok = all(at_least(graded[code]["grade"] if code in graded else None, ${variant.coreGrade ? 'rules["core_grade"]' : "credit_grade"}) for code in rules["core"])
    letter = latest_graded(records, lambda e: e["grade"] in points)
    gpa_credits = sum(e["credits"] for e in letter.values())
    quality = sum(points[e["grade"]] * e["credits"] for e in letter.values())
    gpa = (2 * quality + gpa_credits) // (2 * gpa_credits) if gpa_credits else None
    if credits >= rules["credits"] and core_ok and gpa is not None and gpa >= rules["gpa"]:
        cleared.append(s["student_id"])
print(len(cleared), "cleared")`,
    `print(json.dumps(sorted(cleared)))`,
  ];
}

const FULL: AuditVariant = { transferStatus: true, transferCap: true, bridgeRule: true, coreGrade: true };

export const graduationAuditTask = defineTask({
  id: "university.graduation-audit",
  domain: universityDomain,
  summary:
    "List the students cleared to graduate under the program handbook: degree credits (bridge courses and low grades excluded, repeats once), approved transfer credit up to the program cap, core grades, GPA, no incompletes, active status.",
  instruction:
    "The graduate school is preparing this term's degree conferral list. Using the degree requirements in the graduate program handbook, the grades currently on record and the Registrar's transfer credit register, find every student who is cleared to graduate right now. Do not change any records. Reply with only a JSON array of the student ids, sorted.",
  tools: ["list_programs", "list_students", "get_student", "list_enrollments", "list_courses", "get_course"],
  verify,
  oracle: auditCells(FULL),
  nearMisses: variantNearMisses(auditCells, FULL, {
    "counts-pending-transfer-credit": [
      { transferStatus: false },
      "Counts transfer credit that is still pending, not only approved credit.",
    ],
    "ignores-transfer-cap": [
      { transferCap: false },
      "Counts all approved transfer credit, ignoring the program's maximum (certificates accept none).",
    ],
    "counts-bridge-courses": [
      { bridgeRule: false },
      "Counts bridge courses numbered below 500 toward the degree credits.",
    ],
    "ignores-core-grade-minimum": [
      { coreGrade: false },
      "Accepts any credit-earning grade in a core course instead of the handbook's core minimum.",
    ],
  }),
});
