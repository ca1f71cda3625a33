/**
 * Timesheet sign-offs that managers send to payroll by e-mail: the approval procedure, the e-mails a task
 * plants (approve all, approve all but one entry, put on hold, or a sign-off from someone who is not the
 * manager), and the entry statuses they call for.
 */
import type Database from "better-sqlite3";
import {
  addDays,
  allRows,
  getRow,
  dateTime,
  longDate,
  MONTH_NAMES,
  renderEmail,
  weekdayName,
  type GenerateContext,
} from "../../envs/index.js";
import { COMPANY_NAME, EMAIL_DOMAIN } from "./catalog.js";

export const TIMESHEET_PROCEDURE_PATH = "policies/timesheet-approval-procedure.md";
export const TIMESHEET_INBOX_DIR = "inbox/timesheet-signoffs";

interface Person {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  department_id: number;
  manager_id: string | null;
}

type Scenario = "approve-all" | "reject-one" | "not-manager" | "hold-later";

export function openPeriod(db: Database.Database): { start: string; end: string } {
  const run = getRow<{ start: string; end: string }>(
    db,
    "SELECT period_start AS start, period_end AS end FROM payroll_runs WHERE status = 'draft' ORDER BY period_end DESC",
  );
  if (!run) throw new Error("no draft payroll run");
  return run;
}

interface SubmittedEntry {
  id: number;
  work_date: string;
  hours: number;
  project_code: string;
}

/** An employee's entries of the period still awaiting approval. */
function submittedEntries(
  db: Database.Database,
  employeeId: string,
  period: { start: string; end: string },
  orderBy: string,
): SubmittedEntry[] {
  return allRows<SubmittedEntry>(
    db,
    `SELECT id, work_date, hours, project_code FROM timesheet_entries
      WHERE employee_id = ? AND work_date BETWEEN ? AND ? AND status = 'submitted' ORDER BY ${orderBy}`,
    employeeId,
    period.start,
    period.end,
  );
}

function fullName(person: Person): string {
  return `${person.first_name} ${person.last_name}`;
}

function renderProcedure(period: { start: string; end: string }): string {
  return `# Timesheet approval procedure (HR-PRO-11)

${COMPANY_NAME} · Payroll team

Hourly staff submit their hours in the HR system. Entries must be approved before the payroll run is
finalized; only approved hours are paid.

## Sign-off by e-mail

Managers who cannot use the HR system's approval screen may send their sign-off to
payroll@${EMAIL_DOMAIN}. Payroll then approves or rejects the entries on their behalf, exactly as the
e-mail says. The sign-offs for the current run are filed in \`${TIMESHEET_INBOX_DIR}/\`.

1. **Only the employee's direct manager**, as recorded in the HR system, can sign off their hours.
   Sign-offs from anyone else (colleagues covering, other managers, the employee) are not valid, even
   when they say they act for the manager: take no action on them.
2. A sign-off covers the employee's **submitted** entries of the current pay period
   (${period.start} to ${period.end}). Entries outside it, or already approved or rejected, are not
   touched.
3. When a manager asks for an entry to be rejected, reject exactly that entry and approve the others.
4. When several e-mails concern the same employee, the **most recent one** (by its Date line) replaces
   the earlier ones. If the latest asks payroll to hold the timesheet, leave every entry submitted.
`;
}

function email(options: { from: Person; sentAt: string; subject: string; body: string }): string {
  return renderEmail(
    {
      From: `${fullName(options.from)} <${options.from.email}>`,
      To: `Payroll <payroll@${EMAIL_DOMAIN}>`,
      Date: options.sentAt.replace("T", " "),
      Subject: options.subject,
    },
    options.body,
  );
}

/**
 * Moves the open-period hours of a few hourly employees back to `submitted` and files their managers'
 * e-mail sign-offs (and a few invalid or superseded ones) in the inbox, with the procedure.
 */
