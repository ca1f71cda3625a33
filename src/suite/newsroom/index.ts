import type { TaskDefinition } from "../../envs/index.js";
import { unloggedCorrectionsTask } from "./tasks/unlogged-corrections.js";

export { newsroomDomain } from "./domain.js";

export const newsroomTasks: TaskDefinition[] = [unloggedCorrectionsTask];
