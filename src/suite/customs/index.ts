import type { TaskDefinition } from "../../envs/index.js";
import { dutyOwedTask } from "./tasks/duty-owed.js";

export { customsDomain } from "./domain.js";

export const customsTasks: TaskDefinition[] = [dutyOwedTask];
