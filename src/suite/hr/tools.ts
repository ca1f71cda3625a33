/** The HR system's API: single-purpose read tools over every table and three write tools. */
import { z } from "zod";
import {
  cachedStatement,
  defineGetTool,
  defineListTool,
  getRow,
  listPage,
  pagingFields,
  requireRow,
  when,
  withSilentFailures,
  withTransientFailures,
  type DomainTool,
  type Row,
  type SqlCondition,
  type ToolContext,
  optionalInt,
  optionalChoice,
} from "../../envs/index.js";
import { ToolFailure, defineTool } from "../../runtime/index.js";
import { authorizationLookupTimesOut } from "./work-authorization.js";

const isoDateField = (description: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "expected an ISO date YYYY-MM-DD")
    .describe(description);

/** One employee id argument, the same on every tool that takes one. */
const employeeIdField = () => z.string().min(1).describe("Employee id, e.g. 'E1042'");
const requestIdField = () => z.number().int().describe("Leave request id, e.g. 40217");
const employeeNotFound = (employeeId: unknown) =>
  `employee '${String(employeeId)}' not found; use list_employees to find ids`;
const requestNotFound = (requestId: unknown) =>
  `leave request ${String(requestId)} not found; use list_leave_requests to find ids`;

/** A work-date range (both ends included), checked to be in order before the listing runs. */
const workDateRange = {
  start_date: isoDateField("First work date to include (YYYY-MM-DD)"),
  end_date: isoDateField("Last work date to include (YYYY-MM-DD)"),
};
function workDatesBetween(start: string, end: string): SqlCondition[] {
  if (start > end) throw new ToolFailure(`start_date ${start} is after end_date ${end}`);
  return [
    { sql: "work_date >= ?", params: [start] },
    { sql: "work_date <= ?", params: [end] },
  ];
}

const EMPLOYEE_COLUMNS =
  "id, first_name, last_name, email, department_id, position_id, manager_id, employment_type, fte, status, hire_date, termination_date, annual_salary, hourly_rate, compensation_effective_date, work_location";
const LEAVE_REQUEST_COLUMNS =
  "id, employee_id, leave_type, start_date, end_date, days, status, submitted_at, decision_note";

const listDepartments = defineListTool({
  name: "list_departments",
  description:
    "List departments (id, name, cost center, location, head of department). Paginated: returns `departments`, `page`, `per_page`, `total`, `has_more`.",
  key: "departments",
  from: "departments",
  select: "id, name, cost_center, location, head_employee_id",
  orderBy: "id",
});

const listPositions = defineListTool({
  name: "list_positions",
  description:
    "List job positions with their department, pay grade, FLSA status (`exempt` or `non_exempt`) and pay type (`salaried` or `hourly`). Paginated: returns `positions`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    department_id: optionalInt("Only positions of this department id (e.g. 30)"),
  },
  key: "positions",
  from: "positions",
  select: "id, title, department_id, grade, flsa_status, pay_type",
  where: { department_id: "=" },
  orderBy: "id",
});

const listEmployees = defineListTool({
  name: "list_employees",
  description:
    "List employees as summaries (id, name, department, position, employment type, status); use get_employee for dates, FTE and pay. Ordered by id. Paginated: returns `employees`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    department_id: optionalInt("Only employees of this department id (e.g. 30)"),
    status: z
      .enum(["active", "on_leave", "terminated"])
      .optional()
      .describe("Only employees with this status"),
    employment_type: z
      .enum(["full_time", "part_time", "contractor"])
      .optional()
      .describe("Only employees with this employment type"),
  },
  key: "employees",
  from: "employees",
  select: "id, first_name, last_name, department_id, position_id, employment_type, status",
  where: { department_id: "=", status: "=", employment_type: "=" },
  orderBy: "id",
});

const getEmployee = defineGetTool({
  name: "get_employee",
  description:
    "Get one employee's full record: contact, department, position, manager, employment type, FTE, status, hire and termination dates, pay (`annual_salary` for salaried staff, `hourly_rate` for hourly staff; the other is null) and the date the current pay took effect.",
  input: { employee_id: employeeIdField() },
  from: "employees",
  select: EMPLOYEE_COLUMNS,
  idColumn: "id",
  notFound: employeeNotFound,
});

