import type { TaskDefinition } from "../../envs/index.js";
import { correctBudgetsFromLettersTask } from "./tasks/correct-budgets-from-letters.js";
import { effortReductionsTask } from "./tasks/effort-reductions.js";
import { overcommittedPersonnelTask } from "./tasks/overcommitted-personnel.js";
import { postMayIndirectCostsTask } from "./tasks/post-may-indirect-costs.js";
import { processExtensionRequestsTask } from "./tasks/process-extension-requests.js";
import { rebudgetingApprovalsTask } from "./tasks/rebudgeting-approvals.js";
import { recodeNonCapitalEquipmentTask } from "./tasks/recode-non-capital-equipment.js";
import { reviewSubawardInvoicesTask } from "./tasks/review-subaward-invoices.js";
import { transferUnallowableCostsTask } from "./tasks/transfer-unallowable-costs.js";

export { grantsDomain } from "./domain.js";

export const grantsTasks: TaskDefinition[] = [
  postMayIndirectCostsTask,
  transferUnallowableCostsTask,
  reviewSubawardInvoicesTask,
  correctBudgetsFromLettersTask,
  effortReductionsTask,
  recodeNonCapitalEquipmentTask,
  processExtensionRequestsTask,
  rebudgetingApprovalsTask,
  overcommittedPersonnelTask,
];
