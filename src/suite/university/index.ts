import type { TaskDefinition } from "../../envs/index.js";
import { universityDomain } from "./domain.js";
import { creditHourReportTask } from "./tasks/credit-hour-report.js";
import { deansListTask } from "./tasks/deans-list.js";
import { gradeChangeMemosTask } from "./tasks/grade-change-memos.js";
import { graduationAuditTask } from "./tasks/graduation-audit.js";
import { prerequisiteCheckTask } from "./tasks/prerequisite-check.js";
import { sectionOutcomesTask } from "./tasks/section-outcomes.js";
import { roomChangeDropsTask } from "./tasks/room-change-drops.js";
import { standingReviewTask } from "./tasks/standing-review.js";

export { universityDomain };

export const universityTasks: TaskDefinition[] = [
  standingReviewTask,
  gradeChangeMemosTask,
  graduationAuditTask,
  sectionOutcomesTask,
  prerequisiteCheckTask,
  deansListTask,
  creditHourReportTask,
  roomChangeDropsTask,
];
