import type Database from "better-sqlite3";
import {
  allRows,
  check,
  checkNone,
  checkOtherTablesUnchanged,
  defineTask,
  diffTable,
  keysChangedBeyond,
  nearlyEqual,
  type Check,
  type Row,
  type VerifyContext,
} from "../../../envs/index.js";
import { clinicDomain } from "../domain.js";
import { NO_SHOW_CHARGE_CODE, NO_SHOW_FLAG_THRESHOLD, VISIT_RULES, splitStartTime } from "../rules.js";
import type { VisitType } from "../rules.js";
import { readClosures, readExcusedAppointmentIds, readReviewPeriod } from "../workspace-facts.js";
import { clinicNearMisses, PYTHON_PAGING_CELL } from "./python-helpers.js";

interface NoShowRow {
  id: number;
  patient_id: number;
  visit_type: string;
  start_time: string;
  plan_type: string | null;
  scheduling_status: string;
}

/** What the policy requires for the instance: fees by appointment id and the patients to flag. */
export function expectedNoShowOutcome(state: VerifyContext["initial"]): {
  fees: Map<number, { patientId: number; amount: number }>;
  flagged: Set<number>;
  counted: number;
} {
  const period = readReviewPeriod(state);
  const closures = readClosures(state);
  const excused = readExcusedAppointmentIds(state);
  const rows = allRows<NoShowRow>(
    state.db,
    `SELECT a.id, a.patient_id, a.visit_type, a.start_time, pl.plan_type, pa.scheduling_status
       FROM appointments a
       JOIN patients pa ON pa.id = a.patient_id
       LEFT JOIN insurance_plans pl ON pl.id = pa.insurance_plan_id
      WHERE a.status = 'no_show' AND substr(a.start_time, 1, 10) BETWEEN ? AND ?
      ORDER BY a.start_time, a.id`,
    period.from,
    period.to,
  );
  const counted = rows.filter((row) => {
    if (excused.has(row.id)) return false;
    const { date, minutes } = splitStartTime(row.start_time);
    return !closures.some((closure) => closure.date === date && minutes >= closure.fromMinutes);
  });
  const byPatient = new Map<number, NoShowRow[]>();
  for (const row of counted) byPatient.set(row.patient_id, [...(byPatient.get(row.patient_id) ?? []), row]);
  const fees = new Map<number, { patientId: number; amount: number }>();
  const flagged = new Set<number>();
  for (const [patientId, list] of byPatient) {
    const first = list[0]!;
    if (first.plan_type !== "medicaid")
      for (const row of list.slice(1))
        fees.set(row.id, { patientId, amount: VISIT_RULES[row.visit_type as VisitType].noShowFee });
    if (list.length >= NO_SHOW_FLAG_THRESHOLD && first.scheduling_status !== "restricted")
      flagged.add(patientId);
  }
  return { fees, flagged, counted: counted.length };
}

function verify({ initial, final }: VerifyContext): Check[] {
  const { fees, flagged } = expectedNoShowOutcome(initial);
  if (fees.size === 0 || flagged.size === 0)
    throw new Error("generation produced no fee or no flag to apply");
  const charges = diffTable(initial.db, final.db, "charges", "id");
  const patients = diffTable(initial.db, final.db, "patients", "id");
  const otherColumns = keysChangedBeyond(patients.changed, ["scheduling_status", "status_reason"]);
  return [
    check(
      "existing-charges-untouched",
      charges.changed.length === 0 && charges.removed.length === 0,
      charges.changed.length + charges.removed.length === 0
        ? "no existing charge was modified or deleted"
        : `${charges.changed.length} existing charges modified and ${charges.removed.length} deleted`,
    ),
    checkNone(
      "no-show-fees",
      feeProblems(charges.added, fees),
      `exactly the ${fees.size} required missed-appointment fees were posted`,
      (found) => `expected ${fees.size} fees; ${found.slice(0, 12).join("; ")}`,
    ),
    check(
      "patients-only-status-changed",
      otherColumns.length === 0 && patients.added.length === 0 && patients.removed.length === 0,
      otherColumns.length === 0
        ? "patient records changed at most in scheduling status and its reason"
        : `patients changed beyond their scheduling status: ${otherColumns.slice(0, 15).join(", ")}`,
    ),
    checkNone(
      "scheduling-flags",
      flagProblems(initial.db, final.db, flagged),
      `the ${flagged.size} patients at the threshold are prepay_required and no other status changed`,
      (found) => found.join("; "),
    ),
    checkOtherTablesUnchanged(initial.db, final.db, ["charges", "patients"]),
  ];
}

