import type { TaskDefinition } from "../../envs/index.js";
import { stopWorkLapsedLicensesTask } from "./tasks/stop-work-lapsed-licenses.js";

export { permitsDomain } from "./domain.js";

export const permitsTasks: TaskDefinition[] = [stopWorkLapsedLicensesTask];