const listTimesheetEntries = defineTool({
  name: "list_timesheet_entries",
  description:
    "List timesheet entries (hours worked per employee, day and project) whose work date is within a date range, ordered by work date, employee and entry id. Each has a `status`: `submitted` (awaiting approval), `approved` or `rejected`. Paginated: returns `entries`, `page`, `per_page`, `total`, `has_more`.",
  kind: "read",
  inputSchema: z.object({
    ...workDateRange,
    employee_id: z.string().optional().describe("Only entries of this employee"),
    status: z
      .enum(["submitted", "approved", "rejected"])
      .optional()
      .describe("Only entries with this status"),
    ...pagingFields,
  }),
  handler: ({ start_date, end_date, employee_id, status, page, per_page }, { db }: ToolContext) => {
    return listPage(db, {
      key: "entries",
      from: "timesheet_entries",
      select: "id, employee_id, work_date, hours, project_code, status",
      where: [
        ...workDatesBetween(start_date, end_date),
        when(employee_id, "employee_id = ?"),
        when(status, "status = ?"),
      ],
      orderBy: "work_date, employee_id, id",
      page,
      perPage: per_page,
    });
  },
});

const listLeaveRequests = defineListTool({
  name: "list_leave_requests",
  description:
    "List leave requests ordered by submission time (`submitted_at`, oldest first). `days` counts business days. Paginated: returns `leave_requests`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    status: z
      .enum(["pending", "approved", "denied", "cancelled"])
      .optional()
      .describe("Only requests with this status"),
    employee_id: z.string().optional().describe("Only requests of this employee"),
    leave_type: z
      .enum(["annual", "sick", "unpaid", "parental"])
      .optional()
      .describe("Only requests of this type"),
  },
  key: "leave_requests",
  from: "leave_requests",
  select: LEAVE_REQUEST_COLUMNS,
  where: { status: "=", employee_id: "=", leave_type: "=" },
  orderBy: "submitted_at, id",
});

const getLeaveRequest = defineGetTool({
  name: "get_leave_request",
  description: "Get one leave request by id.",
  input: { request_id: requestIdField() },
  from: "leave_requests",
  select: LEAVE_REQUEST_COLUMNS,
  idColumn: "id",
  notFound: requestNotFound,
});

const BALANCE_TRACKED_TYPES = new Set(["annual", "sick"]);

const decideLeaveRequest = defineTool({
  name: "decide_leave_request",
  description:
    "Approve or deny a pending leave request. Approving annual or sick leave adds its days to `used_days` of the employee's balance for the year in which the leave starts. The system does not check policy rules. A denial needs a reason in `note`. Returns the updated `request` and the affected `balance` (null when the leave type has no balance).",
  kind: "write",
  inputSchema: z.object({
    request_id: requestIdField(),
    decision: z.enum(["approve", "deny"]).describe("'approve' or 'deny'"),
    note: z.string().default("").describe("Reason shown to the employee (required when denying)"),
  }),
  handler: ({ request_id, decision, note }, { db }: ToolContext) => {
    const request = requireRow(
      db,
      `SELECT ${LEAVE_REQUEST_COLUMNS} FROM leave_requests WHERE id = ?`,
      [request_id],
      requestNotFound(request_id),
    );
    if (request.status !== "pending") {
      throw new ToolFailure(
        `leave request ${request_id} is already ${String(request.status)}; only pending requests can be decided`,
      );
    }
    if (decision === "deny" && note.trim() === "") {
      throw new ToolFailure("a denial needs a reason: pass it in `note`");
    }
    const leaveType = String(request.leave_type);
    const year = Number(String(request.start_date).slice(0, 4));
    let balance: Row | null = null;
    const apply = db.transaction(() => {
      if (decision === "approve" && BALANCE_TRACKED_TYPES.has(leaveType)) {
        const changed = cachedStatement(
          db,
          "UPDATE leave_balances SET used_days = used_days + ? WHERE employee_id = ? AND year = ? AND leave_type = ?",
        ).run(request.days, request.employee_id, year, leaveType);
        if (changed.changes === 0) {
          throw new ToolFailure(
            `no ${leaveType} balance for ${String(request.employee_id)} in ${year}; contractors have no leave balances`,
          );
        }
        balance = getRow(
          db,
          "SELECT * FROM leave_balances WHERE employee_id = ? AND year = ? AND leave_type = ?",
          request.employee_id,
          year,
          leaveType,
        )!;
      }
      cachedStatement(db, "UPDATE leave_requests SET status = ?, decision_note = ? WHERE id = ?").run(
        decision === "approve" ? "approved" : "denied",
        note.trim() === "" ? null : note.trim(),
        request_id,
      );
    });
    apply();
    return {
      request: getRow(db, `SELECT ${LEAVE_REQUEST_COLUMNS} FROM leave_requests WHERE id = ?`, request_id),
      balance,
    };
  },
});