/** What is wrong with the charges added: strays, wrong code, amount or patient, doubles, and fees missing. */
function feeProblems(added: Row[], fees: Map<number, { patientId: number; amount: number }>): string[] {
  const problems: string[] = [];
  const seen = new Map<number, number>();
  for (const row of added) {
    const appointmentId = Number(row.appointment_id);
    seen.set(appointmentId, (seen.get(appointmentId) ?? 0) + 1);
    const fee = fees.get(appointmentId);
    if (!fee) {
      problems.push(`unexpected charge on appointment #${appointmentId}`);
      continue;
    }
    if (row.code !== NO_SHOW_CHARGE_CODE || row.category !== "admin_fee")
      problems.push(
        `#${appointmentId}: code/category ${String(row.code)}/${String(row.category)}, expected ${NO_SHOW_CHARGE_CODE}/admin_fee`,
      );
    if (!nearlyEqual(Number(row.amount), fee.amount))
      problems.push(`#${appointmentId}: amount ${String(row.amount)}, expected ${fee.amount.toFixed(2)}`);
    if (Number(row.patient_id) !== fee.patientId)
      problems.push(
        `#${appointmentId}: billed to patient ${String(row.patient_id)}, expected ${fee.patientId}`,
      );
  }
  for (const [appointmentId, count] of seen)
    if (count > 1) problems.push(`appointment #${appointmentId} was charged ${count} times`);
  const missing = [...fees.keys()].filter((appointmentId) => !seen.has(appointmentId));
  if (missing.length > 0)
    problems.push(
      `missing fees on appointments ${missing
        .slice(0, 15)
        .map((id) => `#${id}`)
        .join(", ")}`,
    );
  return problems;
}

/** Patients the review should have flagged and were not, and status changes without cause. */
function flagProblems(initial: Database.Database, final: Database.Database, flagged: Set<number>): string[] {
  const statusOf = (db: Database.Database): Map<number, string> =>
    new Map(
      allRows<{ id: number; scheduling_status: string }>(
        db,
        "SELECT id, scheduling_status FROM patients",
      ).map((row) => [row.id, row.scheduling_status]),
    );
  const before = statusOf(initial);
  const after = statusOf(final);
  const notFlagged = [...flagged].filter((patientId) => after.get(patientId) !== "prepay_required");
  const wronglyChanged = [...after.entries()]
    .filter(([patientId, status]) => status !== before.get(patientId) && !flagged.has(patientId))
    .map(([patientId, status]) => `${patientId} (${before.get(patientId)} -> ${status})`);
  return [
    notFlagged.length > 0 && `not set to prepay_required: patients ${notFlagged.slice(0, 15).join(", ")}`,
    wronglyChanged.length > 0 && `status changed without cause: ${wronglyChanged.slice(0, 15).join(", ")}`,
  ].filter((problem): problem is string => typeof problem === "string");
}

interface Variant {
  feeOnFirst?: boolean;
  chargeMedicaid?: boolean;
  closureWholeDay?: boolean;
  ignoreFrontDesk?: boolean;
  flagAboveThreshold?: boolean;
}

function programCells(variant: Variant): string[] {
  const closureTest = variant.closureWholeDay
    ? "day == closure_day"
    : "day == closure_day and to_minutes(appointment['start_time']) >= closure_from";
  return [
    PYTHON_PAGING_CELL,
    String.raw`
policy = tools.read_file(path="policies/no-show-policy.md")["content"]
period_start, period_end = re.search(r"covers appointments dated (\d{4}-\d{2}-\d{2}) through (\d{4}-\d{2}-\d{2})", policy).groups()
fee_by_type = {m.group(1): float(m.group(2)) for m in re.finditer(r"^\| \x60(\w+)\x60 \| \$(\d+\.\d{2}) \|", policy, re.M)}
closures = []
for path in [p for p in files if p.startswith("memos/")]:
    text = tools.read_file(path=path)["content"]
    closure_date = re.search(r"^Closure date: (\d{4}-\d{2}-\d{2})", text, re.M)
    closed_at = re.search(r"closed at (\d{2}):(\d{2})", text)
    if closure_date and closed_at:
        closures.append((closure_date.group(1), int(closed_at.group(1)) * 60 + int(closed_at.group(2))))
excused = set()
for path in [p for p in files if p.startswith("front-desk/")]:
    for line in tools.read_file(path=path)["content"].splitlines():
        found = re.search(r"EXCUSED.*appt #(\d+)", line)
        if found:
            excused.add(int(found.group(1)))
print(period_start, period_end, fee_by_type, closures, sorted(excused))
`,
    String.raw`
no_shows = fetch_all("list_appointments", "appointments", status="no_show", date_from=period_start, date_to=period_end)
patients = {pid: tools.get_patient(patient_id=pid)["patient"] for pid in sorted({a["patient_id"] for a in no_shows})}

def closure_excused(appointment):
    day = appointment["start_time"][:10]
    return any(${closureTest} for closure_day, closure_from in closures)

counted = {}
for appointment in sorted(no_shows, key=lambda item: (item["start_time"], item["id"])):
    if ${variant.ignoreFrontDesk ? "False" : 'appointment["id"] in excused'} or closure_excused(appointment):
        continue
    counted.setdefault(appointment["patient_id"], []).append(appointment)
print(len(no_shows), "no-shows,", sum(len(v) for v in counted.values()), "counted")
`,
    String.raw`
posted, flagged = [], []
for patient_id, missed in counted.items():
    patient = patients[patient_id]
    if ${variant.chargeMedicaid ? "True" : 'patient["plan_type"] != "medicaid"'}:
        for appointment in missed[${variant.feeOnFirst ? "0" : "1"}:]:
            fee = fee_by_type[appointment["visit_type"]]
            tools.post_charge(appointment_id=appointment["id"], code="NOSHOW", category="admin_fee", amount=fee, description="Missed appointment fee")
            posted.append((appointment["id"], fee))
    if len(missed) ${variant.flagAboveThreshold ? ">" : ">="} 3 and patient["scheduling_status"] not in ("restricted", "prepay_required"):
        tools.update_patient_scheduling_status(patient_id=patient_id, scheduling_status="prepay_required", reason=f"{len(missed)} no-shows {period_start} to {period_end}")
        flagged.append(patient_id)
print("fees:", posted)
print("flagged:", flagged)
`,
    `print("done")`,
  ];
}

export const applyNoShowPolicyTask = defineTask({
  id: "clinic.apply-no-show-policy",
  domain: clinicDomain,
  summary:
    "Apply the no-show policy for the review cycle: post fees (courtesy first miss, Medicaid exempt, closure and supervisor excuses) and flag repeat no-shows.",
  instruction:
    "It's time for this cycle's no-show review. Apply the clinic's missed-appointment policy to every patient for the current review period: post the no-show fees it calls for and update scheduling statuses where it says to. Reply 'done' when finished.",
  tools: [
    "list_appointments",
    "get_appointment",
    "list_patients",
    "get_patient",
    "list_insurance_plans",
    "list_charges",
    "post_charge",
    "update_patient_scheduling_status",
  ],
  verify,
  oracle: programCells({}),
  nearMisses: clinicNearMisses(programCells, {
    "fee-on-first-no-show": [
      { feeOnFirst: true },
      "Charges every counted no-show, forgetting the courtesy for the first one.",
    ],
    "charges-medicaid": [{ chargeMedicaid: true }, "Charges Medicaid patients too."],
    "closure-excuses-whole-day": [
      { closureWholeDay: true },
      "Excuses every no-show on the closure day, including the morning before the clinic closed.",
    ],
    "ignores-front-desk-excuses": [
      { ignoreFrontDesk: true },
      "Counts no-shows that the front-desk logs record as excused.",
    ],
    "flag-threshold-off-by-one": [
      { flagAboveThreshold: true },
      "Flags only patients with more than three counted no-shows.",
    ],
  }),
});
