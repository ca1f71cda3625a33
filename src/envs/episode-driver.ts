import { HARNESS_MODES, type HarnessMode } from "./names.js";
import { z } from "zod";
import { ERROR_CODES, ProgAgentError, errorMessage } from "../core/index.js";
import type { ExecutionResult } from "../kernel/index.js";
import {
  PTC_TOOL_NAME,
  ptcInputSchema,
  renderPtcToolDescription,
  resultText,
  textResult,
  toFunctionTool,
  toolInputJsonSchema,
  type ToolCallResult,
  type ToolSpec,
} from "../runtime/index.js";
import { CLAIM_DONE_TOOL_NAME, claimDoneAnswer, formatVerdict } from "./claim-done.js";
import type { Verdict } from "./define-task.js";
import type { Episode } from "./assemble-episode.js";
import type { ReplacedCodeTool } from "./define-external-task.js";
import { interfaceProfile, type InterfaceProfile, type InterfaceProfileName } from "./interface-profile.js";
import { errnoCode } from "./workspace-path.js";
import {
  TERMINAL_ALLOWED,
  TERMINAL_TOOL_NAME,
  parseTerminalCommand,
  refusedTerminalMessage,
} from "./terminal.js";

export { HARNESS_MODES, type HarnessMode };
export const harnessModeSchema = z.enum(HARNESS_MODES);

/** The short description of `programmatic_tool_call` when the system prompt documents the runtime and the tools. */
const PTC_SHORT_DESCRIPTION =
  "Run Python code in the persistent sandboxed kernel (see the system prompt for the available tools).";

const ENDED_WHILE_RUNNING = "[The episode ended (claim_done) while this call was running.]";

export interface EpisodeDriverOptions {
  mode: HarnessMode;
  /** Deadline of one code execution or terminal command (default: the kernel's, 60 s). */
  timeoutMs?: number;
  /** How the meta-tools are presented (default `default`); see `interfaceProfile`. */
  interface?: InterfaceProfileName;
  /** Offer `terminal` (ls, find, cat in the workspace); default: the profile's choice. Needs a kernel. */
  terminal?: boolean;
  /** Calls beyond this end the episode with `max_tool_calls` (default: no limit). */
  maxToolCalls?: number;
  /**
   * Where the runtime and the environment tools are documented in PTC and hybrid modes: in the description
   * of `programmatic_tool_call` (default; MCP clients have nothing else), or in a system prompt the caller
   * renders (the tool then carries a short description).
   */
  ptcDocumentation?: "tool" | "system_prompt";
  /** Show the verifier's check messages (which may hold expected values) in claim_done's reply: debugging only. */
  revealVerdict?: boolean;
}

/** What one dispatched call was. */
export type DriverCallKind =
  | "environment"
  | "code"
  | "terminal"
  | "claim_done"
  | "refused_direct_call"
  | "invalid_arguments"
  | "unknown_tool"
  | "episode_over"
  | "tool_call_limit";

export interface DriverCallOutcome {
  name: string;
  kind: DriverCallKind;
  /** What the model reads. */
  text: string;
  /** The same as an MCP result (an environment tool's own result, with its structured content). */
  result: ToolCallResult;
  /** A PTC runtime error: failed code, code without `code`, or a refused direct call. */
  runtimeError: boolean;
  /** The code that ran and how it ended (kind `code`). */
  execution?: { code: string; result: ExecutionResult };
  /** The command, the argv that ran (null when refused) and how it ended (kind `terminal`). */
  terminal?: { command: string; argv: string[] | null; result: ExecutionResult | null; durationMs: number };
  /** The verdict and the recorded answer (kind `claim_done`). */
  verdict?: Verdict;
  answer?: string;
  /** Set when this call ended the episode. */
  endReason?: "claim_done" | "max_tool_calls";
}

export interface EpisodeDriverStats {
  /** Calls dispatched (every name, including claim_done and refused ones). */
  toolCalls: number;
  codeBlocks: number;
  /** Failed code blocks plus refused direct calls (the paper's PTC errors). */
  runtimeErrors: number;
  /** Direct calls to environment tools refused in PTC mode. */
  refusedDirectCalls: number;
  /** terminal calls, refused ones included. */
  terminalCommands: number;
}

