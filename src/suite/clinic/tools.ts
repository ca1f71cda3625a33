import { z } from "zod";
import {
  cachedStatement,
  defineListTool,
  getRow,
  isoDateSchema,
  requireRow,
  when,
  withTransientFailures,
  type DomainTool,
  type Row,
  type ToolContext,
  optionalInt,
  optionalChoice,
} from "../../envs/index.js";
import { ToolFailure, defineTool } from "../../runtime/index.js";

const dateSchema = isoDateSchema.describe("Date as YYYY-MM-DD");
const SCHEDULING_STATUSES = z.enum(["standard", "prepay_required", "restricted"]);
const CHARGE_CATEGORIES = z.enum(["office_visit", "procedure", "imaging", "lab", "admin_fee"]);

const PROVIDER_COLUMNS = `p.id, p.first_name, p.last_name, p.credential, s.code AS specialty_code,
  s.name AS specialty_name, p.npi, p.email`;

const listProviders = defineListTool({
  name: "list_providers",
  description:
    "List the clinic's providers (physicians, nurse practitioners, physician assistants) with their credential and specialty, ordered by id. Paginated: returns `providers`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    specialty_code: z
      .string()
      .optional()
      .describe("Only providers of this specialty code (FM, PED, DERM, CARD, ORTH)"),
  },
  key: "providers",
  from: "providers p JOIN specialties s ON s.id = p.specialty_id",
  select: PROVIDER_COLUMNS,
  where: ({ specialty_code }) => [
    when(specialty_code ? specialty_code.toUpperCase() : undefined, "s.code = ?"),
  ],
  orderBy: "p.id",
});

const listRooms = defineListTool({
  name: "list_rooms",
  description:
    "List the clinic's rooms (exam, procedure, imaging) with floor and equipment, ordered by id. Paginated: returns `rooms`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    room_type: optionalChoice(["exam", "procedure", "imaging"], "Only rooms of this type"),
  },
  key: "rooms",
  from: "rooms",
  select: "id, code, room_type, floor, equipment",
  where: { room_type: "=" },
  orderBy: "id",
});

const listInsurancePlans = defineListTool({
  name: "list_insurance_plans",
  description:
    "List the insurance plans the clinic accepts (plan code, payer, plan type commercial/medicare/medicaid), ordered by id. Paginated: returns `plans`, `page`, `per_page`, `total`, `has_more`.",
  key: "plans",
  from: "insurance_plans",
  select: "id, plan_code, payer_name, plan_name, plan_type, payer_phone",
  orderBy: "id",
});

const PATIENT_SUMMARY_COLUMNS =
  "id, mrn, first_name, last_name, date_of_birth, insurance_plan_id, scheduling_status";

const listPatients = defineListTool({
  name: "list_patients",
  description:
    "Search patients by name or MRN and filter by insurance plan or scheduling status, ordered by id. Returns summaries (`insurance_plan_id` is null for self-pay patients). Paginated: returns `patients`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    query: z.string().optional().describe("Case-insensitive substring of the first name, last name or MRN"),
    insurance_plan_id: optionalInt("Only patients on this insurance plan id"),
    self_pay: z
      .boolean()
      .optional()
      .describe("true: only patients without insurance; false: only insured patients"),
    scheduling_status: SCHEDULING_STATUSES.optional().describe("Only patients with this scheduling status"),
  },
  key: "patients",
  from: "patients",
  select: PATIENT_SUMMARY_COLUMNS,
  where: ({ query, insurance_plan_id, self_pay, scheduling_status }) => [
    when(
      query ? `%${query.replace(/[%_]/g, "")}%` : undefined,
      "(first_name || ' ' || last_name || ' ' || mrn) LIKE ?",
    ),
    when(insurance_plan_id, "insurance_plan_id = ?"),
    self_pay !== undefined && (self_pay ? "insurance_plan_id IS NULL" : "insurance_plan_id IS NOT NULL"),
    when(scheduling_status, "scheduling_status = ?"),
  ],
  orderBy: "id",
});

