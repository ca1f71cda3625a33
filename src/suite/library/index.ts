import type { TaskDefinition } from "../../envs/index.js";
import { cancelFromNoticesTask } from "./tasks/cancel-from-notices.js";
import { claimOverdueTask } from "./tasks/claim-overdue.js";
import { duplicateOrdersTask } from "./tasks/duplicate-orders.js";
import { fundAssignmentTask } from "./tasks/fund-assignment.js";
import { fundBalancesTask } from "./tasks/fund-balances.js";
import { invoiceDiscrepanciesTask } from "./tasks/invoice-discrepancies.js";
import { patronRequestsTask } from "./tasks/patron-requests.js";
import { reviewInvoicesTask } from "./tasks/review-invoices.js";

export { libraryDomain } from "./domain.js";

export const libraryTasks: TaskDefinition[] = [
  duplicateOrdersTask,
  fundBalancesTask,
  invoiceDiscrepanciesTask,
  reviewInvoicesTask,
  claimOverdueTask,
  cancelFromNoticesTask,
  patronRequestsTask,
  fundAssignmentTask,
];
