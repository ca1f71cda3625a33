import type Database from "better-sqlite3";
import {
  REFERENCE_DATE,
  addDays,
  allRows,
  formatUsd,
  getRow,
  isWeekend,
  roundCents,
  snapshotLink as link,
  snapshotNode as node,
  snapshotText as text,
} from "../../envs/index.js";
import type { SnapshotNode } from "../../envs/index.js";
import { ToolFailure } from "../../runtime/index.js";
import {
  feesPage,
  inspectionPage,
  permitPage,
  portalPage,
  requireInspection,
  requirePermit,
  shortDate,
} from "./pages.js";
import type { ParsedUrl } from "../../envs/index.js";
import type { PortalPage } from "./pages.js";
import { INSPECTION_SEQUENCE, STOP_WORK_CODES, inspectionId, permitId } from "./rules.js";
import type { PermitType } from "./rules.js";

interface FormField {
  name: string;
  label: string;
  options?: readonly string[];
  optional?: boolean;
}

/** A form: its fields, and the write it makes (returning the page shown after it, or the problem to show). */
interface FormDefinition {
  title: string;
  fields: (db: Database.Database, id: string) => FormField[];
  submit: (db: Database.Database, id: string, values: Map<string, string>) => PortalPage | string;
}

const inspectorField = (db: Database.Database, label: string): FormField => ({
  name: "inspector",
  label,
  options: allRows<{ name: string }>(db, "SELECT name FROM inspectors ORDER BY name").map((row) => row.name),
});

const scheduleInspection: FormDefinition = {
  title: "Schedule inspection",
  fields: (db, id) => [
    {
      name: "inspection_type",
      label: "Inspection type",
      options: INSPECTION_SEQUENCE[requirePermit(db, id).permit_type as PermitType],
    },
    { name: "date", label: "Date (YYYY-MM-DD)" },
    inspectorField(db, "Inspector"),
  ],
  submit: (db, id, values) => {
    const status = String(requirePermit(db, id).status);
    const date = values.get("date")!;
    if (status !== "issued") return `Inspections are booked on issued permits only; this one is ${status}.`;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || addDays(date, 0) !== date) return "Date must be YYYY-MM-DD.";
    if (date <= REFERENCE_DATE || date > addDays(REFERENCE_DATE, 30))
      return "Date must be within the next 30 days.";
    if (isWeekend(date)) return "Inspections are not booked on weekends.";
    const last = getRow<{ id: string }>(db, "SELECT max(inspection_id) AS id FROM inspections")!.id;
    const newId = inspectionId.format(Number(last.slice(5)) + 1);
    const [type, inspector] = [values.get("inspection_type"), values.get("inspector")!];
    const insert = "INSERT INTO inspections VALUES (?, ?, ?, ?, ?, 'scheduled', '')";
    db.prepare(insert).run(newId, id, type, date, inspector);
    const booked = `Inspection ${newId} booked for ${shortDate(date)} with ${inspector}.`;
    return permitPage(db, `/permits/${id}`, id, booked);
  },
};

const stopWork: FormDefinition = {
  title: "Issue stop-work order",
  fields: () => [
    { name: "reason_code", label: "Reason code", options: STOP_WORK_CODES },
    { name: "notes", label: "Notes", optional: true },
  ],
  submit: (db, id, values) => {
    const status = String(requirePermit(db, id).status);
    if (status !== "issued") return `Only issued permits can be stopped; this one is ${status}.`;
    const code = values.get("reason_code")!;
    db.prepare("UPDATE permits SET status = 'stop_work' WHERE permit_id = ?").run(id);
    const insert =
      "INSERT INTO stop_work_orders (permit_id, reason_code, notes, issued_on) VALUES (?, ?, ?, ?)";
    db.prepare(insert).run(id, code, values.get("notes") ?? "", REFERENCE_DATE);
    return permitPage(db, `/permits/${id}`, id, `Stop-work order ${code} issued.`);
  },
};

const feeWaiver: FormDefinition = {
  title: "Record fee waiver",
  fields: () => [
    { name: "fee_id", label: "Fee #" },
    { name: "amount", label: "Amount waived (dollars)" },
    { name: "reason", label: "Reason" },
  ],
  submit: (db, id, values) => {
    requirePermit(db, id);
    const sql = `SELECT f.fee_id, f.amount, f.paid_on, (SELECT coalesce(sum(w.amount), 0) FROM fee_waivers w
      WHERE w.fee_id = f.fee_id) AS waived FROM fees f WHERE f.fee_id = ? AND f.permit_id = ?`;
    type Fee = { fee_id: number; amount: number; paid_on: string | null; waived: number };
    const fee = getRow<Fee>(db, sql, Number(values.get("fee_id")), id);
    if (!fee) return `Fee #${values.get("fee_id")} is not a fee of permit ${id}.`;
    if (fee.paid_on !== null) return `Fee #${fee.fee_id} is already paid; refunds are handled by Finance.`;
    const amount = Number(values.get("amount")!.replace(/[$,\s]/g, ""));
    if (!(amount > 0) || Math.abs(roundCents(amount) - amount) > 1e-9)
      return "Amount must be a positive dollar amount with at most two decimals, e.g. 47.50.";
    const left = roundCents(fee.amount - fee.waived);
    if (amount > left + 1e-9)
      return `Amount exceeds what is left of fee #${fee.fee_id} (${formatUsd(left)}).`;
    const insert =
      "INSERT INTO fee_waivers (fee_id, permit_id, amount, reason, recorded_on) VALUES (?, ?, ?, ?, ?)";
    db.prepare(insert).run(fee.fee_id, id, amount, values.get("reason"), REFERENCE_DATE);
    const recorded = `Waiver of ${formatUsd(amount)} recorded on fee #${fee.fee_id}.`;
    return feesPage(db, `/permits/${id}/fees`, id, recorded);
  },
};

