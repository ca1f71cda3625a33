import type { TaskDefinition } from "../../envs/index.js";
import { brokerFeesTask } from "./tasks/broker-fees.js";
import { chapterValuesTask } from "./tasks/chapter-values.js";
import { correctDeclaredValuesTask } from "./tasks/correct-declared-values.js";
import { deMinimisReleasesTask } from "./tasks/de-minimis-releases.js";
import { dutyRefundsTask } from "./tasks/duty-refunds.js";
import { fileEntriesTask } from "./tasks/file-entries.js";
import { missingCertificatesTask } from "./tasks/missing-certificates.js";
import { quantityMismatchesTask } from "./tasks/quantity-mismatches.js";
import { releaseDocumentHoldsTask } from "./tasks/release-document-holds.js";

export { customsDomain } from "./domain.js";

export const customsTasks: TaskDefinition[] = [
  fileEntriesTask,
  correctDeclaredValuesTask,
  missingCertificatesTask,
  quantityMismatchesTask,
  releaseDocumentHoldsTask,
  brokerFeesTask,
  deMinimisReleasesTask,
  dutyRefundsTask,
  chapterValuesTask,
];
