import type { TaskDefinition } from "../../envs/index.js";
import { agingReportTask } from "./tasks/aging-report.js";
import { applyPriceAmendmentsTask } from "./tasks/apply-price-amendments.js";
import { applyVendorHoldsTask } from "./tasks/apply-vendor-holds.js";
import { reconcileRemittanceTask } from "./tasks/reconcile-remittance.js";
import { discountDisputesTask } from "./tasks/discount-disputes.js";
import { duplicateInvoicesTask } from "./tasks/duplicate-invoices.js";
import { earlyPaymentDiscountsTask } from "./tasks/early-payment-discounts.js";
import { secondApprovalAuditTask } from "./tasks/second-approval-audit.js";
import { threeWayMatchExceptionsTask } from "./tasks/three-way-match-exceptions.js";

export { payablesDomain } from "./domain.js";

export const payablesTasks: TaskDefinition[] = [
  threeWayMatchExceptionsTask,
  earlyPaymentDiscountsTask,
  duplicateInvoicesTask,
  applyVendorHoldsTask,
  applyPriceAmendmentsTask,
  reconcileRemittanceTask,
  agingReportTask,
  secondApprovalAuditTask,
  discountDisputesTask,
];