const listLeaveBalances = defineListTool({
  name: "list_leave_balances",
  description:
    "List leave balances of one leave year: `entitlement_days`, `carried_over_days` (from the previous year) and `used_days` (approved leave, including approved leave not taken yet), per employee and leave type (`annual` or `sick`). Ordered by employee id. Paginated: returns `balances`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    year: z.number().int().min(2000).max(2100).describe("Leave year (calendar year)"),
    employee_id: z.string().optional().describe("Only balances of this employee"),
    leave_type: optionalChoice(["annual", "sick"], "Only balances of this leave type"),
  },
  key: "balances",
  from: "leave_balances",
  select: "employee_id, year, leave_type, entitlement_days, carried_over_days, used_days",
  where: ({ year, employee_id, leave_type }) => [
    { sql: "year = ?", params: [year] },
    when(employee_id, "employee_id = ?"),
    when(leave_type, "leave_type = ?"),
  ],
  orderBy: "employee_id, leave_type",
});

const updateCompensation = defineTool({
  name: "update_compensation",
  description:
    "Change an employee's base pay: `annual_salary` for salaried positions or `hourly_rate` for hourly positions (exactly one, matching the position's pay type), with the date it takes effect. Returns `employee_id`, `pay_type`, `previous_amount`, `new_amount` and `effective_date`.",
  kind: "write",
  inputSchema: z.object({
    employee_id: employeeIdField(),
    annual_salary: z
      .number()
      .positive()
      .optional()
      .describe("New annual salary in dollars (salaried positions only)"),
    hourly_rate: z
      .number()
      .positive()
      .optional()
      .describe("New hourly rate in dollars (hourly positions only)"),
    effective_date: isoDateField("Date the new pay takes effect (YYYY-MM-DD)"),
    reason: z.string().min(1).describe("Why the pay changes (shown in the audit trail)"),
  }),
  handler: ({ employee_id, annual_salary, hourly_rate, effective_date }, { db }: ToolContext) => {
    const employee = requireRow(
      db,
      `SELECT e.id, e.status, e.annual_salary, e.hourly_rate, p.pay_type
         FROM employees e JOIN positions p ON p.id = e.position_id WHERE e.id = ?`,
      [employee_id],
      employeeNotFound(employee_id),
    );
    if (employee.status === "terminated") {
      throw new ToolFailure(
        `employee ${employee_id} has left the company; their pay can no longer be changed`,
      );
    }
    const salaried = employee.pay_type === "salaried";
    const amount = salaried ? annual_salary : hourly_rate;
    const wrong = salaried ? hourly_rate : annual_salary;
    if (amount === undefined || wrong !== undefined) {
      throw new ToolFailure(
        `employee ${employee_id} is ${salaried ? "salaried: pass annual_salary only" : "paid hourly: pass hourly_rate only"}`,
      );
    }
    const rounded = Math.round(amount * 100) / 100;
    cachedStatement(
      db,
      `UPDATE employees SET ${salaried ? "annual_salary" : "hourly_rate"} = ?, compensation_effective_date = ? WHERE id = ?`,
    ).run(rounded, effective_date, employee_id);
    return {
      employee_id,
      pay_type: employee.pay_type,
      previous_amount: salaried ? employee.annual_salary : employee.hourly_rate,
      new_amount: rounded,
      effective_date,
    };
  },
});

const listPayrollRuns = defineListTool({
  name: "list_payroll_runs",
  description:
    "List biweekly payroll runs (pay period, pay date, status `draft`/`finalized`/`paid`, head count and gross total), most recent period first. Paginated: returns `payroll_runs`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    status: optionalChoice(["draft", "finalized", "paid"], "Only runs with this status"),
  },
  key: "payroll_runs",
  from: "payroll_runs",
  select: "id, period_start, period_end, pay_date, status, employee_count, total_gross",
  where: { status: "=" },
  orderBy: "period_end DESC",
});

