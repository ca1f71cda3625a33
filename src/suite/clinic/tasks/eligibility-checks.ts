import {
  allRows,
  checkStateDiff,
  defineTask,
  parseAnswerList,
  type Check,
  type GenerateContext,
  type StateView,
  type VerifyContext,
} from "../../../envs/index.js";
import { clinicDomain } from "../domain.js";
import { checkAnswerListsExactly } from "./answer-lists.js";
import { clinicNearMisses, PYTHON_PAGING_CELL } from "./python-helpers.js";

export const ELIGIBILITY_POLICY_PATH = "billing/eligibility-policy.md";
const WINDOW = { from: "2025-07-01", to: "2025-07-03" } as const;

interface Visit {
  patient_id: number;
  day: string;
}

function windowVisits(db: StateView["db"]): Visit[] {
  return allRows<Visit>(
    db,
    `SELECT DISTINCT a.patient_id, substr(a.start_time, 1, 10) AS day FROM appointments a
      WHERE a.status = 'scheduled' AND substr(a.start_time, 1, 10) BETWEEN ? AND ?
      ORDER BY a.patient_id, day`,
    WINDOW.from,
    WINDOW.to,
  );
}

/**
 * Writes the eligibility policy and ends the coverage of some insured patients seen this week: before the
 * week, on the run date (inactive tomorrow), exactly on a visit date (still covered that day), on the first
 * of two visit days (not covered on the second), and one of
 * a patient whose scheduling is already restricted. One patient whose first clearinghouse call fails is
 * among the lapsed.
 */
function prepare(context: GenerateContext): void {
  const { db, random } = context;
  context.writeFile(
    ELIGIBILITY_POLICY_PATH,
    `# Insurance eligibility checks before visits

Owner: Patient Financial Services.

- Before each clinic day, the front office checks every insured patient's coverage **for the date of each
  scheduled visit** (\`check_eligibility\`). Self-pay patients are not checked.
- Coverage is active from its start date through its end date, both days included.
- When a patient's coverage is not active on the date of one of their visits, set their scheduling status to
  \`prepay_required\` (reason: "Insurance inactive on <visit date>"), so the visit is paid at check-in.
- Patients whose scheduling status is already \`prepay_required\` or \`restricted\` keep their status: a
  restriction set by the practice manager is never lowered to prepay.
- Do not cancel or move any visit because of eligibility.
`,
  );
  const visits = windowVisits(db);
  const ids = (sql: string): Set<number> => new Set(allRows<{ id: number }>(db, sql).map((row) => row.id));
  const insured = ids("SELECT patient_id AS id FROM insurance_eligibility");
  const standard = ids("SELECT id FROM patients WHERE scheduling_status = 'standard'");
  const daysOf = new Map<number, string[]>();
  for (const visit of visits)
    if (insured.has(visit.patient_id) && standard.has(visit.patient_id))
      daysOf.set(visit.patient_id, [...(daysOf.get(visit.patient_id) ?? []), visit.day]);
  const patients = random.shuffle([...daysOf.keys()].sort((a, b) => a - b));
  if (patients.length < 6) throw new Error("too few insured patients seen this week to check eligibility");
  const setEnd = db.prepare("UPDATE insurance_eligibility SET coverage_end = ? WHERE patient_id = ?");
  const used = new Set<number>();
  const take = (predicate: (id: number) => boolean): number => {
    const id =
      patients.find((candidate) => !used.has(candidate) && predicate(candidate)) ??
      patients.find((candidate) => !used.has(candidate))!;
    used.add(id);
    return id;
  };
  // Lapsed before the week, one of them on the clearinghouse's flaky list.
  setEnd.run(
    "2025-06-15",
    take((id) => id % 4 === 1),
  );
  for (let n = 0; n < Math.max(1, Math.floor(patients.length / 6)); n += 1)
    setEnd.run(
      `2025-06-${String(random.int(1, 28)).padStart(2, "0")}`,
      take(() => true),
    );
  // Lapses on the run date: inactive for every visit this week.
  setEnd.run(
    "2025-06-30",
    take(() => true),
  );
  // Ends on the patient's only visit this week: still covered that day.
  const boundary = take((id) => daysOf.get(id)!.length === 1);
  setEnd.run(daysOf.get(boundary)![0]!, boundary);
  // Ends on the first of a patient's visit days this week: covered that day, not on the later visit.
  const between = take((id) => daysOf.get(id)!.length >= 2);
  setEnd.run(daysOf.get(between)![0]!, between);
  // A restricted patient whose coverage lapsed: stays restricted.
  const restricted = take(() => true);
  setEnd.run("2025-06-10", restricted);
  db.prepare(
    "UPDATE patients SET scheduling_status = 'restricted', status_reason = 'Behavioral agreement on file; scheduling by practice manager only' WHERE id = ?",
  ).run(restricted);
}

