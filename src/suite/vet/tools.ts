import { z } from "zod";
import {
  REFERENCE_DATE,
  defineStatusTool,
  defineGetTool,
  defineListTool,
  insertRow,
  isoDateSchema,
  optionalChoice,
  optionalDate,
  requireRow,
  when,
  withSilentFailures,
  withTransientFailures,
  type DomainTool,
  type ToolContext,
} from "../../envs/index.js";
import { ToolFailure, defineTool } from "../../runtime/index.js";
import { SPECIES, clinicId, invoiceId, patientId, rxId, visitId } from "./rules.js";

const clinicFilter = clinicId.schema("Only this clinic").optional();
const patientFilter = patientId.schema("Only this patient").optional();

const listClinics = defineListTool({
  name: "list_clinics",
  description:
    "List the practice's clinics (id, name, city, lab analyser model). Paginated: returns `clinics`, `page`, `per_page`, `total`, `has_more`.",
  filters: {},
  key: "clinics",
  from: "clinics",
  where: () => [],
  orderBy: "clinic_id",
});

const listPatients = defineListTool({
  name: "list_patients",
  description:
    "List patients (id, name, owner, clinic, species, breed, sex, birth date, status active/deceased/transferred), ordered by id. Paginated: returns `patients`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    clinic_id: clinicFilter,
    species: optionalChoice(SPECIES, "Only this species"),
    status: optionalChoice(["active", "deceased", "transferred"], "Only this status"),
  },
  key: "patients",
  from: "patients",
  where: { clinic_id: "=", species: "=", status: "=" },
  orderBy: "patient_id",
});

const getPatient = defineGetTool({
  name: "get_patient",
  description: "Get one patient with its owner's contact details. Returns `patient`, `owner`.",
  input: { patient_id: patientId.schema("The patient") },
  key: "patient",
  from: "patients",
  notFound: patientId,
  related: {
    owner: (db, _id, row) =>
      requireRow(
        db,
        "SELECT * FROM owners WHERE owner_id = ?",
        [(row as { owner_id: string }).owner_id],
        "owner missing",
      ),
  },
});

const listVaccinations = defineListTool({
  name: "list_vaccinations",
  description:
    "List vaccine doses given (patient, vaccine code, date given, clinic, lot), oldest first. Paginated: returns `vaccinations`, `page`, `per_page`, `total`, `has_more`. The immunisation registry sync can fail with 503 Service Unavailable; repeat the call.",
  filters: {
    patient_id: patientFilter,
    clinic_id: clinicFilter,
    vaccine: z.string().optional().describe("Only this vaccine code, e.g. RABIES"),
  },
  key: "vaccinations",
  from: "vaccinations",
  select: "patient_id, vaccine, given_on, clinic_id, lot",
  where: ({ patient_id, clinic_id, vaccine }) => [
    when(patient_id, "patient_id = ?"),
    when(clinic_id, "clinic_id = ?"),
    when(vaccine?.trim().toUpperCase(), "vaccine = ?"),
  ],
  orderBy: "given_on, vaccination_id",
});

const listAppointments = defineListTool({
  name: "list_appointments",
  description:
    "List booked appointments (patient, clinic, start time 'YYYY-MM-DD HH:MM', reason), by start time. Paginated: returns `appointments`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    patient_id: patientFilter,
    clinic_id: clinicFilter,
    on_or_after: optionalDate("Only appointments on or after this date"),
  },
  key: "appointments",
  from: "appointments",
  select: "patient_id, clinic_id, starts_at, reason",
  where: { patient_id: "=", clinic_id: "=", on_or_after: "starts_at >= ?" },
  orderBy: "starts_at, appointment_id",
});

const listVisits = defineListTool({
  name: "list_visits",
  description:
    "List visits (id, patient, clinic, vet, date, reason; no note: read it with get_visit_note), ordered by date. Paginated: returns `visits`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    patient_id: patientFilter,
    clinic_id: clinicFilter,
    on_or_after: optionalDate("Only visits on or after this date"),
  },
  key: "visits",
  from: "visits",
  select: "visit_id, patient_id, clinic_id, vet_id, visit_date, reason",
  where: { patient_id: "=", clinic_id: "=", on_or_after: "visit_date >= ?" },
  orderBy: "visit_date, visit_id",
});

const getVisitNote = defineGetTool({
  name: "get_visit_note",
  description:
    'Get a visit\'s SOAP note as the clinician typed it (free text). Returns `visit_id`, `patient_id`, `visit_date`, `note`. When the records server is slow the result is `{"status": "error", ...}` without a note: ask again.',
  input: { visit_id: visitId.schema("The visit") },
  select: "visit_id, patient_id, visit_date, soap_note AS note",
  from: "visits",
  notFound: visitId,
});

const listPrescriptions = defineListTool({
  name: "list_prescriptions",
  description:
    "List prescriptions (id, visit, patient, drug, dose in mg per administration, frequency, date, status active/completed/on_hold), ordered by id. Paginated: returns `prescriptions`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    patient_id: patientFilter,
    status: optionalChoice(["active", "completed", "on_hold"], "Only this status"),
    drug: z.string().optional().describe("Only this drug"),
  },
  key: "prescriptions",
  from: "prescriptions",
  where: ({ patient_id, status, drug }) => [
    when(patient_id, "patient_id = ?"),
    when(status, "status = ?"),
    when(drug?.trim().toLowerCase(), "drug = ?"),
  ],
  orderBy: "rx_id",
});

