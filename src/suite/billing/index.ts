import type { TaskDefinition } from "../../envs/index.js";
import { dunningSuspensionsTask } from "./tasks/dunning-suspensions.js";
import { usageOverageTask } from "./tasks/usage-overage.js";

export { billingDomain } from "./domain.js";

export const billingTasks: TaskDefinition[] = [usageOverageTask, dunningSuspensionsTask];
