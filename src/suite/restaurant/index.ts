import type { TaskDefinition } from "../../envs/index.js";
import { belowParTask } from "./tasks/below-par.js";

export { restaurantDomain } from "./domain.js";

export const restaurantTasks: TaskDefinition[] = [belowParTask];
