import type { TaskDefinition } from "../../envs/index.js";
import { contractorFailRatesTask } from "./tasks/contractor-fail-rates.js";
import { expiringPermitsTask } from "./tasks/expiring-permits.js";
import { feesCollectedInMayTask } from "./tasks/fees-collected-in-may.js";
import { planReviewFeeAuditTask } from "./tasks/plan-review-fee-audit.js";
import { reassignLeaveCoverageTask } from "./tasks/reassign-leave-coverage.js";
import { recordFeeWaiversTask } from "./tasks/record-fee-waivers.js";
import { scheduleReinspectionsTask } from "./tasks/schedule-reinspections.js";
import { stopWorkLapsedLicensesTask } from "./tasks/stop-work-lapsed-licenses.js";
import { violationCodeTallyTask } from "./tasks/violation-code-tally.js";

export { permitsDomain } from "./domain.js";

export const permitsTasks: TaskDefinition[] = [
  stopWorkLapsedLicensesTask,
  scheduleReinspectionsTask,
  recordFeeWaiversTask,
  reassignLeaveCoverageTask,
  feesCollectedInMayTask,
  violationCodeTallyTask,
  contractorFailRatesTask,
  planReviewFeeAuditTask,
  expiringPermitsTask,
];