export function plantTimesheetSignoffs(context: GenerateContext): void {
  const { db, random } = context;
  const period = openPeriod(db);
  context.writeFile(TIMESHEET_PROCEDURE_PATH, renderProcedure(period));
  const people = allRows<Person>(
    db,
    "SELECT id, first_name, last_name, email, department_id, manager_id FROM employees ORDER BY id",
  );
  const byId = new Map(people.map((person) => [person.id, person]));
  const nameCount = new Map<string, number>();
  for (const person of people) nameCount.set(fullName(person), (nameCount.get(fullName(person)) ?? 0) + 1);
  const candidates = allRows<{ id: string }>(
    db,
    `SELECT e.id FROM employees e JOIN positions p ON p.id = e.position_id
      WHERE e.status = 'active' AND p.pay_type = 'hourly' AND e.manager_id IS NOT NULL
        AND (SELECT COUNT(*) FROM timesheet_entries t WHERE t.employee_id = e.id
               AND t.work_date BETWEEN ? AND ? AND t.status = 'approved') >= 5
      ORDER BY e.id`,
    period.start,
    period.end,
  );
  const count = Math.min(candidates.length, 2 + 2 * context.factors.files);
  if (count < 4) throw new Error("too few hourly employees with hours to sign off");
  const chosen = random
    .shuffle(candidates)
    .slice(0, count)
    .map((row) => byId.get(row.id) as Person);
  const scenarios: Scenario[] = random.shuffle(
    chosen.map((_, index) =>
      index < 4
        ? (["approve-all", "reject-one", "not-manager", "hold-later"] as const)[index]!
        : random.pick([
            "approve-all",
            "approve-all",
            "reject-one",
            "reject-one",
            "not-manager",
            "hold-later",
          ] as const),
    ),
  );
  const resubmit = db.prepare(
    "UPDATE timesheet_entries SET status = 'submitted' WHERE employee_id = ? AND work_date BETWEEN ? AND ? AND status = 'approved'",
  );
  const sentOn = addDays(period.end, 1);
  chosen.forEach((employee, index) => {
    resubmit.run(employee.id, period.start, period.end);
    const manager = byId.get(employee.manager_id as string) as Person;
    const mention =
      (nameCount.get(fullName(employee)) ?? 0) > 1 || random.chance(0.4)
        ? `${fullName(employee)} (${employee.id})`
        : fullName(employee);
    const scenario = scenarios[index] as Scenario;
    const minute = 7 * 60 + index * 11 + random.int(0, 9);
    const sentAt = dateTime(sentOn, minute * 60);
    const write = (name: string, from: Person, at: string, subject: string, body: string) =>
      context.writeFile(
        `${TIMESHEET_INBOX_DIR}/${at.slice(0, 10)}-${String(index + 1).padStart(2, "0")}-${name}.txt`,
        email({ from, sentAt: at, subject, body }),
      );
    const approveAll = random.pick([
      `Hi Payroll,\n\nI've gone through ${mention}'s hours for the pay period ending ${longDate(period.end)} and everything looks right. Please approve them.\n\nThanks,\n${fullName(manager)}`,
      `Hello,\n\nAll good with ${mention} for this period, go ahead and approve every entry.\n\n${fullName(manager)}`,
    ]);
    if (scenario === "approve-all")
      write("signoff", manager, sentAt, `Timesheet sign-off: ${fullName(employee)}`, approveAll);
    else if (scenario === "reject-one") {
      const entries = submittedEntries(db, employee.id, period, "work_date, id");
      const unique = entries.filter(
        (entry) => entries.filter((other) => other.work_date === entry.work_date).length === 1,
      );
      const entry = random.pick(unique.length > 0 ? unique : entries);
      const day = `${weekdayName(entry.work_date)} ${longDate(entry.work_date)}`;
      write(
        "signoff",
        manager,
        sentAt,
        `Re: hours for ${fullName(employee)}`,
        random.pick([
          `Hi,\n\n${mention}'s timesheet is fine except for ${day}: the ${entry.hours} hours on ${entry.project_code} were logged by mistake. Please reject that entry and approve the rest.\n\nBest,\n${fullName(manager)}`,
          `Hello Payroll,\n\nPlease approve ${mention}'s hours for this run, apart from the entry on ${day} (${entry.hours} h, ${entry.project_code}), which should be rejected: that shift was swapped and never worked.\n\n${fullName(manager)}`,
        ]),
      );
    } else if (scenario === "not-manager") {
      const colleagues = people.filter(
        (person) =>
          person.department_id === employee.department_id &&
          person.id !== employee.id &&
          person.id !== manager.id,
      );
      const sender = random.pick(
        colleagues.length > 0
          ? colleagues
          : people.filter((person) => person.id !== manager.id && person.id !== employee.id),
      );
      write(
        "signoff",
        sender,
        sentAt,
        `Timesheet sign-off: ${fullName(employee)}`,
        `Hi Payroll,\n\n${manager.first_name} is out this week, so I'm signing off ${mention}'s hours instead: they all look fine, please approve them.\n\nCheers,\n${fullName(sender)}`,
      );
    } else {
      write("signoff", manager, sentAt, `Timesheet sign-off: ${fullName(employee)}`, approveAll);
      const later = dateTime(sentOn, (minute + 95 + random.int(0, 60)) * 60);
      write(
        "hold",
        manager,
        later,
        `Hold: ${fullName(employee)} timesheet`,
        `Hi again,\n\nPlease disregard my earlier note about ${mention}: I need to check a couple of days with them first, so don't approve or reject anything on their timesheet for now. I'll send a new sign-off.\n\n${fullName(manager)}`,
      );
    }
  });
}