function patientRecord(context: ToolContext, patientId: number): Row {
  return requireRow(
    context.db,
    `SELECT pa.id, pa.mrn, pa.first_name, pa.last_name, pa.date_of_birth, pa.sex, pa.phone, pa.email, pa.city,
            pa.insurance_plan_id, pl.plan_code, pl.plan_name, pl.plan_type, pa.member_id,
            pa.scheduling_status, pa.status_reason, pa.registered_on
       FROM patients pa LEFT JOIN insurance_plans pl ON pl.id = pa.insurance_plan_id
      WHERE pa.id = ?`,
    [patientId],
    `patient ${patientId} not found; use list_patients to find patient ids`,
  );
}

const getPatient = defineTool({
  name: "get_patient",
  description:
    "Get one patient's full record, including contact details, insurance plan (code, name, plan type; null for self-pay) and scheduling status. Returns `patient`.",
  kind: "read",
  inputSchema: z.object({ patient_id: z.number().int().describe("The patient's id") }),
  handler: ({ patient_id }, context: ToolContext) => ({ patient: patientRecord(context, patient_id) }),
});

const updatePatientSchedulingStatus = defineTool({
  name: "update_patient_scheduling_status",
  description:
    "Set a patient's scheduling status (standard, prepay_required or restricted) and record the reason. Returns the updated `patient`.",
  kind: "write",
  inputSchema: z.object({
    patient_id: z.number().int().describe("The patient's id"),
    scheduling_status: SCHEDULING_STATUSES.describe("The new scheduling status"),
    reason: z.string().min(1).describe("Why the status changes (kept on the patient record)"),
  }),
  handler: ({ patient_id, scheduling_status, reason }, context: ToolContext) => {
    patientRecord(context, patient_id);
    cachedStatement(
      context.db,
      "UPDATE patients SET scheduling_status = ?, status_reason = ? WHERE id = ?",
    ).run(scheduling_status, reason, patient_id);
    return { patient: patientRecord(context, patient_id) };
  },
});

const APPOINTMENT_COLUMNS = "id, patient_id, provider_id, room_id, visit_type, start_time, status";

const listAppointments = defineListTool({
  name: "list_appointments",
  description:
    "List appointments matching all given filters, ordered by start time then id. `start_time` is local clinic time `YYYY-MM-DDTHH:MM`; `room_id` is null for telehealth. Paginated: returns `appointments`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    provider_id: optionalInt("Only appointments with this provider id"),
    patient_id: optionalInt("Only appointments of this patient id"),
    room_id: optionalInt("Only appointments booked in this room id"),
    status: z
      .enum(["scheduled", "completed", "no_show", "cancelled"])
      .optional()
      .describe("Only appointments with this status"),
    visit_type: z.string().optional().describe("Only appointments of this visit type, e.g. follow_up"),
    date_from: dateSchema.optional().describe("Earliest appointment date, YYYY-MM-DD (inclusive)"),
    date_to: dateSchema.optional().describe("Latest appointment date, YYYY-MM-DD (inclusive)"),
  },
  key: "appointments",
  from: "appointments",
  select: APPOINTMENT_COLUMNS,
  where: (input) => [
    when(input.provider_id, "provider_id = ?"),
    when(input.patient_id, "patient_id = ?"),
    when(input.room_id, "room_id = ?"),
    when(input.status, "status = ?"),
    when(input.visit_type || undefined, "visit_type = ?"),
    when(input.date_from, "substr(start_time, 1, 10) >= ?"),
    when(input.date_to, "substr(start_time, 1, 10) <= ?"),
  ],
  orderBy: "start_time, id",
});

function appointmentRecord(context: ToolContext, appointmentId: number): Row {
  return requireRow(
    context.db,
    `SELECT a.id, a.patient_id, pa.mrn AS patient_mrn, pa.first_name || ' ' || pa.last_name AS patient_name,
            a.provider_id, pr.first_name || ' ' || pr.last_name AS provider_name, a.room_id, r.code AS room_code,
            a.visit_type, a.start_time, a.status, a.reason, a.cancel_reason
       FROM appointments a
       JOIN patients pa ON pa.id = a.patient_id
       JOIN providers pr ON pr.id = a.provider_id
       LEFT JOIN rooms r ON r.id = a.room_id
      WHERE a.id = ?`,
    [appointmentId],
    `appointment ${appointmentId} not found; use list_appointments to find appointment ids`,
  );
}