/** Patients to set to prepay_required: insured, standard, with a visit this week on a day they are not covered. */
export function expectedPrepay(state: StateView): Array<{ id: number; mrn: string }> {
  const terms = new Map(
    allRows<{ patient_id: number; coverage_start: string; coverage_end: string | null }>(
      state.db,
      "SELECT patient_id, coverage_start, coverage_end FROM insurance_eligibility",
    ).map((row) => [row.patient_id, row]),
  );
  const flagged = new Set<number>();
  for (const visit of windowVisits(state.db)) {
    const coverage = terms.get(visit.patient_id);
    if (!coverage) continue;
    const active =
      coverage.coverage_start <= visit.day &&
      (coverage.coverage_end === null || visit.day <= coverage.coverage_end);
    if (!active) flagged.add(visit.patient_id);
  }
  const patients = "SELECT id, mrn, scheduling_status FROM patients ORDER BY id";
  return allRows<{ id: number; mrn: string; scheduling_status: string }>(state.db, patients)
    .filter((row) => flagged.has(row.id) && row.scheduling_status === "standard")
    .map((row) => ({ id: row.id, mrn: row.mrn }));
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const expected = expectedPrepay(initial);
  if (expected.length === 0) throw new Error("generation produced no lapsed coverage");
  const given = parseAnswerList(answer).map((item) => item.toUpperCase());
  const want = [...new Set(expected.map((row) => row.mrn))];
  return [
    ...checkStateDiff(initial.db, final.db, [
      {
        table: "patients",
        key: "id",
        changed: new Map(expected.map((row) => [row.id, { scheduling_status: "prepay_required" }])),
        ignoreColumns: ["status_reason"],
      },
    ]),
    checkAnswerListsExactly(answer, given, want, "patients set to prepay", "MRNs"),
  ];
}

interface Variant {
  noRetry?: boolean;
  skipFailed?: boolean;
  endExclusive?: boolean;
  overrideRestricted?: boolean;
  checkRunDate?: boolean;
  firstVisitOnly?: boolean;
}

function cells(variant: Variant = {}): string[] {
  const checkCall = variant.skipFailed
    ? `def eligibility(patient_id, day):
    try:
        return tools.check_eligibility(patient_id=patient_id, service_date=day)["eligibility"]
    except ToolError as error:
        print("skipping", patient_id, day, "after:", error)
        return {"active": True, "coverage_start": "", "coverage_end": None}`
    : variant.noRetry
      ? `def eligibility(patient_id, day):
    return tools.check_eligibility(patient_id=patient_id, service_date=day)["eligibility"]`
      : `def eligibility(patient_id, day):
    for attempt in range(4):
        try:
            return tools.check_eligibility(patient_id=patient_id, service_date=day)["eligibility"]
        except ToolError as error:
            if attempt == 3:
                raise
            print("retrying", patient_id, day, "after:", error)`;
  return [
    PYTHON_PAGING_CELL,
    String.raw`
policy = tools.read_file(path="${ELIGIBILITY_POLICY_PATH}")["content"]
print(policy)
visits = fetch_all("list_appointments", "appointments", status="scheduled", date_from="${WINDOW.from}", date_to="${WINDOW.to}")
patients = {}
for patient_id in sorted({v["patient_id"] for v in visits}):
    patients[patient_id] = tools.get_patient(patient_id=patient_id)["patient"]
print(len(visits), "visits of", len(patients), "patients")
` + checkCall,
    String.raw`
flagged = []
for patient_id, patient in patients.items():
    if patient["insurance_plan_id"] is None:
        continue
    days = sorted({v["start_time"][:10] for v in visits if v["patient_id"] == patient_id})${variant.firstVisitOnly ? "[:1]" : ""}
    lapsed = None
    for day in days:
        result = eligibility(patient_id, ${variant.checkRunDate ? '"2025-06-30"' : "day"})
        ${variant.endExclusive ? 'active = result["coverage_start"] <= day and (result["coverage_end"] is None or day < result["coverage_end"])' : 'active = result["active"]'}
        if not active:
            lapsed = day
            break
    if lapsed is None:
        continue
    if ${variant.overrideRestricted ? 'patient["scheduling_status"] == "prepay_required"' : 'patient["scheduling_status"] in ("prepay_required", "restricted")'}:
        continue
    tools.update_patient_scheduling_status(patient_id=patient_id, scheduling_status="prepay_required", reason=f"Insurance inactive on {lapsed}")
    flagged.append(patient["mrn"])
print(len(flagged), "patients set to prepay")
`,
    `print(json.dumps(flagged))`,
  ];
}

export const eligibilityChecksTask = defineTask({
  id: "clinic.eligibility-checks",
  domain: clinicDomain,
  summary:
    "Check this week's insured patients' coverage for each visit date through a flaky clearinghouse (503s to retry) and set lapsed patients to prepay per the eligibility policy (inclusive end date, restricted patients kept).",
  instruction:
    "Please run the insurance eligibility checks for the rest of this week's visits: every appointment scheduled from July 1 through July 3, 2025. Check each patient's coverage with check_eligibility and apply our eligibility policy (billing/eligibility-policy.md). Change nothing the policy does not call for. Reply with only a JSON list of the MRNs of the patients whose scheduling status you changed, e.g. [\"MRN-100345\"].",
  tools: [
    "list_patients",
    "get_patient",
    "list_appointments",
    "get_appointment",
    "check_eligibility",
    "update_patient_scheduling_status",
  ],
  prepare,
  verify,
  oracle: cells(),
  nearMisses: clinicNearMisses(cells, {
    "no-retry": [
      { noRetry: true },
      "Gives up at the clearinghouse's first 503 instead of retrying the call.",
    ],
    "skips-failed-checks": [
      { skipFailed: true },
      "Moves on when a clearinghouse call fails and treats that patient's coverage as unchanged.",
    ],
    "end-date-exclusive": [{ endExclusive: true }, "Treats coverage as ended on its end date."],
    "lowers-restricted": [{ overrideRestricted: true }, "Sets restricted patients to prepay_required too."],
    "checks-run-date": [{ checkRunDate: true }, "Checks coverage for today instead of each visit's date."],
    "first-visit-only": [
      { firstVisitOnly: true },
      "Checks coverage only for each patient's next visit, not for every visit date this week.",
    ],
  }),
});
