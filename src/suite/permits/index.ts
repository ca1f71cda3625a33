import type { TaskDefinition } from "../../envs/index.js";
import { reassignLeaveCoverageTask } from "./tasks/reassign-leave-coverage.js";
import { recordFeeWaiversTask } from "./tasks/record-fee-waivers.js";
import { scheduleReinspectionsTask } from "./tasks/schedule-reinspections.js";
import { stopWorkLapsedLicensesTask } from "./tasks/stop-work-lapsed-licenses.js";

export { permitsDomain } from "./domain.js";

export const permitsTasks: TaskDefinition[] = [
  stopWorkLapsedLicensesTask,
  scheduleReinspectionsTask,
  recordFeeWaiversTask,
  reassignLeaveCoverageTask,
];
