import type { TaskDefinition } from "../../envs/index.js";
import { universityDomain } from "./domain.js";
import { gradeChangeMemosTask } from "./tasks/grade-change-memos.js";
import { standingReviewTask } from "./tasks/standing-review.js";

export { universityDomain };

export const universityTasks: TaskDefinition[] = [standingReviewTask, gradeChangeMemosTask];
