import type { TaskDefinition } from "../../envs/index.js";
import { applyNoShowPolicyTask } from "./tasks/apply-no-show-policy.js";
import { collectionsReviewTask } from "./tasks/collections-review.js";
import { eligibilityChecksTask } from "./tasks/eligibility-checks.js";
import { payerMixReportTask } from "./tasks/payer-mix-report.js";
import { portalCancellationsTask } from "./tasks/portal-cancellations.js";
import { reassignLeaveAppointmentsTask } from "./tasks/reassign-leave-appointments.js";
import { roomDoubleBookingsTask } from "./tasks/room-double-bookings.js";
import { scheduleAuditTask } from "./tasks/schedule-audit.js";

export { clinicDomain } from "./domain.js";

export const clinicTasks: TaskDefinition[] = [
  reassignLeaveAppointmentsTask,
  applyNoShowPolicyTask,
  collectionsReviewTask,
  roomDoubleBookingsTask,
  scheduleAuditTask,
  payerMixReportTask,
  portalCancellationsTask,
  eligibilityChecksTask,
];
