import type { TaskDefinition } from "../../envs/index.js";
import { quarantineRecalledLotsTask } from "./tasks/quarantine-recalled-lots.js";

export { pharmacyDomain } from "./domain.js";

export const pharmacyTasks: TaskDefinition[] = [quarantineRecalledLotsTask];
