import { errorMessage, withDeadline } from "../core/index.js";
import type { KernelToolHandler, KernelToolSpec } from "../kernel/index.js";
import { decodeToolResult } from "./decode-tool-result.js";
import {
  pythonAttributeName,
  pythonParameters,
  renderPythonDocstring,
  renderPythonSignature,
} from "./render-tool.js";
import { textResult, type ToolCallResult, type ToolEndpoint } from "./tool-types.js";

/** One routed call, as trajectories and the oracle's direct-call form record it. */
export interface ToolCallRecord {
  name: string;
  args: Record<string, unknown>;
  result: ToolCallResult;
  isError: boolean;
  durationMs: number;
  /** "code" when the program called it through the proxy, "direct" when the model called it as a function. */
  via: "code" | "direct";
}

export interface ToolRouter {
  readonly endpoints: readonly ToolEndpoint[];
  /** Specs for the kernel's `tools` object. */
  readonly kernelTools: KernelToolSpec[];
  /** The kernel's tool-call handler (decodes results for Python). */
  readonly handleKernelCall: KernelToolHandler;
  /** A direct call (DTC): the raw MCP result, never throwing for agent mistakes. */
  callDirect(
    name: string,
    args: unknown,
    options?: { signal?: AbortSignal; timeoutMs?: number },
  ): Promise<ToolCallResult>;
  has(name: string): boolean;
}

export interface ToolRouterOptions {
  /** Each tool call's own deadline (default 30 s); the execution deadline also applies. */
  toolTimeoutMs?: number;
  onCall?: (record: ToolCallRecord) => void;
}

const NEVER_ABORTED = new AbortController().signal;

/** Routes calls by name to in-process or upstream endpoints, with a deadline each, and records them. */
export function createToolRouter(
  endpoints: readonly ToolEndpoint[],
  options: ToolRouterOptions = {},
): ToolRouter {
  const byName = new Map(endpoints.map((endpoint) => [endpoint.name, endpoint]));
  const toolTimeoutMs = options.toolTimeoutMs ?? 30_000;
  const available = (): string => [...byName.keys()].sort().join(", ");

  const invoke = async (
    name: string,
    args: unknown,
    via: "code" | "direct",
    signal: AbortSignal | undefined,
    timeoutMs: number,
  ): Promise<ToolCallResult> => {
    const startedAt = performance.now();
    const endpoint = byName.get(name);
    let result: ToolCallResult;
    if (!endpoint) {
      result = textResult(`Unknown tool '${name}'. Available tools: ${available()}`, true);
    } else if (args === null || typeof args !== "object" || Array.isArray(args)) {
      result = textResult(
        `Invalid arguments for tool '${name}': expected an object of named arguments. Expected: ${renderPythonSignature(endpoint)}`,
        true,
      );
    } else {
      try {
        result = await withDeadline(
          endpoint.call(args as Record<string, unknown>, { signal: signal ?? NEVER_ABORTED, timeoutMs }),
          {
            timeoutMs,
            signal,
            what: `tool '${name}'`,
          },
        );
      } catch (error) {
        result = textResult(`Tool '${name}' failed: ${errorMessage(error)}`, true);
      }
    }
    options.onCall?.({
      name,
      args: (args ?? {}) as Record<string, unknown>,
      result,
      isError: result.isError === true,
      durationMs: performance.now() - startedAt,
      via,
    });
    return result;
  };

  const kernelTools: KernelToolSpec[] = endpoints.map((endpoint) => ({
    name: endpoint.name,
    attr: pythonAttributeName(endpoint.name),
    params: pythonParameters(endpoint.inputSchema).map((parameter) => parameter.name),
    signature: renderPythonSignature(endpoint),
    doc: renderPythonDocstring(endpoint),
  }));

  return {
    endpoints,
    kernelTools,
    handleKernelCall: async (call, callOptions) => {
      const result = await invoke(
        call.name,
        call.args,
        "code",
        callOptions.signal,
        Math.min(toolTimeoutMs, callOptions.timeoutMs),
      );
      const decoded = decodeToolResult(result);
      return decoded.ok ? decoded : { ok: false, error: `${call.name}: ${decoded.error}` };
    },
    callDirect: (name, args, callOptions = {}) =>
      invoke(
        name,
        args ?? {},
        "direct",
        callOptions.signal,
        Math.min(toolTimeoutMs, callOptions.timeoutMs ?? toolTimeoutMs),
      ),
    has: (name) => byName.has(name),
  };
}
