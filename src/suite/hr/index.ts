import type { TaskDefinition } from "../../envs/index.js";
import { hrDomainDefinition } from "./domain.js";
import { applySalaryAdjustmentsTask } from "./tasks/apply-salary-adjustments.js";
import { carryOverForfeitureTask } from "./tasks/carry-over-forfeiture.js";
import { overtimeOwedTask } from "./tasks/overtime-owed.js";
import { payrollVarianceReviewTask } from "./tasks/payroll-variance-review.js";
import { projectChargebackTask } from "./tasks/project-chargeback.js";
import { reviewPendingLeaveTask } from "./tasks/review-pending-leave.js";
import { timesheetSignoffsTask } from "./tasks/timesheet-signoffs.js";
import { workAuthorizationReverificationTask } from "./tasks/work-authorization-reverification.js";

export const hrDomain = hrDomainDefinition;

export const hrTasks: TaskDefinition[] = [
  reviewPendingLeaveTask,
  overtimeOwedTask,
  carryOverForfeitureTask,
  applySalaryAdjustmentsTask,
  payrollVarianceReviewTask,
  timesheetSignoffsTask,
  projectChargebackTask,
  workAuthorizationReverificationTask,
];
