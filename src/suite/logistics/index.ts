import type { TaskDefinition } from "../../envs/index.js";
import { logisticsDomain } from "./domain.js";
import { cancelUnneededOrdersTask } from "./tasks/cancel-unneeded-orders.js";
import { categorySpendReviewTask } from "./tasks/category-spend-review.js";
import { cycleCountVariancesTask } from "./tasks/cycle-count-variances.js";
import { expiryRiskReviewTask } from "./tasks/expiry-risk-review.js";
import { pickAuditTask } from "./tasks/pick-audit.js";
import { qualityHoldEmailsTask } from "./tasks/quality-hold-emails.js";
import { replenishLowStockTask } from "./tasks/replenish-low-stock.js";
import { tenderPendingShipmentsTask } from "./tasks/tender-pending-shipments.js";

export { logisticsDomain };

export const logisticsTasks: TaskDefinition[] = [
  replenishLowStockTask,
  tenderPendingShipmentsTask,
  expiryRiskReviewTask,
  cycleCountVariancesTask,
  cancelUnneededOrdersTask,
  categorySpendReviewTask,
  qualityHoldEmailsTask,
  pickAuditTask,
];
