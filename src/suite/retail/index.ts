import type { TaskDefinition } from "../../envs/index.js";
import { applySupplierRecallTask } from "./tasks/apply-supplier-recall.js";
import { customerCancellationRequestsTask } from "./tasks/customer-cancellation-requests.js";
import { loyaltyTierReviewTask } from "./tasks/loyalty-tier-review.js";
import { netRevenueByCategoryTask } from "./tasks/net-revenue-by-category.js";
import { priceMatchCreditsTask } from "./tasks/price-match-credits.js";
import { processPendingReturnsTask } from "./tasks/process-pending-returns.js";
import { syncCarrierDeliveriesTask } from "./tasks/sync-carrier-deliveries.js";
import { weeklyReplenishmentTask } from "./tasks/weekly-replenishment.js";

export { retailDomain } from "./domain.js";

export const retailTasks: TaskDefinition[] = [
  processPendingReturnsTask,
  applySupplierRecallTask,
  netRevenueByCategoryTask,
  priceMatchCreditsTask,
  loyaltyTierReviewTask,
  syncCarrierDeliveriesTask,
  customerCancellationRequestsTask,
  weeklyReplenishmentTask,
];
