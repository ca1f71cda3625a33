import type { TaskDefinition } from "../../envs/index.js";
import { customerEmailTriageTask } from "./tasks/customer-email-triage.js";
import { escalateOverdueTicketsTask } from "./tasks/escalate-overdue-tickets.js";
import { hardwareRefreshCandidatesTask } from "./tasks/hardware-refresh-candidates.js";
import { reassignAgentsOnLeaveTask } from "./tasks/reassign-agents-on-leave.js";
import { reopenReviewTask } from "./tasks/reopen-review.js";
import { resolveStalePendingTicketsTask } from "./tasks/resolve-stale-pending-tickets.js";
import { slaBreachesLastMonthTask } from "./tasks/sla-breaches-last-month.js";
import { vendorWarrantyHoldsTask } from "./tasks/vendor-warranty-holds.js";

export { itSupportDomain } from "./domain.js";

export const itSupportTasks: TaskDefinition[] = [
  slaBreachesLastMonthTask,
  escalateOverdueTicketsTask,
  reassignAgentsOnLeaveTask,
  hardwareRefreshCandidatesTask,
  resolveStalePendingTicketsTask,
  customerEmailTriageTask,
  reopenReviewTask,
  vendorWarrantyHoldsTask,
];