const getAppointment = defineTool({
  name: "get_appointment",
  description:
    "Get one appointment with patient, provider and room details, reason for visit and cancellation reason. Returns `appointment`.",
  kind: "read",
  inputSchema: z.object({ appointment_id: z.number().int().describe("The appointment's id") }),
  handler: ({ appointment_id }, context: ToolContext) => ({
    appointment: appointmentRecord(context, appointment_id),
  }),
});

/** The appointment, which must still be scheduled for `action` (e.g. `reassigned`). */
function scheduledAppointment(context: ToolContext, appointmentId: number, action: string): Row {
  const appointment = appointmentRecord(context, appointmentId);
  if (appointment.status !== "scheduled")
    throw new ToolFailure(
      `appointment ${appointmentId} has status '${String(appointment.status)}'; only scheduled appointments can be ${action}`,
    );
  return appointment;
}

const reassignAppointment = defineTool({
  name: "reassign_appointment",
  description:
    "Move a scheduled appointment to another provider, keeping its date, time, room and visit type. Only appointments with status `scheduled` can be reassigned. The system does not check clinic days or conflicts. Returns the updated `appointment`.",
  kind: "write",
  inputSchema: z.object({
    appointment_id: z.number().int().describe("The appointment to reassign"),
    provider_id: z.number().int().describe("The id of the provider who will see the patient"),
  }),
  handler: ({ appointment_id, provider_id }, context: ToolContext) => {
    const appointment = scheduledAppointment(context, appointment_id, "reassigned");
    if (appointment.provider_id === provider_id)
      throw new ToolFailure(`appointment ${appointment_id} is already with provider ${provider_id}`);
    requireRow(
      context.db,
      "SELECT id FROM providers WHERE id = ?",
      [provider_id],
      `provider ${provider_id} not found; use list_providers to find provider ids`,
    );
    cachedStatement(context.db, "UPDATE appointments SET provider_id = ? WHERE id = ?").run(
      provider_id,
      appointment_id,
    );
    return { appointment: appointmentRecord(context, appointment_id) };
  },
});

const cancelAppointment = defineTool({
  name: "cancel_appointment",
  description:
    "Cancel a scheduled appointment and record why. Only appointments with status `scheduled` can be cancelled. Returns the updated `appointment`.",
  kind: "write",
  inputSchema: z.object({
    appointment_id: z.number().int().describe("The appointment to cancel"),
    reason: z.string().min(1).describe("Cancellation reason, kept on the appointment"),
  }),
  handler: ({ appointment_id, reason }, context: ToolContext) => {
    scheduledAppointment(context, appointment_id, "cancelled");
    cachedStatement(
      context.db,
      "UPDATE appointments SET status = 'cancelled', cancel_reason = ? WHERE id = ?",
    ).run(reason, appointment_id);
    return { appointment: appointmentRecord(context, appointment_id) };
  },
});

const CHARGE_COLUMNS =
  "id, appointment_id, patient_id, service_date, code, description, category, amount, claim_status";

const listCharges = defineListTool({
  name: "list_charges",
  description:
    "List billing charge lines (one per billed service or fee) matching all given filters, ordered by id. `claim_status` is pending (awaiting the insurer), adjudicated (processed by the insurer) or patient_only (never sent to insurance). Paginated: returns `charges`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    patient_id: optionalInt("Only charges of this patient id"),
    appointment_id: optionalInt("Only charges for this appointment id"),
    code: z.string().optional().describe("Only charges with this billing code, e.g. 99213 or NOSHOW"),
    category: CHARGE_CATEGORIES.optional().describe("Only charges of this category"),
    claim_status: z
      .enum(["pending", "adjudicated", "patient_only"])
      .optional()
      .describe("Only charges with this claim status"),
  },
  key: "charges",
  from: "charges",
  select: CHARGE_COLUMNS,
  where: (input) => [
    when(input.patient_id, "patient_id = ?"),
    when(input.appointment_id, "appointment_id = ?"),
    when(input.code || undefined, "code = ?"),
    when(input.category, "category = ?"),
    when(input.claim_status, "claim_status = ?"),
  ],
  orderBy: "id",
});