export interface SignoffOptions {
  trustAnySender?: boolean;
  firstEmailWins?: boolean;
  ignoreRejections?: boolean;
}

interface ParsedSignoff {
  from: string;
  sentAt: string;
  employeeId: string;
  kind: "approve-all" | "reject-one" | "hold";
  rejectDate?: string;
  rejectProject?: string;
}

function parseSignoff(text: string, employeeByName: Map<string, string>): ParsedSignoff {
  const from = /^From: .*<([^>]+)>/m.exec(text)?.[1] ?? "";
  const sentAt = /^Date: (.+)$/m.exec(text)?.[1]?.trim() ?? "";
  const body = text.slice(text.indexOf("\n\n") + 2);
  const message = body.trim().split("\n").slice(0, -1).join("\n");
  let employeeId = /\((E\d+)\)/.exec(message)?.[1];
  if (!employeeId) {
    const named = [...employeeByName].filter(([name]) => new RegExp(`\\b${name}\\b`).test(message));
    if (named.length === 1) employeeId = named[0]?.[1];
  }
  if (!employeeId) throw new Error(`sign-off names no single known employee: ${body.slice(0, 120)}`);
  if (/disregard/i.test(body)) return { from, sentAt, employeeId, kind: "hold" };
  const reject =
    /(January|February|March|April|May|June|July|August|September|October|November|December) (\d{1,2}), (\d{4})[^\n]*?([A-Z]{2,3}-[A-Z0-9]+)/.exec(
      body,
    );
  if (reject && /reject/i.test(body)) {
    const month = String(MONTH_NAMES.indexOf(reject[1] as string) + 1).padStart(2, "0");
    return {
      from,
      sentAt,
      employeeId,
      kind: "reject-one",
      rejectDate: `${reject[3]}-${month}-${String(reject[2]).padStart(2, "0")}`,
      rejectProject: reject[4],
    };
  }
  return { from, sentAt, employeeId, kind: "approve-all" };
}

/** The status every timesheet entry must end with, for the entries the valid sign-offs decide. */
export function computeSignoffDecisions(
  db: Database.Database,
  files: Array<{ path: string; text: string }>,
  options: SignoffOptions = {},
): Map<number, "approved" | "rejected"> {
  const people = allRows<Person>(db, "SELECT id, first_name, last_name, email, manager_id FROM employees");
  const byId = new Map(people.map((person) => [person.id, person]));
  const employeeByName = new Map(people.map((person) => [fullName(person), person.id]));
  const period = openPeriod(db);
  const signoffs = files
    .map((file) => parseSignoff(file.text, employeeByName))
    .sort((left, right) => left.sentAt.localeCompare(right.sentAt));
  const decisive = new Map<string, ParsedSignoff>();
  for (const signoff of signoffs) {
    const employee = byId.get(signoff.employeeId);
    const manager = employee?.manager_id ? byId.get(employee.manager_id) : undefined;
    const valid = options.trustAnySender || manager?.email.toLowerCase() === signoff.from.toLowerCase();
    if (!valid) continue;
    if (options.firstEmailWins && decisive.has(signoff.employeeId)) continue;
    decisive.set(signoff.employeeId, signoff);
  }
  const decisions = new Map<number, "approved" | "rejected">();
  for (const signoff of decisive.values()) {
    if (signoff.kind === "hold") continue;
    for (const entry of submittedEntries(db, signoff.employeeId, period, "id")) {
      const rejected =
        !options.ignoreRejections &&
        signoff.kind === "reject-one" &&
        entry.work_date === signoff.rejectDate &&
        entry.project_code === signoff.rejectProject;
      decisions.set(entry.id, rejected ? "rejected" : "approved");
    }
  }
  return decisions;
}
