import type { TaskDefinition } from "../../envs/index.js";
import { cabinetRefillsTask } from "./tasks/cabinet-refills.js";
import { centralReorderTask } from "./tasks/central-reorder.js";
import { countDiscrepanciesTask } from "./tasks/count-discrepancies.js";
import { expiredReturnsTask } from "./tasks/expired-returns.js";
import { invoiceDisputesTask } from "./tasks/invoice-disputes.js";
import { overrideAuditTask } from "./tasks/override-audit.js";
import { quarantineRecalledLotsTask } from "./tasks/quarantine-recalled-lots.js";
import { recallPatientTraceTask } from "./tasks/recall-patient-trace.js";
import { recalledStockInCabinetsTask } from "./tasks/recalled-stock-in-cabinets.js";
import { scheduleIiUsageTask } from "./tasks/schedule-ii-usage.js";
import { shortDatedValueTask } from "./tasks/short-dated-value.js";
import { therapeuticInterchangeTask } from "./tasks/therapeutic-interchange.js";

export { pharmacyDomain } from "./domain.js";

export const pharmacyTasks: TaskDefinition[] = [
  quarantineRecalledLotsTask,
  recalledStockInCabinetsTask,
  recallPatientTraceTask,
  centralReorderTask,
  cabinetRefillsTask,
  countDiscrepanciesTask,
  therapeuticInterchangeTask,
  shortDatedValueTask,
  expiredReturnsTask,
  overrideAuditTask,
  invoiceDisputesTask,
  scheduleIiUsageTask,
];
