import type { TaskDefinition } from "../../envs/index.js";
import { lateArrivalsTask } from "./tasks/late-arrivals.js";

export { transportDomain } from "./domain.js";

export const transportTasks: TaskDefinition[] = [lateArrivalsTask];
