import type { TaskDefinition } from "../../envs/index.js";
import { reassignLeaveAppointmentsTask } from "./tasks/reassign-leave-appointments.js";

export { clinicDomain } from "./domain.js";

export const clinicTasks: TaskDefinition[] = [reassignLeaveAppointmentsTask];
