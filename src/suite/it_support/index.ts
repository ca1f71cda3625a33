import type { TaskDefinition } from "../../envs/index.js";
export { itSupportDomain } from "./domain.js";

export const itSupportTasks: TaskDefinition[] = [];
