export { ProgAgentError, ERROR_CODES, exitCodeForError, errorMessage } from "./errors.js";
export type { ErrorCategory, JsonValue, ProgAgentErrorOptions } from "./errors.js";
export { abortedError, deadlineSignal, isPromiseLike, withDeadline, sleep } from "./deadline.js";
export {
  createTempDir,
  sweepStaleTempDirs,
  isTraversableByOthers,
  scratchDir,
  isTmpfs,
  tempDirRoots,
  resetScratchDirForTests,
  SCRATCH_DIR_VARIABLE,
} from "./temp-dir.js";
export { sweepStale, isProcessAlive } from "./sweep-stale.js";
export { removeTree, removeTreeSync, entryAt, NO_FOLLOW_DIRECTORY_FLAGS } from "./remove-tree.js";
export type { StaleSweep } from "./sweep-stale.js";
export type { TempDir, ScratchDir } from "./temp-dir.js";
export { createSeededRandom, hashString } from "./seeded-random.js";
export type { SeededRandom } from "./seeded-random.js";
export { safeStringify, tryParseJson, parseJsonBounded, DEFAULT_MAX_JSON_DEPTH } from "./safe-json.js";
export { createLogger } from "./logger.js";
export type { Logger, LogLevel } from "./logger.js";
export { globToRegExp } from "./glob.js";
export { parseChoiceList } from "./parse-choice-list.js";
export { startModuleWorker } from "./module-worker.js";
export {
  createGuardedHttpServer,
  answerAndClose,
  readRequestBody,
  decodePathSegment,
  defaultMaxConnections,
  openFileLimit,
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_BODY_TIMEOUT_MS,
} from "./http-guard.js";
export type { GuardedHttpServer, HttpGuardOptions, BodyOutcome } from "./http-guard.js";
