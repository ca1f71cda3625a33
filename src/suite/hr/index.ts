import { defineDomain, type TaskDefinition } from "../../envs/index.js";
import { generateHr } from "./generate.js";
import { hrSchemaSql } from "./schema.js";

export const hrDomain = defineDomain({
  id: "hr",
  title: "HR and payroll",
  description: "Employees, departments, positions, timesheets, leave requests and balances, payroll runs and payslips.",
  version: 1,
  schemaSql: hrSchemaSql,
  generate: generateHr,
  tools: [],
});

export const hrTasks: TaskDefinition[] = [];
