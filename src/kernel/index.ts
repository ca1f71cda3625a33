export { createKernel, DEFAULT_LIMITS, RESTART_NOTE } from "./kernel.js";
export type {
  Kernel,
  KernelOptions,
  KernelStartStage,
  KernelToolSpec,
  KernelToolHandler,
  KernelToolOutcome,
  ExecutionResult,
  ExecutionStatus,
  ExecuteOptions,
} from "./kernel.js";
export { createKernelPool } from "./kernel-pool.js";
export type { KernelPool, KernelPoolOptions } from "./kernel-pool.js";
export {
  composeOutput,
  truncateMiddle,
  stripAnsi,
  DEFAULT_MAX_OUTPUT_CHARS,
  NO_OUTPUT,
} from "./compose-output.js";
export type { OutputParts } from "./compose-output.js";
export {
  assertSandboxAvailable,
  buildSandboxCommand,
  BWRAP_INSTALL_HINT,
  UNSAFE_WARNING,
  SANDBOX_WORKSPACE,
} from "./sandbox.js";
export type { KernelLauncher, ResourceLimits } from "./kernel-process.js";
export { KERNEL_LAUNCHER_VARIABLE } from "./kernel-process.js";
export { assertUsableWorkspace, launcherCommand, setidFilterLaunchCommand } from "./workspace-mount.js";
export type { LaunchRlimits } from "./workspace-mount.js";
export {
  createSandboxBudget,
  describeSandboxLimits,
  formatBytes,
  SANDBOX_LIMITS_VARIABLE,
} from "./sandbox-limits.js";
export type {
  SandboxBudget,
  SandboxLimitsReport,
  SandboxLimitMechanism,
  BudgetViolation,
} from "./sandbox-limits.js";