const postCharge = defineTool({
  name: "post_charge",
  description:
    "Post a new charge line on an appointment (billed to the appointment's patient, dated on the appointment date). Administrative fees (category admin_fee) are marked patient_only; other charges go to the insurer as pending, or patient_only for self-pay patients. Returns the new `charge`.",
  kind: "write",
  inputSchema: z.object({
    appointment_id: z.number().int().describe("The appointment the charge belongs to"),
    code: z.string().min(1).describe("Billing code, e.g. a CPT code or NOSHOW"),
    category: CHARGE_CATEGORIES.describe("Charge category"),
    amount: z.number().positive().describe("Amount in dollars, e.g. 35.00"),
    description: z.string().min(1).describe("Short description printed on the statement"),
  }),
  handler: ({ appointment_id, code, category, amount, description }, context: ToolContext) => {
    const appointment = appointmentRecord(context, appointment_id);
    if (Math.abs(Math.round(amount * 100) - amount * 100) > 1e-6)
      throw new ToolFailure(`amount ${amount} has more than two decimals`);
    const insured = getRow<{ insurance_plan_id: number | null }>(
      context.db,
      "SELECT insurance_plan_id FROM patients WHERE id = ?",
      appointment.patient_id,
    )!;
    const claimStatus =
      category === "admin_fee" || insured.insurance_plan_id === null ? "patient_only" : "pending";
    const result = cachedStatement(
      context.db,
      `INSERT INTO charges (appointment_id, patient_id, service_date, code, description, category, amount, claim_status)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      appointment_id,
      appointment.patient_id,
      String(appointment.start_time).slice(0, 10),
      code,
      description,
      category,
      Math.round(amount * 100) / 100,
      claimStatus,
    );
    const charge = getRow(
      context.db,
      `SELECT ${CHARGE_COLUMNS} FROM charges WHERE id = ?`,
      result.lastInsertRowid,
    );
    return { charge };
  },
});

const listPayments = defineListTool({
  name: "list_payments",
  description:
    "List patient payments matching all given filters, ordered by id. `status` is posted or reversed (returned check, chargeback). Paginated: returns `payments`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    patient_id: optionalInt("Only payments of this patient id"),
    status: optionalChoice(["posted", "reversed"], "Only payments with this status"),
  },
  key: "payments",
  from: "payments",
  select: "id, patient_id, received_on, amount, method, status, reference",
  where: { patient_id: "=", status: "=" },
  orderBy: "id",
});

const checkEligibilityBase = defineTool({
  name: "check_eligibility",
  description:
    "Ask the patient's insurer (through the clearinghouse) whether their coverage is active on a date of service. Returns `eligibility`: patient_id, plan_code, member_id, service_date, active (true/false), coverage_start and coverage_end (null when open-ended). Self-pay patients have nothing to check.",
  kind: "read",
  inputSchema: z.object({
    patient_id: z.number().int().describe("The patient's id"),
    service_date: dateSchema.describe("The date of service to check, YYYY-MM-DD"),
  }),
  handler: ({ patient_id, service_date }, context: ToolContext) => {
    patientRecord(context, patient_id);
    const terms = getRow<{
      plan_code: string;
      member_id: string;
      coverage_start: string;
      coverage_end: string | null;
    }>(
      context.db,
      "SELECT plan_code, member_id, coverage_start, coverage_end FROM insurance_eligibility WHERE patient_id = ?",
      patient_id,
    );
    if (!terms)
      throw new ToolFailure(
        `patient ${patient_id} has no insurance on file (self-pay); there is no coverage to check`,
      );
    const active =
      terms.coverage_start <= service_date &&
      (terms.coverage_end === null || service_date <= terms.coverage_end);
    return { eligibility: { patient_id, ...terms, service_date, active } };
  },
});

/** The clearinghouse is overloaded: the first check of every patient whose id leaves 1 modulo 4 gets a 503. */
const checkEligibility = withTransientFailures(checkEligibilityBase, {
  when: (input) => input.patient_id % 4 === 1,
  message: "503 Service Unavailable: the eligibility clearinghouse timed out, retry the same call",
});

/** The clinic domain's tools, in the order agents see them. */
export const clinicTools: DomainTool[] = [
  listProviders,
  listRooms,
  listInsurancePlans,
  listPatients,
  getPatient,
  updatePatientSchedulingStatus,
  listAppointments,
  getAppointment,
  reassignAppointment,
  cancelAppointment,
  listCharges,
  postCharge,
  listPayments,
  checkEligibility,
] as DomainTool[];
