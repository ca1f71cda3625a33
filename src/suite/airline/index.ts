import type { TaskDefinition } from "../../envs/index.js";
import { airlineDomain } from "./domain.js";

export { airlineDomain };

export const airlineTasks: TaskDefinition[] = [];
