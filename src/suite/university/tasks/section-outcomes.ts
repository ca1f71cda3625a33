import {
  checkNone,
  checkOtherTablesUnchanged,
  defineTask,
  parseAnswerJson,
  type Check,
  type VerifyContext,
  allRows,
  variantNearMisses,
} from "../../../envs/index.js";
import { universityDomain } from "../domain.js";
import { meetsMinimumGrade } from "../rules.js";
import { PYTHON_PRELUDE, compareIds, gradedAndCurrentTerms, regulationsOf } from "./shared.js";

/** Sections of the two most recent graded terms that the outcome review flags, with their pass rates. */
export function expectedFlaggedSections(context: VerifyContext): Map<number, number> {
  const { initial } = context;
  const regulations = regulationsOf(initial);
  const { graded } = gradedAndCurrentTerms(initial.db);
  const terms = graded.slice(-2);
  const rows = allRows<{ section_id: number; grade: string | null }>(
    initial.db,
    `SELECT e.section_id, e.grade FROM enrollments e JOIN sections s ON s.section_id = e.section_id
       WHERE s.term IN (${terms.map(() => "?").join(", ")}) AND e.status = 'completed'`,
    ...terms,
  );
  const tally = new Map<number, { graded: number; passed: number }>();
  for (const row of rows) {
    if (row.grade === null || row.grade === "I" || row.grade === "W") continue;
    const counts = tally.get(row.section_id) ?? { graded: 0, passed: 0 };
    counts.graded += 1;
    if (meetsMinimumGrade(row.grade, regulations.sectionPassMinimumGrade)) counts.passed += 1;
    tally.set(row.section_id, counts);
  }
  const flagged = new Map<number, number>();
  for (const [sectionId, counts] of tally) {
    const rate = Math.round((1000 * counts.passed) / counts.graded) / 10;
    if (
      counts.graded >= regulations.sectionReviewMinimumGraded &&
      rate < regulations.sectionReviewThresholdPercent
    )
      flagged.set(sectionId, rate);
  }
  return flagged;
}

function verify(context: VerifyContext): Check[] {
  const expected = expectedFlaggedSections(context);
  const parsed = parseAnswerJson(context.answer);
  const items = Array.isArray(parsed) ? (parsed as Array<Record<string, unknown>>) : [];
  const answered = new Map(items.map((item) => [Number(item?.section_id), Number(item?.pass_rate)]));
  const wrongRates = [...expected].filter(([id, rate]) => {
    const given = answered.get(id);
    return given !== undefined && !(Math.abs(given - rate) <= 0.1 || Math.abs(given * 100 - rate) <= 0.1);
  });
  return [
    compareIds(
      "flagged-sections",
      "flagged sections",
      [...expected.keys()].map(String),
      [...answered.keys()].map(String),
    ),
    checkNone(
      "pass-rates",
      wrongRates,
      "every flagged section has the right pass rate",
      (wrong) =>
        `wrong pass rates: ${wrong
          .map(([id, rate]) => `section ${id} expected ${rate.toFixed(1)}, found ${String(answered.get(id))}`)
          .join("; ")}`,
    ),
    checkOtherTablesUnchanged(context.initial.db, context.final.db, []),
  ];
}

interface OutcomeVariant {
  excludeWithdrawals: boolean;
  strictPassGrade: boolean;
  minimumSize: boolean;
}

function outcomeCells(variant: OutcomeVariant): string[] {
  return [
    PYTHON_PRELUDE,
    `pass_grade = re.search(r"final grade of \\*\\*([A-F][+-]?)\\*\\* or better", regulations).group(1)
threshold = float(re.search(r"is below \\*\\*(\\d+)%\\*\\*", regulations).group(1))
minimum = int(re.search(r"at least \\*\\*(\\d+)\\*\\* of its students", regulations).group(1))
in_progress = tools.list_enrollments(status="enrolled", per_page=1)["enrollments"][0]["term"]
graded_terms = sorted(code for code in term_names if code < in_progress)[-2:]
print("terms", graded_terms, "pass grade", pass_grade, "threshold", threshold, "minimum", minimum)`,
    `sections = {}
registrations = []
for term in graded_terms:
    for section in fetch_all("list_sections", "sections", term=term):
        sections[section["section_id"]] = section
    registrations += fetch_all("list_enrollments", "enrollments", term=term)
print(len(sections), "sections;", len(registrations), "registrations")`,
    `tally = defaultdict(lambda: [0, 0])
for e in registrations:
    grade = e["grade"]
    if e["status"] == "dropped" or grade is None or grade == "I"${variant.excludeWithdrawals ? ' or grade == "W"' : ""}:
        continue
    tally[e["section_id"]][0] += 1
    passed = grade == "P" or (grade in points and points[grade] >= points[${variant.strictPassGrade ? "pass_grade" : '"C-"'}])
    tally[e["section_id"]][1] += 1 if passed else 0
flagged = []
for section_id, (graded, passed) in sorted(tally.items()):
    rate = round(100 * passed / graded + 1e-9, 1)
    if ${variant.minimumSize ? "graded >= minimum and " : ""}rate < threshold:
        flagged.append({"section_id": section_id, "pass_rate": rate})
print(len(flagged), "flagged")`,
    `print(json.dumps(flagged))`,
  ];
}

const FULL: OutcomeVariant = { excludeWithdrawals: true, strictPassGrade: true, minimumSize: true };

export const sectionOutcomesTask = defineTask({
  id: "university.section-outcomes",
  domain: universityDomain,
  summary:
    "Flag the sections of the two most recent graded terms whose pass rate is below the regulations' threshold (pass grade, withdrawals and incompletes excluded, minimum number of graded students).",
  instruction:
    'For the curriculum committee, run the section outcome review described in the academic regulations over every section of the two most recent terms whose grades are on record. Do not change any records. Reply with only a JSON array of the flagged sections, sorted by section_id, each as {"section_id": number, "pass_rate": percentage rounded to one decimal}.',
  tools: ["list_sections", "get_section", "list_enrollments", "list_courses", "get_course"],
  verify,
  oracle: outcomeCells(FULL),
  nearMisses: variantNearMisses(outcomeCells, FULL, {
    "counts-withdrawals": [
      { excludeWithdrawals: false },
      "Counts withdrawn students (W) as students without a pass.",
    ],
    "counts-c-minus-as-pass": [{ strictPassGrade: false }, "Counts C- as a passing grade."],
    "ignores-minimum-size": [
      { minimumSize: false },
      "Flags sections with fewer graded students than the regulations' minimum.",
    ],
  }),
});