const holdPrescription = defineStatusTool({
  name: "hold_prescription",
  description:
    "Put an active prescription on hold for the prescribing vet's review. Returns the updated `prescription`.",
  id: rxId,
  idDescription: "The prescription",
  input: { reason: z.string().min(3).describe("Why it is held") },
  table: "prescriptions",
  from: ["active"],
  refusal: (id, status) => `prescription ${id} is ${status}; only active prescriptions can be held`,
  set: ({ reason }) => ({ status: "on_hold", hold_reason: reason.trim() }),
  key: "prescription",
});

const listLabOrders = defineListTool({
  name: "list_lab_orders",
  description:
    "List lab orders (id, patient, clinic, panel CHEM/CBC, date, status pending/resulted). Results are on the analysers' printouts under lab/printouts/. Paginated: returns `lab_orders`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    patient_id: patientFilter,
    clinic_id: clinicFilter,
    status: optionalChoice(["pending", "resulted"], "Only this status"),
  },
  key: "lab_orders",
  from: "lab_orders",
  where: { patient_id: "=", clinic_id: "=", status: "=" },
  orderBy: "lab_id",
});

const listInvoices = defineListTool({
  name: "list_invoices",
  description:
    "List invoices (id, visit, owner, clinic, date issued, total USD, status issued/void), ordered by id. Paginated: returns `invoices`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    clinic_id: clinicFilter,
    issued_before: optionalDate("Only invoices issued before this date"),
  },
  key: "invoices",
  from: "invoices",
  where: { clinic_id: "=", issued_before: "issued_on < ?" },
  orderBy: "invoice_id",
});

const listPayments = defineListTool({
  name: "list_payments",
  description:
    "List payments received (invoice, date, amount USD, method), ordered by date. Paginated: returns `payments`, `page`, `per_page`, `total`, `has_more`. The card processor's API can fail with 503 Service Unavailable; repeat the call.",
  filters: { invoice_id: invoiceId.schema("Only payments of this invoice").optional() },
  key: "payments",
  from: "payments",
  select: "invoice_id, paid_on, amount, method",
  where: { invoice_id: "=" },
  orderBy: "paid_on, payment_id",
});

const listReminders = defineListTool({
  name: "list_reminders",
  description:
    "List client reminders (id, patient, kind vaccine/lab_recheck/weight_check, subject, due date, status open/sent/done, created). Paginated: returns `reminders`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    patient_id: patientFilter,
    kind: optionalChoice(["vaccine", "lab_recheck", "weight_check"], "Only this kind"),
  },
  key: "reminders",
  from: "reminders",
  where: { patient_id: "=", kind: "=" },
  orderBy: "reminder_id",
});

const createReminder = defineTool({
  name: "create_reminder",
  description:
    "Create an open client reminder for a patient, created today. `subject` is the vaccine code or analyte code. Returns `reminder`.",
  kind: "write",
  inputSchema: z.object({
    patient_id: patientId.schema("The patient"),
    kind: z.enum(["vaccine", "lab_recheck", "weight_check"]).describe("The kind of reminder"),
    subject: z.string().min(2).describe("Vaccine code (e.g. RABIES) or analyte code (e.g. CREA)"),
    due_on: isoDateSchema.describe("When the reminder is due, YYYY-MM-DD"),
  }),
  handler: ({ patient_id, kind, subject, due_on }, { db }: ToolContext) => {
    const patient = requireRow<{ status: string }>(
      db,
      "SELECT status FROM patients WHERE patient_id = ?",
      [patient_id],
      patientId.notFound(patient_id).message,
    );
    if (patient.status !== "active")
      throw new ToolFailure(
        `patient ${patient_id} is ${patient.status}; reminders go only to active patients`,
      );
    const values = {
      patient_id,
      kind,
      subject: subject.trim().toUpperCase(),
      due_on,
      status: "open",
      created_on: REFERENCE_DATE,
    };
    return { reminder: insertRow(db, "reminders", values) };
  },
});

/** The registry sync fails once on every third page of a listing. */
const flakyVaccinations = withTransientFailures(listVaccinations, { when: (input) => input.page % 3 === 2 });
/** The records server times out on some notes, saying so only in the body. */
const flakyNotes = withSilentFailures(getVisitNote, {
  when: (input) => Number(input.visit_id.slice(4)) % 6 === 1,
});
/** The card processor fails once on the second page and on some invoices' payments. */
const flakyPayments = withTransientFailures(listPayments, {
  when: (input) =>
    input.page === 2 || (input.invoice_id !== undefined && Number(input.invoice_id.slice(4)) % 5 === 0),
});

export const vetTools: DomainTool[] = [
  listClinics,
  listPatients,
  getPatient,
  flakyVaccinations,
  listAppointments,
  listVisits,
  flakyNotes,
  listPrescriptions,
  holdPrescription,
  listLabOrders,
  listInvoices,
  flakyPayments,
  listReminders,
  createReminder,
] as DomainTool[];