export interface DriverCallOptions {
  signal?: AbortSignal;
}

/**
 * Drives one episode under a harness mode: the tools the mode offers, dispatch by name, per-call deadlines,
 * the tool-call limit, accounting and the end by `claim_done`. The harness loop, `env serve` and the rollout
 * service all dispatch through it.
 */
export interface EpisodeDriver {
  readonly episode: Episode;
  readonly mode: HarnessMode;
  readonly profile: InterfaceProfile;
  /** Whether `terminal` is offered. */
  readonly terminal: boolean;
  /** The tools offered, in order: the environment tools (not in PTC), programmatic_tool_call (not in DTC), claim_done. */
  readonly tools: readonly ToolSpec[];
  /** Every name the driver answers to (what an unknown-tool error lists). */
  readonly knownToolNames: readonly string[];
  readonly stats: Readonly<EpisodeDriverStats>;
  /** Why the episode ended, or undefined while it runs. */
  readonly endReason: "claim_done" | "max_tool_calls" | undefined;
  readonly verdict: Verdict | undefined;
  readonly answer: string | null;
  /** The tools as OpenAI function schemas. */
  functionTools(): Array<ReturnType<typeof toFunctionTool>>;
  /** Dispatches one call; `args` is an object or its JSON text. Agent mistakes come back as outcomes, never as throws. */
  call(name: string, args: unknown, options?: DriverCallOptions): Promise<DriverCallOutcome>;
  dispose(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** The message a PTC-mode agent gets for a direct call to an environment tool: the call rewritten as code. */
export function refusedDirectCallMessage(name: string, args: unknown): string {
  let example = "...";
  try {
    const parsed = (typeof args === "string" ? JSON.parse(args) : args) as Record<string, unknown>;
    example = Object.entries(parsed)
      .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
      .join(", ");
  } catch {
    // keep the placeholder
  }
  return (
    `Error: '${name}' cannot be called directly in this mode. Call it from code with ${PTC_TOOL_NAME}, for example:\n` +
    `result = tools["${name}"](${example})\nprint(result)`
  );
}

/** Arguments as an object: a JSON text is parsed (an empty text is `{}`); anything but an object is an error. */
function parseArguments(
  name: string,
  args: unknown,
): { ok: true; args: Record<string, unknown> } | { ok: false; text: string } {
  let value: unknown = args ?? {};
  try {
    if (typeof value === "string") value = JSON.parse(value || "{}") as unknown;
    if (value === null || typeof value !== "object" || Array.isArray(value))
      throw new Error("arguments must be a JSON object");
    return { ok: true, args: value as Record<string, unknown> };
  } catch (error) {
    return {
      ok: false,
      text: `Error: the arguments of '${name}' are not a valid JSON object (${errorMessage(error)}). Send the arguments as a JSON object.`,
    };
  }
}

/**
 * The tools a mode offers over these environment tools, in order: the environment tools (not in PTC),
 * programmatic_tool_call (not in DTC), terminal when offered, claim_done. What the driver offers, and what a
 * prompt built without an episode (an RL dataset row) shows.
 */
export function modeToolSpecs(
  endpoints: readonly ToolSpec[],
  options: Pick<
    EpisodeDriverOptions,
    "mode" | "timeoutMs" | "interface" | "terminal" | "ptcDocumentation"
  > & {
    /** An external suite's own code tool, offered under DTC after the environment tools. */
    codeTool?: ToolSpec;
  },
): ToolSpec[] {
  const profile = interfaceProfile(options.interface);
  const terminal = options.terminal ?? profile.terminalByDefault;
  const timeoutSeconds = Math.round((options.timeoutMs ?? 60_000) / 1000);
  const ptcSpec: ToolSpec = {
    name: PTC_TOOL_NAME,
    description:
      options.ptcDocumentation === "system_prompt"
        ? PTC_SHORT_DESCRIPTION
        : renderPtcToolDescription(endpoints, { timeoutSeconds }),
    inputSchema: toolInputJsonSchema(ptcInputSchema),
  };
  return [
    ...(options.mode === "ptc" ? [] : endpoints),
    ...(options.mode === "dtc" && options.codeTool ? [options.codeTool] : []),
    ...(options.mode === "dtc" ? [] : [ptcSpec]),
    ...(terminal ? [profile.terminal] : []),
    profile.claimDone,
  ];
}

/** A replaced code tool as the model sees it: the suite's name, description and schema. */
function codeToolSpec(tool: ReplacedCodeTool): ToolSpec {
  return { name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
}

export function createEpisodeDriver(episode: Episode, options: EpisodeDriverOptions): EpisodeDriver {
  const { mode } = options;
  const profile = interfaceProfile(options.interface);
  const terminal = options.terminal ?? profile.terminalByDefault;
  if ((mode !== "dtc" || terminal) && !episode.hasKernel)
    throw new ProgAgentError(
      `${terminal ? "terminal" : `mode '${mode}'`} runs in the sandbox: create the episode with withKernel: true`,
      { code: ERROR_CODES.INVALID_ARGUMENT, category: "system" },
    );
  // The suite's own code tool (external tasks) stands in for programmatic_tool_call under DTC.
  const codeTool = mode === "dtc" ? episode.codeTool : undefined;
  const tools = modeToolSpecs(episode.endpoints, {
    ...options,
    terminal,
    ...(codeTool ? { codeTool: codeToolSpec(codeTool) } : {}),
  });
  const knownToolNames = [
    ...episode.endpoints.map((tool) => tool.name),
    ...(codeTool ? [codeTool.name] : []),
    ...(mode === "dtc" ? [] : [PTC_TOOL_NAME]),
    ...(terminal ? [TERMINAL_TOOL_NAME] : []),
    CLAIM_DONE_TOOL_NAME,
  ];
  const stats: EpisodeDriverStats = {
    toolCalls: 0,
    codeBlocks: 0,
    runtimeErrors: 0,
    refusedDirectCalls: 0,
    terminalCommands: 0,
  };
  let endReason: EpisodeDriver["endReason"];
  let verdict: Verdict | undefined;
  let answer: string | null = null;

  const outcome = (
    name: string,
    kind: DriverCallKind,
    text: string,
    extra: Partial<DriverCallOutcome> & { isError?: boolean } = {},
  ): DriverCallOutcome => {
    const { isError, ...rest } = extra;
    return { name, kind, text, result: textResult(text, isError ?? false), runtimeError: false, ...rest };
  };

  const runCode = async (
    args: Record<string, unknown>,
    callOptions: DriverCallOptions,
    tool: { name: string; codeArgument: string } = { name: PTC_TOOL_NAME, codeArgument: "code" },
  ): Promise<DriverCallOutcome> => {
    const given = args[tool.codeArgument];
    const code = typeof given === "string" ? given : null;
    if (code === null) {
      stats.runtimeErrors += 1;
      return outcome(
        tool.name,
        "invalid_arguments",
        `Error: ${tool.name} expects {"${tool.codeArgument}": string}.`,
        {
          isError: true,
          runtimeError: true,
        },
      );
    }
    const result = await episode.execute(code, {
      ...(callOptions.signal ? { signal: callOptions.signal } : {}),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    });
    stats.codeBlocks += 1;
    const failed = result.status !== "ok";
    if (failed) stats.runtimeErrors += 1;
    // claim_done arrived while this code ran: it was interrupted (or never started) and the episode is over.
    const text = episode.finished ? `${result.text}\n${ENDED_WHILE_RUNNING}` : result.text;
    return outcome(tool.name, "code", text, { runtimeError: failed, execution: { code, result } });
  };

  const runTerminal = async (
    args: Record<string, unknown>,
    callOptions: DriverCallOptions,
  ): Promise<DriverCallOutcome> => {
    stats.terminalCommands += 1;
    if (typeof args.command !== "string")
      return outcome(
        TERMINAL_TOOL_NAME,
        "invalid_arguments",
        `Error: ${TERMINAL_TOOL_NAME} expects {"command": string}; ${TERMINAL_ALLOWED}.`,
        { isError: true },
      );
    const command = args.command;
    const started = performance.now();
    let parsed: ReturnType<typeof parseTerminalCommand>;
    try {
      parsed = parseTerminalCommand(command, episode.workspaceDir);
    } catch (error) {
      // A check that fails is the tool's error in the episode, never the server's (and it names no host path).
      parsed = {
        ok: false,
        reason: `the command (it could not be checked: ${errnoCode(error) ?? "an error"})`,
      };
    }
    if (!parsed.ok)
      return outcome(TERMINAL_TOOL_NAME, "terminal", refusedTerminalMessage(parsed.reason), {
        isError: true,
        terminal: { command, argv: null, result: null, durationMs: performance.now() - started },
      });
    const result = await episode.runCommand(parsed.argv, {
      ...(callOptions.signal ? { signal: callOptions.signal } : {}),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    });
    const text = episode.finished ? `${result.text}\n${ENDED_WHILE_RUNNING}` : result.text;
    return outcome(TERMINAL_TOOL_NAME, "terminal", text, {
      isError: result.status !== "ok",
      terminal: { command, argv: parsed.argv, result, durationMs: performance.now() - started },
    });
  };

  const claimDone = async (args: Record<string, unknown>): Promise<DriverCallOutcome> => {
    const given = claimDoneAnswer(args, profile.claimDoneArgument);
    if (!given.ok) return outcome(CLAIM_DONE_TOOL_NAME, "invalid_arguments", given.text, { isError: true });
    answer = given.answer;
    verdict = await episode.finish(given.answer);
    endReason = "claim_done";
    return outcome(
      CLAIM_DONE_TOOL_NAME,
      "claim_done",
      formatVerdict(verdict, { reveal: options.revealVerdict === true }),
      { verdict, answer: given.answer, endReason },
    );
  };

  const dispatch = async (
    name: string,
    args: Record<string, unknown>,
    rawArgs: unknown,
    callOptions: DriverCallOptions,
  ): Promise<DriverCallOutcome> => {
    if (name === CLAIM_DONE_TOOL_NAME) return await claimDone(args);
    if (name === PTC_TOOL_NAME && mode !== "dtc") return await runCode(args, callOptions);
    if (codeTool && name === codeTool.name) return await runCode(args, callOptions, codeTool);
    if (name === TERMINAL_TOOL_NAME && terminal) return await runTerminal(args, callOptions);
    if (episode.router.has(name)) {
      if (mode === "ptc") {
        stats.refusedDirectCalls += 1;
        stats.runtimeErrors += 1;
        return outcome(name, "refused_direct_call", refusedDirectCallMessage(name, rawArgs), {
          isError: true,
          runtimeError: true,
        });
      }
      const result = await episode.callTool(
        name,
        args,
        callOptions.signal ? { signal: callOptions.signal } : {},
      );
      return { name, kind: "environment", text: resultText(result), result, runtimeError: false };
    }
    return outcome(
      name,
      "unknown_tool",
      `Error: unknown tool '${name}'. Available tools: ${knownToolNames.join(", ")}`,
      { isError: true },
    );
  };

  const dispose = (): Promise<void> => episode.dispose();

  return {
    episode,
    mode,
    profile,
    terminal,
    tools,
    knownToolNames,
    stats,
    get endReason() {
      return endReason;
    },
    get verdict() {
      return verdict;
    },
    get answer() {
      return answer;
    },
    functionTools: () => tools.map((spec) => toFunctionTool(spec)),
    async call(name, args, callOptions = {}) {
      if (endReason !== undefined || episode.finished) {
        const why =
          endReason === "max_tool_calls"
            ? "the tool-call limit was reached"
            : "claim_done was already called";
        return outcome(name, "episode_over", `The episode is over: ${why}.`, { isError: true });
      }
      if (options.maxToolCalls !== undefined && stats.toolCalls >= options.maxToolCalls) {
        endReason = "max_tool_calls";
        return outcome(
          name,
          "tool_call_limit",
          `The episode is over: the limit of ${options.maxToolCalls} tool calls was reached.`,
          { isError: true, endReason },
        );
      }
      stats.toolCalls += 1;
      const parsed = parseArguments(name, args);
      if (!parsed.ok) return outcome(name, "invalid_arguments", parsed.text, { isError: true });
      return await dispatch(name, parsed.args, args, callOptions);
    },
    dispose,
    [Symbol.asyncDispose]: dispose,
  };
}
