import type { TaskDefinition } from "../../envs/index.js";
import { approvedCoTotalsTask, coLogMismatchesTask, recordCoDecisionsTask } from "./tasks/change-orders.js";
import { holdUninsuredPayAppsTask, retainageAuditTask } from "./tasks/payments.js";
import { overdueRfisTask, overdueSubmittalsTask, weatherDaysTask } from "./tasks/schedule.js";

export { constructionDomain } from "./domain.js";

export const constructionTasks: TaskDefinition[] = [
  approvedCoTotalsTask,
  recordCoDecisionsTask,
  coLogMismatchesTask,
  retainageAuditTask,
  holdUninsuredPayAppsTask,
  overdueRfisTask,
  overdueSubmittalsTask,
  weatherDaysTask,
];
