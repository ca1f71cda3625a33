import type { TaskDefinition } from "../../envs/index.js";
import { ackSlaBreachesTask } from "./tasks/ack-sla-breaches.js";

export { oncallDomain } from "./domain.js";

export const oncallTasks: TaskDefinition[] = [ackSlaBreachesTask];
