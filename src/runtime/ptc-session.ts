import { z } from "zod";
import {
  createKernel,
  type ExecuteOptions,
  type ExecutionResult,
  type Kernel,
  type KernelOptions,
} from "../kernel/index.js";
import { renderPythonDoc } from "./render-tool.js";
import { createToolRouter, type ToolCallRecord, type ToolRouter } from "./tool-router.js";
import type { ToolEndpoint, ToolSpec } from "./tool-types.js";

/** The name of the one meta-tool through which programs run, as in the paper. */
export const PTC_TOOL_NAME = "programmatic_tool_call";

export const ptcInputSchema = z.object({
  code: z
    .string()
    .describe(
      "Python code to run in the persistent kernel. Only what it prints (and a trailing expression's value) is returned.",
    ),
});

export interface PtcSession {
  readonly router: ToolRouter;
  readonly kernel: Kernel;
  run(code: string, options?: ExecuteOptions): Promise<ExecutionResult>;
  dispose(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

export interface PtcSessionOptions {
  endpoints: readonly ToolEndpoint[];
  /** A kernel to use (for example from a pool); otherwise one is created from kernelOptions. Owned by the session. */
  kernel?: Kernel;
  kernelOptions?: KernelOptions;
  toolTimeoutMs?: number;
  onCall?: (record: ToolCallRecord) => void;
}

/** A kernel wired to a set of tools through the proxy: the PTC runtime of one episode or MCP session. */
export function createPtcSession(options: PtcSessionOptions): PtcSession {
  const router = createToolRouter(options.endpoints, {
    ...(options.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: options.toolTimeoutMs }),
    ...(options.onCall ? { onCall: options.onCall } : {}),
  });
  const kernel = options.kernel ?? createKernel(options.kernelOptions);
  kernel.setTools(router.kernelTools, router.handleKernelCall);
  const dispose = (): Promise<void> => kernel.dispose();
  return {
    router,
    kernel,
    run: (code, executeOptions) => kernel.execute(code, executeOptions),
    dispose,
    [Symbol.asyncDispose]: dispose,
  };
}

export interface PtcDescriptionOptions {
  timeoutSeconds?: number;
  /** What /workspace holds, after "The working directory (/workspace)" (default: "holds the task's files"). */
  workspaceNote?: string;
  /** Bound on the whole description; descriptions are shortened first, then tools listed by signature only. */
  maxChars?: number;
}

/** The description of `programmatic_tool_call`: how the runtime behaves, then every tool as a Python signature. */
export function renderPtcToolDescription(
  specs: readonly ToolSpec[],
  options: PtcDescriptionOptions = {},
): string {
  const maxChars = options.maxChars ?? 16_000;
  const header = [
    "Run Python code in a persistent, sandboxed Python 3 kernel. Variables, functions and imports persist across calls.",
    'Call tools from code as tools["name"](**kwargs) (or tools.name(...)); they return native Python values (dict, list, str).',
    "A failing tool call raises ToolError, which code can catch. Only what the code prints, plus the value of a trailing",
    "expression, is returned: loop, filter and aggregate in code and print concise results, not raw data.",
    `The working directory (/workspace) ${options.workspaceNote ?? "holds the task's files"}. Each execution is limited to ${options.timeoutSeconds ?? 60} s.`,
    "print(tools) lists the tools; help(tools.name) shows one tool's full documentation.",
    "",
    "Available tools:",
  ].join("\n");
  for (const limit of [2_000, 600, 200, 80]) {
    const body = specs.map((spec) => renderPythonDoc(spec, { maxDescriptionChars: limit })).join("\n\n");
    const text = `${header}\n\n${body}`;
    if (text.length <= maxChars) return text;
  }
  const signatures = specs.map((spec) => `- ${spec.name}`).join("\n");
  return `${header}\n${signatures}`.slice(0, maxChars);
}
