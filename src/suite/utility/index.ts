import type { TaskDefinition } from "../../envs/index.js";
import { closeFromNotesTask } from "./tasks/close-from-notes.js";
import { criticalCareCallsTask } from "./tasks/critical-care-calls.js";
import { dispatchDelaysTask } from "./tasks/dispatch-delays.js";
import { dispatchEmergenciesTask } from "./tasks/dispatch-emergencies.js";
import { estimateVisitsTask } from "./tasks/estimate-visits.js";
import { fieldReadsTask } from "./tasks/field-reads.js";
import { outageMinutesTask } from "./tasks/outage-minutes.js";
import { slaBreachesTask } from "./tasks/sla-breaches.js";
import { truckRestockTask } from "./tasks/truck-restock.js";

export { utilityDomain } from "./domain.js";

export const utilityTasks: TaskDefinition[] = [
  outageMinutesTask,
  criticalCareCallsTask,
  estimateVisitsTask,
  slaBreachesTask,
  dispatchEmergenciesTask,
  dispatchDelaysTask,
  closeFromNotesTask,
  fieldReadsTask,
  truckRestockTask,
];
