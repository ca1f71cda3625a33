import type { TaskDefinition } from "../../envs/index.js";
import { applyTicketsTask } from "./tasks/apply-tickets.js";
import { contractShortfallsTask } from "./tasks/contract-shortfalls.js";
import { flagHotBinsTask } from "./tasks/flag-hot-bins.js";
import { hotBinsTask } from "./tasks/hot-bins.js";
import { patronageTask } from "./tasks/patronage.js";
import { recordMissingTicketsTask } from "./tasks/record-missing-tickets.js";
import { scaleReconciliationTask } from "./tasks/scale-reconciliation.js";
import { settlementBushelsTask } from "./tasks/settlement-bushels.js";

export { coopDomain } from "./domain.js";

export const coopTasks: TaskDefinition[] = [
  settlementBushelsTask,
  scaleReconciliationTask,
  recordMissingTicketsTask,
  applyTicketsTask,
  contractShortfallsTask,
  hotBinsTask,
  flagHotBinsTask,
  patronageTask,
];
