import type { TaskDefinition } from "../../envs/index.js";
import { applyNoShowPolicyTask } from "./tasks/apply-no-show-policy.js";
import { collectionsReviewTask } from "./tasks/collections-review.js";
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
];
