import type { TaskDefinition } from "../../envs/index.js";
import { discountCapAuditTask } from "./tasks/discount-cap-audit.js";
import { dunningSuspensionsTask } from "./tasks/dunning-suspensions.js";
import { mrrAfterPriceChangeTask } from "./tasks/mrr-after-price-change.js";
import { paymentRetriesTask } from "./tasks/payment-retries.js";
import { receivablesAgingTask } from "./tasks/receivables-aging.js";
import { slaCreditsTask } from "./tasks/sla-credits.js";
import { supportCreditRequestsTask } from "./tasks/support-credit-requests.js";
import { usageOverageTask } from "./tasks/usage-overage.js";

export { billingDomain } from "./domain.js";

export const billingTasks: TaskDefinition[] = [
  usageOverageTask,
  dunningSuspensionsTask,
  mrrAfterPriceChangeTask,
  slaCreditsTask,
  supportCreditRequestsTask,
  paymentRetriesTask,
  discountCapAuditTask,
  receivablesAgingTask,
];