const reassignInspection: FormDefinition = {
  title: "Reassign inspector",
  fields: (db, id) => {
    requireInspection(db, id);
    return [inspectorField(db, "New inspector")];
  },
  submit: (db, id, values) => {
    const row = requireInspection(db, id);
    const inspector = values.get("inspector")!;
    if (row.result !== "scheduled")
      return `Only scheduled inspections can be reassigned; this one is ${row.result}.`;
    if (row.inspector === inspector) return `${inspector} is already the inspector.`;
    db.prepare("UPDATE inspections SET inspector = ? WHERE inspection_id = ?").run(inspector, id);
    return inspectionPage(db, `/inspections/${id}`, id, `Reassigned to ${inspector}.`);
  },
};

/** The form at an address and the id it acts on, or null when the address is not a form. */
function findForm(parsed: ParsedUrl): { form: FormDefinition; id: string } | null {
  const [section, id = "", ...rest] = parsed.path.split("/").filter(Boolean);
  const tail = rest.join("/");
  const permitForms: Record<string, FormDefinition> = {
    "inspections/new": scheduleInspection,
    "stop-work": stopWork,
    "fees/waiver": feeWaiver,
  };
  if (section === "permits" && permitId.matches(id) && permitForms[tail])
    return { form: permitForms[tail], id };
  if (section === "inspections" && inspectionId.matches(id) && tail === "reassign")
    return { form: reassignInspection, id };
  return null;
}

/** A form's page: its fields as controls, with the problem of the last post as an alert. */
function formPage(
  db: Database.Database,
  parsed: ParsedUrl,
  form: FormDefinition,
  id: string,
  problem?: string,
) {
  const control = ({ name, label, options, optional }: FormField): SnapshotNode =>
    options
      ? node(
          "combobox",
          label,
          options.map((option) => node("option", option)),
          { name },
        )
      : node("textbox", `${label}${optional ? " (optional)" : ""}`, undefined, { name });
  const controls = [...form.fields(db, id).map(control), node("button", "Submit")];
  const main = [
    ...(problem ? [{ role: "alert", text: `There is a problem with this form: ${problem}` }] : []),
    node("form", form.title, controls, { action: parsed.path }),
  ];
  const section = parsed.path.startsWith("/permits") ? "permits" : "inspections";
  const crumbs = [link(id, `/${section}/${id}`), text(form.title)];
  return portalPage(parsed.url, `${form.title} — ${id}`, main, crumbs);
}

/** The form page at an address (GET), or null when it is not a form. */
export function renderFormPage(db: Database.Database, parsed: ParsedUrl): PortalPage | null {
  const found = findForm(parsed);
  return found ? formPage(db, parsed, found.form, found.id) : null;
}

/**
 * Submits a form. Problems with the values come back as the form page with an alert (an ordinary page, as
 * a web site answers); only an address that is not a form is a tool error.
 */
export function submitPortalForm(db: Database.Database, parsed: ParsedUrl, fields: Record<string, string>) {
  const found = findForm(parsed);
  if (!found)
    throw new ToolFailure(
      `405 Method Not Allowed: ${parsed.path} is not a form; forms are /permits/<id>/inspections/new, /permits/<id>/stop-work, /permits/<id>/fees/waiver and /inspections/<id>/reassign`,
    );
  const { form, id } = found;
  const definitions = form.fields(db, id);
  const values = new Map<string, string>();
  for (const [name, value] of Object.entries(fields)) {
    const field = definitions.find((candidate) => candidate.name === name);
    const names = definitions.map((item) => item.name).join(", ");
    if (!field) return formPage(db, parsed, form, id, `unknown field '${name}'; this form has ${names}.`);
    if (field.options && !field.options.includes(value.trim()))
      return formPage(db, parsed, form, id, `${field.label} must be one of: ${field.options.join(", ")}.`);
    values.set(name, value.trim());
  }
  const missing = definitions
    .filter((field) => !field.optional && !values.get(field.name))
    .map((f) => f.label);
  if (missing.length > 0) return formPage(db, parsed, form, id, `${missing.join(", ")} is required.`);
  const outcome = form.submit(db, id, values);
  return typeof outcome === "string" ? formPage(db, parsed, form, id, outcome) : outcome;
}
