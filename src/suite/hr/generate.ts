/** Fills the HR database and workspace for one seed and scale. */
import type Database from "better-sqlite3";
import { insertDrafts, insertRecords, type GenerateContext } from "../../envs/index.js";
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
  insertDrafts(db, "departments", "id, name, cost_center, location, head_employee_id", DEPARTMENTS, () => ({
    head_employee_id: null,
  }));
  insertDrafts(db, "positions", "id, title, department_id, grade, flsa_status, pay_type", POSITIONS);
  // Managers first, so that the self-reference holds if foreign keys are enforced.
  const ordered = [...world.employees].sort(
    (left, right) => Number(left.managerId !== null) - Number(right.managerId !== null),
  );
  insertRecords(db, "employees", ordered);
  // Department heads once their employee rows exist.
  const setHead = db.prepare("UPDATE departments SET head_employee_id = ? WHERE id = ?");
  for (const employee of world.employees) {
    if (positionById(employee.positionId).head) setHead.run(employee.id, employee.departmentId);
  }
  insertRecords(
    db,
    "timesheet_entries",
    world.timesheets.map((entry, index) => ({ id: index + 1, ...entry })),
  );
  insertRecords(db, "leave_balances", world.leaveBalances);
  insertRecords(db, "leave_requests", world.leaveRequests);
  insertRecords(db, "payroll_runs", world.payrollRuns);
  insertRecords(db, "payslips", world.payslips);
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
