import type { TaskDefinition } from "../../envs/index.js";
import { ackSlaBreachesTask } from "./tasks/ack-sla-breaches.js";
import { assignPagesTask } from "./tasks/assign-pages.js";
import { deployBeforeSpikeTask } from "./tasks/deploy-before-spike.js";
import { errorBudgetBurnTask } from "./tasks/error-budget-burn.js";
import { escalateStaleIncidentsTask } from "./tasks/escalate-stale-incidents.js";
import { fileActionItemsTask } from "./tasks/file-action-items.js";
import { mttaBySeverityTask } from "./tasks/mtta-by-severity.js";
import { syncOverridesTask } from "./tasks/sync-overrides.js";
import { p95LatencyTask } from "./tasks/p95-latency.js";
import { rootCausesTask } from "./tasks/root-causes.js";

export { oncallDomain } from "./domain.js";

export const oncallTasks: TaskDefinition[] = [
  ackSlaBreachesTask,
  deployBeforeSpikeTask,
  assignPagesTask,
  escalateStaleIncidentsTask,
  p95LatencyTask,
  rootCausesTask,
  errorBudgetBurnTask,
  fileActionItemsTask,
  syncOverridesTask,
  mttaBySeverityTask,
];
