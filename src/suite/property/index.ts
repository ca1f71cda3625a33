import type { TaskDefinition } from "../../envs/index.js";
import { bankReconciliationTask } from "./tasks/bank-reconciliation.js";
import { chronicLatePayersTask } from "./tasks/chronic-late-payers.js";
import { depositRefundsTask } from "./tasks/deposit-refunds.js";
import { escalateOverdueWorkOrdersTask } from "./tasks/escalate-overdue-work-orders.js";
import { juneLateFeesTask } from "./tasks/june-late-fees.js";
import { occupancyReportTask } from "./tasks/occupancy-report.js";
import { renewalOffersTask } from "./tasks/renewal-offers.js";
import { replaceUninsuredVendorsTask } from "./tasks/replace-uninsured-vendors.js";

export { propertyDomain } from "./domain.js";

export const propertyTasks: TaskDefinition[] = [
  juneLateFeesTask,
  renewalOffersTask,
  escalateOverdueWorkOrdersTask,
  depositRefundsTask,
  replaceUninsuredVendorsTask,
  chronicLatePayersTask,
  bankReconciliationTask,
  occupancyReportTask,
];
