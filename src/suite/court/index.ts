import type { TaskDefinition } from "../../envs/index.js";
import { motionHearingsTask, dismissalReviewTask } from "./tasks/calendar.js";
import { defaultEligibleTask, enterDefaultsTask, responseDeadlinesTask } from "./tasks/deadlines.js";
import { feeAuditTask, feeDeficiencyNoticesTask } from "./tasks/fees.js";
import { docketIntakeTask } from "./tasks/intake.js";

export { courtDomain } from "./domain.js";

export const courtTasks: TaskDefinition[] = [
  responseDeadlinesTask,
  defaultEligibleTask,
  enterDefaultsTask,
  feeAuditTask,
  feeDeficiencyNoticesTask,
  dismissalReviewTask,
  motionHearingsTask,
  docketIntakeTask,
];
