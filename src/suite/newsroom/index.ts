import type { TaskDefinition } from "../../envs/index.js";
import { correctionsTurnaroundTask } from "./tasks/corrections-turnaround.js";
import { embargoBreachesTask } from "./tasks/embargo-breaches.js";
import { freelancerPaymentsTask } from "./tasks/freelancer-payments.js";
import { headlineStyleTask } from "./tasks/headline-style.js";
import { invoiceAuditTask } from "./tasks/invoice-audit.js";
import { legalHoldsTask } from "./tasks/legal-holds.js";
import { photoLicencesTask } from "./tasks/photo-licences.js";
import { unloggedCorrectionsTask } from "./tasks/unlogged-corrections.js";

export { newsroomDomain } from "./domain.js";

export const newsroomTasks: TaskDefinition[] = [
  unloggedCorrectionsTask,
  correctionsTurnaroundTask,
  legalHoldsTask,
  freelancerPaymentsTask,
  invoiceAuditTask,
  embargoBreachesTask,
  headlineStyleTask,
  photoLicencesTask,
];
