import { abortedError, errorMessage, isPromiseLike, withDeadline } from "../core/index.js";
import type { KernelToolHandler, KernelToolOutcome, KernelToolSpec } from "../kernel/index.js";
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

function decodeForKernel(name: string, result: ToolCallResult): KernelToolOutcome {
  const decoded = decodeToolResult(result);
  return decoded.ok ? decoded : { ok: false, error: `${name}: ${decoded.error}` };
}

/** Routes calls by name to in-process or upstream endpoints, with a deadline each, and records them. */
export function createToolRouter(
  endpoints: readonly ToolEndpoint[],
  options: ToolRouterOptions = {},
): ToolRouter {
  const byName = new Map(endpoints.map((endpoint) => [endpoint.name, endpoint]));
  const toolTimeoutMs = options.toolTimeoutMs ?? 30_000;
  const available = (): string => [...byName.keys()].sort().join(", ");

  const record = (
    name: string,
    args: unknown,
    via: "code" | "direct",
    startedAt: number,
    result: ToolCallResult,
  ): ToolCallResult => {
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

  const failedCall = (name: string, error: unknown): ToolCallResult =>
    textResult(`Tool '${name}' failed: ${errorMessage(error)}`, true);

  /**
   * Routes one call; the result comes back synchronously when the endpoint answered synchronously (an
   * in-process tool with a synchronous handler: no timer could have fired before it returned anyway), otherwise
   * as a promise raced against the call's deadline and signal.
   */
  const invoke = (
    name: string,
    args: unknown,
    via: "code" | "direct",
    signal: AbortSignal | undefined,
    timeoutMs: number,
  ): ToolCallResult | Promise<ToolCallResult> => {
    const startedAt = performance.now();
    const endpoint = byName.get(name);
    if (!endpoint) {
      return record(
        name,
        args,
        via,
        startedAt,
        textResult(`Unknown tool '${name}'. Available tools: ${available()}`, true),
      );
    }
    if (args === null || typeof args !== "object" || Array.isArray(args)) {
      return record(
        name,
        args,
        via,
        startedAt,
        textResult(
          `Invalid arguments for tool '${name}': expected an object of named arguments. Expected: ${renderPythonSignature(endpoint)}`,
          true,
        ),
      );
    }
    const what = `tool '${name}'`;
    if (signal?.aborted)
      return record(name, args, via, startedAt, failedCall(name, abortedError(what, signal.reason)));
    const callOptions = { signal: signal ?? NEVER_ABORTED, timeoutMs };
    let answer: ToolCallResult | Promise<ToolCallResult>;
    try {
      answer = endpoint.callNow
        ? endpoint.callNow(args as Record<string, unknown>, callOptions)
        : endpoint.call(args as Record<string, unknown>, callOptions);
    } catch (error) {
      return record(name, args, via, startedAt, failedCall(name, error));
    }
    if (!isPromiseLike(answer)) return record(name, args, via, startedAt, answer);
    return withDeadline(Promise.resolve(answer), { timeoutMs, signal, what }).then(
      (result) => record(name, args, via, startedAt, result),
      (error: unknown) => record(name, args, via, startedAt, failedCall(name, error)),
    );
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
    handleKernelCall: (call, callOptions) => {
      const answer = invoke(
        call.name,
        call.args,
        "code",
        callOptions.signal,
        Math.min(toolTimeoutMs, callOptions.timeoutMs),
      );
      return isPromiseLike(answer)
        ? answer.then((result) => decodeForKernel(call.name, result))
        : decodeForKernel(call.name, answer);
    },
    callDirect: async (name, args, callOptions = {}) =>
      await invoke(
        name,
        args ?? {},
        "direct",
        callOptions.signal,
        Math.min(toolTimeoutMs, callOptions.timeoutMs ?? toolTimeoutMs),
      ),
    has: (name) => byName.has(name),
  };
}
