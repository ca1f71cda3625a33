import type { TaskDefinition } from "../../envs/index.js";
import { decideUndeliveredTask } from "./tasks/decide-undelivered.js";
import { defectRatesTask } from "./tasks/defect-rates.js";
import { escalateOverdueTask } from "./tasks/escalate-overdue.js";
import { holdSellersTask } from "./tasks/hold-sellers.js";
import { overdueResponsesTask } from "./tasks/overdue-responses.js";
import { overpaidOrdersTask } from "./tasks/overpaid-orders.js";
import { refundsBySellerTask } from "./tasks/refunds-by-seller.js";
import { settlePartialOffersTask } from "./tasks/settle-partial-offers.js";

export { marketplaceDomain } from "./domain.js";

export const marketplaceTasks: TaskDefinition[] = [
  overdueResponsesTask,
  escalateOverdueTask,
  decideUndeliveredTask,
  settlePartialOffersTask,
  defectRatesTask,
  holdSellersTask,
  refundsBySellerTask,
  overpaidOrdersTask,
];
