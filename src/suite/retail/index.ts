import type { TaskDefinition } from "../../envs/index.js";
export { retailDomain } from "./domain.js";

export const retailTasks: TaskDefinition[] = [];
