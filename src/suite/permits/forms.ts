import type Database from "better-sqlite3";
import { REFERENCE_DATE, addDays, allRows, formatUsd, getRow, isWeekend, roundCents } from "../../envs/index.js";
import { ToolFailure } from "../../runtime/index.js";
import { feesPage, inspectionPage, permitPage, portalPage, requirePermit, shortDate } from "./pages.js";
import type { ParsedUrl, PortalPage } from "./pages.js";
import type { SnapshotNode } from "./render-snapshot.js";
import { link, text } from "./render-snapshot.js";
import { INSPECTION_SEQUENCE, STOP_WORK_CODES, inspectionId, permitId } from "./rules.js";
import type { PermitType } from "./rules.js";

interface FormField {
  name: string;
  label: string;
  options?: readonly string[];
  optional?: boolean;
}

/** A form: its fields, and the write it makes (returning the page shown after it, or a problem to show). */
interface FormDefinition {
  title: string;
  fields: (db: Database.Database, id: string) => FormField[];
  submit: (db: Database.Database, id: string, values: Map<string, string>) => PortalPage | string;
  back: (id: string) => SnapshotNode[];
}

function inspectorNames(db: Database.Database): string[] {
  return allRows<{ name: string }>(db, "SELECT name FROM inspectors ORDER BY name").map((row) => row.name);
}

const scheduleInspection: FormDefinition = {
  title: "Schedule inspection",
  fields: (db, id) => [
    { name: "inspection_type", label: "Inspection type", options: INSPECTION_SEQUENCE[requirePermit(db, id).permit_type as PermitType] },
    { name: "date", label: "Date (YYYY-MM-DD)" },
    { name: "inspector", label: "Inspector", options: inspectorNames(db) },
  ],
  submit: (db, id, values) => {
    const permit = requirePermit(db, id);
    if (permit.status !== "issued") return `Inspections can only be booked on issued permits; this permit is ${String(permit.status)}.`;
    const date = values.get("date")!;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(date))) return "Date must be a date written YYYY-MM-DD.";
    if (date <= REFERENCE_DATE || date > addDays(REFERENCE_DATE, 30)) return "Date must be within the next 30 days.";
    if (isWeekend(date)) return "Inspections are not booked on weekends.";
    const last = getRow<{ id: string }>(db, "SELECT max(inspection_id) AS id FROM inspections")!.id;
    const newId = inspectionId.format(Number(last.slice(5)) + 1);
    db.prepare("INSERT INTO inspections VALUES (?, ?, ?, ?, ?, 'scheduled', '')").run(
      newId,
      id,
      values.get("inspection_type"),
      date,
      values.get("inspector"),
    );
    return permitPage(db, permitUrl(id), id, `Inspection ${newId} booked for ${shortDate(date)} with ${values.get("inspector")}.`);
  },
  back: (id) => [link("Permits", "/permits"), link(id, `/permits/${id}`)],
};

const stopWork: FormDefinition = {
  title: "Issue stop-work order",
  fields: () => [
    { name: "reason_code", label: "Reason code", options: STOP_WORK_CODES },
    { name: "notes", label: "Notes", optional: true },
  ],
  submit: (db, id, values) => {
    const permit = requirePermit(db, id);
    if (permit.status !== "issued") return `Only issued permits can be stopped; this permit is ${String(permit.status)}.`;
    db.prepare("UPDATE permits SET status = 'stop_work' WHERE permit_id = ?").run(id);
    db.prepare("INSERT INTO stop_work_orders (permit_id, reason_code, notes, issued_on) VALUES (?, ?, ?, ?)").run(
      id,
      values.get("reason_code"),
      values.get("notes") ?? "",
      REFERENCE_DATE,
    );
    return permitPage(db, permitUrl(id), id, `Stop-work order ${String(values.get("reason_code"))} issued.`);
  },
  back: (id) => [link("Permits", "/permits"), link(id, `/permits/${id}`)],
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
    const fee = getRow<{ fee_id: number; amount: number; paid_on: string | null }>(
      db,
      "SELECT fee_id, amount, paid_on FROM fees WHERE fee_id = ? AND permit_id = ?",
      Number(values.get("fee_id")),
      id,
    );
    if (!fee) return `Fee #${values.get("fee_id")} is not a fee of permit ${id}.`;
    if (fee.paid_on !== null) return `Fee #${fee.fee_id} is already paid; refunds are handled by Finance.`;
    const amount = Number(values.get("amount")!.replace(/[$,\s]/g, ""));
    if (!Number.isFinite(amount) || amount <= 0 || Math.abs(roundCents(amount) - amount) > 1e-9)
      return "Amount must be a positive dollar amount with at most two decimals, e.g. 47.50.";
    const waived = getRow<{ total: number }>(db, "SELECT coalesce(sum(amount), 0) AS total FROM fee_waivers WHERE fee_id = ?", fee.fee_id)!.total;
    if (amount > roundCents(fee.amount - waived) + 1e-9)
      return `Amount exceeds what is left of fee #${fee.fee_id} (${formatUsd(roundCents(fee.amount - waived))}).`;
    db.prepare("INSERT INTO fee_waivers (fee_id, permit_id, amount, reason, recorded_on) VALUES (?, ?, ?, ?, ?)").run(
      fee.fee_id,
      id,
      amount,
      values.get("reason"),
      REFERENCE_DATE,
    );
    return feesPage(db, permitUrl(`${id}/fees`), id, `Waiver of ${formatUsd(amount)} recorded on fee #${fee.fee_id}.`);
  },
  back: (id) => [link("Permits", "/permits"), link(id, `/permits/${id}`), link("Fees", `/permits/${id}/fees`)],
};

