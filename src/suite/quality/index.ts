import type { TaskDefinition } from "../../envs/index.js";
import { complaintTraceTask } from "./tasks/complaint-trace.js";
import { capaOverdueTask } from "./tasks/capa-overdue.js";
import { dispositionNcrsTask } from "./tasks/disposition-ncrs.js";
import { invalidateUncalibratedTask } from "./tasks/invalidate-uncalibrated.js";
import { firstPassYieldTask } from "./tasks/first-pass-yield.js";
import { sampleSizeComplianceTask } from "./tasks/sample-size-compliance.js";
import { holdOutOfToleranceTask } from "./tasks/hold-out-of-tolerance.js";
import { supplierScorecardTask } from "./tasks/supplier-scorecard.js";

export { qualityDomain } from "./domain.js";

export const qualityTasks: TaskDefinition[] = [
  holdOutOfToleranceTask,
  dispositionNcrsTask,
  capaOverdueTask,
  invalidateUncalibratedTask,
  firstPassYieldTask,
  sampleSizeComplianceTask,
  complaintTraceTask,
  supplierScorecardTask,
];
