export { SCALES, scaleSchema, SCALE_FACTORS, PAPER_SCALE_MEANS, parseScaleList } from "./scale.js";
export type { Scale } from "./scale.js";
export { defineDomain } from "./define-domain.js";
export type { DomainDefinition, DomainTool, GenerateContext, ToolContext } from "./define-domain.js";
export { defineTask } from "./define-task.js";
export type { TaskDefinition, VerifyContext, StateView, Check, Verdict, NearMiss } from "./define-task.js";
export {
  check,
  diffTable,
  tableNames,
  checkOtherTablesUnchanged,
  parseAnswerNumber,
  parseAnswerJson,
  parseAnswerList,
  nearlyEqual,
} from "./verify-helpers.js";
export type { Row, TableDiff } from "./verify-helpers.js";
export {
  WORKSPACE_READ_TOOLS,
  WORKSPACE_WRITE_TOOL,
  resolveWorkspacePath,
  listWorkspaceFiles,
} from "./workspace-tools.js";