const reassignInspection: FormDefinition = {
  title: "Reassign inspector",
  fields: (db) => [{ name: "inspector", label: "New inspector", options: inspectorNames(db) }],
  submit: (db, id, values) => {
    const row = getRow<{ result: string; inspector: string }>(db, "SELECT result, inspector FROM inspections WHERE inspection_id = ?", id);
    if (!row) throw new ToolFailure(`404 Not Found: no inspection ${id}; see /inspections`);
    if (row.result !== "scheduled") return `Only scheduled inspections can be reassigned; this one is ${row.result}.`;
    if (row.inspector === values.get("inspector")) return `${row.inspector} is already the inspector.`;
    db.prepare("UPDATE inspections SET inspector = ? WHERE inspection_id = ?").run(values.get("inspector"), id);
    return inspectionPage(db, { path: `/inspections/${id}`, query: new URLSearchParams(), url: `/inspections/${id}` }, id, `Reassigned to ${values.get("inspector")}.`);
  },
  back: (id) => [link("Inspections", "/inspections"), link(id, `/inspections/${id}`)],
};

function permitUrl(rest: string): ParsedUrl {
  return { path: `/permits/${rest}`, query: new URLSearchParams(), url: `/permits/${rest}` };
}

/** The form at an address and the id it acts on, or null when the address is not a form. */
function findForm(parsed: ParsedUrl): { form: FormDefinition; id: string } | null {
  const parts = parsed.path.split("/").filter(Boolean);
  const [section, id] = parts;
  const tail = parts.slice(2).join("/");
  if (section === "permits" && id !== undefined && permitId.matches(id)) {
    if (tail === "inspections/new") return { form: scheduleInspection, id };
    if (tail === "stop-work") return { form: stopWork, id };
    if (tail === "fees/waiver") return { form: feeWaiver, id };
  }
  if (section === "inspections" && id !== undefined && inspectionId.matches(id) && tail === "reassign")
    return { form: reassignInspection, id };
  return null;
}

function formPage(db: Database.Database, parsed: ParsedUrl, form: FormDefinition, id: string, problem?: string): PortalPage {
  const main: SnapshotNode[] = [];
  if (problem) main.push({ role: "alert", text: `There is a problem with this form: ${problem}` });
  main.push({
    role: "form",
    name: form.title,
    attributes: { action: parsed.path },
    children: [
      ...form.fields(db, id).map(
        (field): SnapshotNode =>
          field.options
            ? {
                role: "combobox",
                name: field.label,
                attributes: { name: field.name },
                children: field.options.map((option) => ({ role: "option", name: option })),
              }
            : { role: "textbox", name: `${field.label}${field.optional ? " (optional)" : ""}`, attributes: { name: field.name } },
      ),
      { role: "button", name: "Submit" },
    ],
  });
  return portalPage(parsed.url, `${form.title} — ${id}`, main, [...form.back(id), text(form.title)]);
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
export function submitPortalForm(db: Database.Database, parsed: ParsedUrl, fields: Record<string, string>): PortalPage {
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
    if (!field) return formPage(db, parsed, form, id, `unknown field '${name}'; this form has ${definitions.map((item) => item.name).join(", ")}.`);
    const trimmed = value.trim();
    if (field.options && !field.options.includes(trimmed))
      return formPage(db, parsed, form, id, `${field.label} must be one of: ${field.options.join(", ")}.`);
    values.set(name, trimmed);
  }
  const missing = definitions.filter((field) => !field.optional && !values.get(field.name));
  if (missing.length > 0) return formPage(db, parsed, form, id, `${missing.map((field) => field.label).join(", ")} is required.`);
  const outcome = form.submit(db, id, values);
  return typeof outcome === "string" ? formPage(db, parsed, form, id, outcome) : outcome;
}
