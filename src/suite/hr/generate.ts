/** Fills the HR database and workspace for one seed and scale. */
import type Database from "better-sqlite3";
import type { GenerateContext } from "../../envs/index.js";
import { DEPARTMENTS, POSITIONS, positionById } from "./catalog.js";
import { writeFixedDocuments, writeScaledDocuments } from "./documents.js";
import { generateLeave } from "./leave-generation.js";
import {
  assignIdentifiers,
  buildCalendar,
  buildEmployees,
  buildLeavePolicy,
  buildOvertimePolicy,
  buildSalaryMemo,
  buildVarianceControl,
  chooseHoldList,
  ensureWorkforceMix,
  plantSalaryMemoCases,
} from "./organisation.js";
import { generatePayroll, generateTimesheets } from "./time-and-pay.js";
import type { World } from "./world.js";

/** Employees at v0; the big tables grow with them. */
const BASE_EMPLOYEES = 40;
/** Fixed documents (policies, memo, bands, calendar); the rest of the workspace scales. */
const FIXED_DOCUMENT_COUNT = 6;
const DOCUMENTS_PER_FILE_FACTOR = 9;

export function buildWorld(context: GenerateContext): World {
  const { random, factors } = context;
  const calendar = buildCalendar(context.referenceDate, random);
  const overtimePolicy = buildOvertimePolicy(random);
  const leavePolicy = buildLeavePolicy(calendar, random);
  const salaryMemo = buildSalaryMemo(calendar, random);
  const varianceControl = buildVarianceControl(random);
  const employees = buildEmployees(calendar, BASE_EMPLOYEES * factors.rows, random, context.faker);
  ensureWorkforceMix(employees, calendar, random);
  const reserved = plantSalaryMemoCases(employees, salaryMemo, random);
  assignIdentifiers(employees);
  salaryMemo.holdList = chooseHoldList(employees, salaryMemo, reserved, 1 + factors.rows, random);
  const leave = generateLeave(calendar, leavePolicy, employees, factors.rows, reserved, random);
  const timesheets = generateTimesheets(calendar, employees, leave.requests, overtimePolicy, random);
  const payroll = generatePayroll(
    calendar,
    employees,
    leave.requests,
    timesheets,
    overtimePolicy,
    varianceControl,
    random,
  );
  return {
    calendar,
    overtimePolicy,
    leavePolicy,
    salaryMemo,
    varianceControl,
    employees,
    leaveRequests: leave.requests,
    leaveBalances: leave.balances,
    timesheets,
    payrollRuns: payroll.runs,
    payslips: payroll.payslips,
  };
}

function insertWorld(db: Database.Database, world: World): void {
  const insertDepartment = db.prepare(
    "INSERT INTO departments (id, name, cost_center, location, head_employee_id) VALUES (?, ?, ?, ?, NULL)",
  );
  for (const department of DEPARTMENTS) {
    insertDepartment.run(department.id, department.name, department.costCenter, department.location);
  }
  const insertPosition = db.prepare(
    "INSERT INTO positions (id, title, department_id, grade, flsa_status, pay_type) VALUES (?, ?, ?, ?, ?, ?)",
  );
  for (const position of POSITIONS) {
    insertPosition.run(
      position.id,
      position.title,
      position.departmentId,
      position.grade,
      position.flsaStatus,
      position.payType,
    );
  }
  const insertEmployee = db.prepare(
    `INSERT INTO employees (id, first_name, last_name, email, department_id, position_id, manager_id, employment_type,
       fte, status, hire_date, termination_date, annual_salary, hourly_rate, compensation_effective_date, work_location)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // Managers first, so that the self-reference holds if foreign keys are enforced.
  const ordered = [...world.employees].sort(
    (left, right) => Number(left.managerId !== null) - Number(right.managerId !== null),
  );
  for (const employee of ordered) {
    insertEmployee.run(
      employee.id,
      employee.firstName,
      employee.lastName,
      employee.email,
      employee.departmentId,
      employee.positionId,
      employee.managerId,
      employee.employmentType,
      employee.fte,
      employee.status,
      employee.hireDate,
      employee.terminationDate,
      employee.annualSalary,
      employee.hourlyRate,
      employee.compensationEffectiveDate,
      employee.workLocation,
    );
  }
  const setHead = db.prepare("UPDATE departments SET head_employee_id = ? WHERE id = ?");
  for (const employee of world.employees) {
    if (positionById(employee.positionId).head) setHead.run(employee.id, employee.departmentId);
  }
  const insertEntry = db.prepare(
    "INSERT INTO timesheet_entries (id, employee_id, work_date, hours, project_code, status) VALUES (?, ?, ?, ?, ?, ?)",
  );
  world.timesheets.forEach((entry, index) => {
    insertEntry.run(
      index + 1,
      entry.employeeId,
      entry.workDate,
      entry.hours,
      entry.projectCode,
      entry.status,
    );
  });
  const insertBalance = db.prepare(
    `INSERT INTO leave_balances (employee_id, year, leave_type, entitlement_days, carried_over_days, used_days)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  for (const balance of world.leaveBalances) {
    insertBalance.run(
      balance.employeeId,
      balance.year,
      balance.leaveType,
      balance.entitlementDays,
      balance.carriedOverDays,
      balance.usedDays,
    );
  }
  const insertRequest = db.prepare(
    `INSERT INTO leave_requests (id, employee_id, leave_type, start_date, end_date, days, status, submitted_at, decision_note)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const request of world.leaveRequests) {
    insertRequest.run(
      request.id,
      request.employeeId,
      request.leaveType,
      request.startDate,
      request.endDate,
      request.days,
      request.status,
      request.submittedAt,
      request.decisionNote,
    );
  }
  const insertRun = db.prepare(
    `INSERT INTO payroll_runs (id, period_start, period_end, pay_date, status, employee_count, total_gross)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const run of world.payrollRuns) {
    insertRun.run(
      run.id,
      run.periodStart,
      run.periodEnd,
      run.payDate,
      run.status,
      run.employeeCount,
      run.totalGross,
    );
  }
  const insertPayslip = db.prepare(
    `INSERT INTO payslips (run_id, employee_id, regular_hours, overtime_hours, regular_pay, overtime_pay, gross_pay,
       tax_withheld, benefits_deduction, net_pay) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const payslip of world.payslips) {
    insertPayslip.run(
      payslip.runId,
      payslip.employeeId,
      payslip.regularHours,
      payslip.overtimeHours,
      payslip.regularPay,
      payslip.overtimePay,
      payslip.grossPay,
      payslip.taxWithheld,
      payslip.benefitsDeduction,
      payslip.netPay,
    );
  }
}

export function generateHr(context: GenerateContext): void {
  const world = buildWorld(context);
  insertWorld(context.db, world);
  writeFixedDocuments(world, context);
  writeScaledDocuments(
    world,
    context,
    DOCUMENTS_PER_FILE_FACTOR * context.factors.files - (FIXED_DOCUMENT_COUNT - 4),
  );
}
