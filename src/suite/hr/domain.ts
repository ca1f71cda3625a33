/** The HR and payroll domain definition (tasks import it from here to avoid a cycle through index.ts). */
import { defineDomain } from "../../envs/index.js";
import { generateHr } from "./generate.js";
import { hrSchemaSql } from "./schema.js";
import { hrTools } from "./tools.js";

export const hrDomainDefinition = defineDomain({
  id: "hr",
  title: "HR and payroll",
  description:
    "A mid-sized distributor's HR system: departments, positions and pay grades, employees, timesheets, leave requests and balances, biweekly payroll runs and payslips; policies, memos and exports in the workspace.",
  version: 1,
  schemaSql: hrSchemaSql,
  generate: generateHr,
  tools: hrTools,
});
