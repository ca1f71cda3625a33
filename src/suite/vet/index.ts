import type { TaskDefinition } from "../../envs/index.js";
import { clinicReceivablesTask } from "./tasks/clinic-receivables.js";
import { doseLimitAuditTask } from "./tasks/dose-limit-audit.js";
import { holdOverdosesTask } from "./tasks/hold-overdoses.js";
import { labRecheckRemindersTask } from "./tasks/lab-recheck-reminders.js";
import { labSpeciesRangesTask } from "./tasks/lab-species-ranges.js";
import { overdueCoreVaccinesTask } from "./tasks/overdue-core-vaccines.js";
import { vaccineRemindersTask } from "./tasks/vaccine-reminders.js";
import { weightCheckRemindersTask, weightLossTask } from "./tasks/weight-loss.js";
import { rxTranscriptionTask } from "./tasks/rx-transcription.js";

export { vetDomain } from "./domain.js";

export const vetTasks: TaskDefinition[] = [
  overdueCoreVaccinesTask,
  vaccineRemindersTask,
  doseLimitAuditTask,
  holdOverdosesTask,
  weightLossTask,
  weightCheckRemindersTask,
  rxTranscriptionTask,
  labSpeciesRangesTask,
  labRecheckRemindersTask,
  clinicReceivablesTask,
];
