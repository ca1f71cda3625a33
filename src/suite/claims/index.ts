import type { TaskDefinition } from "../../envs/index.js";
import { claimsDomain } from "./domain.js";
import { lossOutsidePeriodTask } from "./tasks/loss-outside-period.js";
import { paymentsOverCapTask } from "./tasks/payments-over-cap.js";
import { tagCatastropheClaimsTask } from "./tasks/tag-catastrophe-claims.js";
import { lateNoticeClaimsTask } from "./tasks/late-notice-claims.js";
import { excludedCauseNotesTask } from "./tasks/excluded-cause-notes.js";
import { siuReferralsTask } from "./tasks/siu-referrals.js";
import { reassignLeaveClaimsTask } from "./tasks/reassign-leave-claims.js";
import { reserveShortfallsTask } from "./tasks/reserve-shortfalls.js";

export { claimsDomain };

export const claimsTasks: TaskDefinition[] = [
  lossOutsidePeriodTask,
  paymentsOverCapTask,
  tagCatastropheClaimsTask,
  lateNoticeClaimsTask,
  excludedCauseNotesTask,
  siuReferralsTask,
  reassignLeaveClaimsTask,
  reserveShortfallsTask,
];