const listPayslips = defineListTool({
  name: "list_payslips",
  description:
    "List payslips (hours, regular and overtime pay, gross, tax, benefits and net pay) of a payroll run and/or an employee, ordered by run and employee. Paginated: returns `payslips`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    run_id: z.string().optional().describe("Only payslips of this payroll run, e.g. 'PR-20250601'"),
    employee_id: z.string().optional().describe("Only payslips of this employee"),
  },
  key: "payslips",
  from: "payslips",
  select:
    "run_id, employee_id, regular_hours, overtime_hours, regular_pay, overtime_pay, gross_pay, tax_withheld, benefits_deduction, net_pay",
  where: { run_id: "=", employee_id: "=" },
  orderBy: "run_id, employee_id",
});

const reviewTimesheetEntry = defineTool({
  name: "review_timesheet_entry",
  description:
    "Approve or reject one submitted timesheet entry (on the manager's behalf). Returns the updated `entry`. Fails unless the entry is `submitted`.",
  kind: "write",
  inputSchema: z.object({
    entry_id: z.number().int().describe("Timesheet entry id, from list_timesheet_entries"),
    decision: z.enum(["approve", "reject"]).describe("'approve' or 'reject'"),
  }),
  handler: ({ entry_id, decision }, { db }: ToolContext) => {
    const entry = requireRow(
      db,
      "SELECT id, employee_id, work_date, hours, project_code, status FROM timesheet_entries WHERE id = ?",
      [entry_id],
      `timesheet entry ${entry_id} not found; use list_timesheet_entries to find entry ids`,
    );
    if (entry.status !== "submitted")
      throw new ToolFailure(
        `timesheet entry ${entry_id} is already ${String(entry.status)}; only submitted entries can be reviewed`,
      );
    const status = decision === "approve" ? "approved" : "rejected";
    cachedStatement(db, "UPDATE timesheet_entries SET status = ? WHERE id = ?").run(status, entry_id);
    return { entry: { ...entry, status } };
  },
});

const listProjectHoursApi = defineTool({
  name: "list_project_hours",
  description:
    "The project time ledger (project accounting's API): hours logged to projects with a work date in a range, optionally for one project code, ordered by work date and entry id. Each row has `entry_id`, `employee_id`, `work_date`, `project_code`, `hours` and `approval_status` (`submitted`, `approved` or `rejected`). Paginated: returns `hours`, `page`, `per_page`, `total`, `has_more`.",
  kind: "read",
  inputSchema: z.object({
    ...workDateRange,
    project_code: z
      .string()
      .min(1)
      .optional()
      .describe("Only hours logged to this project code, e.g. 'WH-PICK'"),
    ...pagingFields,
  }),
  handler: ({ start_date, end_date, project_code, page, per_page }, { db }: ToolContext) => {
    return listPage(db, {
      key: "hours",
      from: "timesheet_entries",
      select: "id AS entry_id, employee_id, work_date, project_code, hours, status AS approval_status",
      where: [...workDatesBetween(start_date, end_date), when(project_code, "project_code = ?")],
      orderBy: "work_date, id",
      page,
      perPage: per_page,
    });
  },
});

/** The project ledger's API is overloaded on deep pages: every page from 3 on answers 503 once. */
const listProjectHours = withTransientFailures(listProjectHoursApi, { when: (input) => input.page >= 3 });

const getWorkAuthorizationApi = defineGetTool({
  name: "get_work_authorization",
  description:
    "Look up the right-to-work document on file for an employee (the verification vendor's API). Returns `employee_id`, `document_type`, `document_last4`, `expires_on` (YYYY-MM-DD, or null for documents that do not expire) and `verified_on`.",
  input: { employee_id: employeeIdField() },
  from: "work_authorizations",
  select: "employee_id, document_type, document_last4, expires_on, verified_on",
  notFound: (employeeId) =>
    `no work authorization on file for '${employeeId}'; use list_employees to find employee ids`,
});

/** The vendor drops a shard of lookups, answering with an error body (no MCP error) instead of the record. */
const getWorkAuthorization = withSilentFailures(getWorkAuthorizationApi, {
  when: (input) => authorizationLookupTimesOut(input.employee_id),
});

export const hrTools: DomainTool[] = [
  listDepartments,
  listPositions,
  listEmployees,
  getEmployee,
  listTimesheetEntries,
  listLeaveRequests,
  getLeaveRequest,
  decideLeaveRequest,
  listLeaveBalances,
  updateCompensation,
  listPayrollRuns,
  listPayslips,
  reviewTimesheetEntry,
  listProjectHours,
  getWorkAuthorization,
];
