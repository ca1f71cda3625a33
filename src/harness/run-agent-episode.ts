import { randomUUID } from "node:crypto";
import { errorMessage } from "../core/index.js";
import {
  type DriverCallOutcome,
  type InterfaceProfileName,
  type EpisodeDriver,
  type HarnessMode,
  type Scale,
  type Task,
} from "../envs/index.js";
import type { KernelOptions, KernelPool } from "../kernel/index.js";
import type { CompletionResponse, FunctionTool, ModelClient } from "./model-client.js";
import { openAgentEpisode } from "./open-episode.js";
import {
  createTokenCounter,
  openConversationCounter,
  type ConversationCounter,
  type ConversationCounterSource,
  type TokenCounter,
} from "./token-counter.js";
import {
  TRAJECTORY_SCHEMA_VERSION,
  type ChatMessage,
  type CodeBlock,
  type EndReason,
  type ToolCallEntry,
  type Trajectory,
  type TurnRecord,
} from "./trajectory.js";

import { DEFAULT_AGENT_LIMITS, type AgentLimits } from "./agent-limits.js";

export { DEFAULT_AGENT_LIMITS, type AgentLimits };

export interface AgentEpisodeOptions {
  task: Task;
  scale: Scale;
  seed: number;
  mode: HarnessMode;
  client: ModelClient;
  runId: string;
  sample: number;
  limits?: Partial<AgentLimits>;
  pool?: KernelPool;
  kernelOptions?: Omit<KernelOptions, "workspaceDir" | "tools" | "onToolCall">;
  /** Counts tokens (default: a Qwen3 counter in this thread); a counting worker counts beside it. */
  tokenCounter?: TokenCounter | ConversationCounterSource;
  temperature?: number;
  cacheDir?: string;
  signal?: AbortSignal;
  /** Show the verifier's check messages (expected values) to the model in claim_done's reply: debugging only. */
  revealVerdict?: boolean;
  /** How the meta-tools are presented (default `default`; `paper`: as the paper's runtime did). */
  interface?: InterfaceProfileName;
  /** Offer `terminal` (ls, find, cat in the workspace); default: the profile's choice. */
  terminal?: boolean;
}

/** The state of one running episode, shared by the phases of the loop. */
interface EpisodeRun {
  readonly options: AgentEpisodeOptions;
  readonly limits: AgentLimits;
  readonly tokenizerName: string;
  readonly counts: ConversationCounter;
  readonly driver: EpisodeDriver;
  readonly tools: FunctionTool[];
  readonly messages: ChatMessage[];
  readonly turns: TurnRecord[];
  readonly toolCalls: ToolCallEntry[];
  readonly codeBlocks: CodeBlock[];
  readonly signal: AbortSignal;
  readonly startedAt: Date;
  readonly started: number;
  turn: number;
  contextTokens: number;
  toolOutputTokens: number;
  endReason: EndReason | undefined;
  failure: string | null;
}

/** One model turn being accounted: when it started, the context it was sent, what it added. */
interface TurnInProgress {
  started: number;
  /** Where the turn's messages start in the conversation (its assistant message). */
  firstMessage: number;
  contextTokens: number;
  completionTokens: number;
  toolOutputTokens: number;
}

/** Runs one agent episode under a harness mode and returns its trajectory (never throws for agent or model failures). */
export async function runAgentEpisode(options: AgentEpisodeOptions): Promise<Trajectory> {
  const run = await prepareEpisode(options);
  try {
    while (!(run.endReason ??= stopReasonBeforeTurn(run))) {
      const turn = beginTurn(run);
      const response = await callModel(run);
      if (!response) break;
      run.messages.push(response.message);
      await dispatchToolCalls(run, response.message.tool_calls ?? []);
      await endTurn(run, turn, response);
    }
  } catch (error) {
    run.failure = errorMessage(error);
    run.endReason ??= "model_error";
  } finally {
    run.counts.close();
    await run.driver.dispose();
  }
  return toTrajectory(run);
}

/** Prepare: the episode and its driver, the tools and the first two messages, the context they fill. */
async function prepareEpisode(options: AgentEpisodeOptions): Promise<EpisodeRun> {
  const limits = { ...DEFAULT_AGENT_LIMITS, ...options.limits };
  const tokens = options.tokenCounter ?? createTokenCounter();
  const startedAt = new Date();
  const started = performance.now();
  const toolCalls: ToolCallEntry[] = [];
  let currentTurn = 0;
  const { driver, tools, messages } = await openAgentEpisode({
    task: options.task,
    scale: options.scale,
    seed: options.seed,
    mode: options.mode,
    executionTimeoutMs: limits.executionTimeoutMs,
    maxToolCalls: limits.maxToolCalls,
    ...(options.terminal === undefined ? {} : { terminal: options.terminal }),
    ...(options.interface ? { interface: options.interface } : {}),
    revealVerdict: options.revealVerdict === true,
    ...(options.pool ? { pool: options.pool } : {}),
    ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}),
    ...(options.kernelOptions ? { kernelOptions: options.kernelOptions } : {}),
    onCall: (record) =>
      toolCalls.push({
        turn: currentTurn,
        name: record.name,
        args: record.args,
        via: record.via,
        isError: record.isError,
        durationMs: Math.round(record.durationMs * 100) / 100,
      }),
  });
  const counts = openConversationCounter(tokens, tools);
  let contextTokens: number;
  try {
    contextTokens = (await counts.turn(messages, [])).contextTokens;
  } catch (error) {
    counts.close();
    await driver.dispose();
    throw error;
  }
  const wallClock = AbortSignal.timeout(limits.wallClockMs);
  const run: EpisodeRun = {
    options,
    limits,
    tokenizerName: tokens.tokenizerName,
    counts,
    driver,
    tools,
    messages,
    turns: [],
    toolCalls,
    codeBlocks: [],
    signal: options.signal ? AbortSignal.any([options.signal, wallClock]) : wallClock,
    startedAt,
    started,
    get turn() {
      return currentTurn;
    },
    set turn(value) {
      currentTurn = value;
    },
    contextTokens,
    toolOutputTokens: 0,
    endReason: undefined,
    failure: null,
  };
  return run;
}

/** Decide to stop (before a turn): the turn limit, the wall clock, the context window. */
function stopReasonBeforeTurn(run: EpisodeRun): EndReason | undefined {
  if (run.turn >= run.limits.maxTurns) return "max_turns";
  if (run.signal.aborted) return "wall_clock";
  if (run.contextTokens > run.limits.contextWindowTokens) return "context_limit";
  return undefined;
}

function beginTurn(run: EpisodeRun): TurnInProgress {
  return {
    started: performance.now(),
    firstMessage: run.messages.length,
    contextTokens: run.contextTokens,
    completionTokens: 0,
    toolOutputTokens: 0,
  };
}

/** Call the model; a failure ends the episode (model error, or the wall clock if that is what stopped it). */
async function callModel(run: EpisodeRun): Promise<CompletionResponse | undefined> {
  try {
    return await run.options.client.complete({
      messages: run.messages,
      tools: run.tools,
      maxTokens: run.limits.maxTokensPerTurn,
      ...(run.options.temperature === undefined ? {} : { temperature: run.options.temperature }),
      signal: run.signal,
    });
  } catch (error) {
    run.endReason = run.signal.aborted ? "wall_clock" : "model_error";
    run.failure = errorMessage(error);
    return undefined;
  }
}

/** Dispatch the turn's tool calls through the driver, in order, until one ends the episode. */
async function dispatchToolCalls(
  run: EpisodeRun,
  calls: NonNullable<ChatMessage["tool_calls"]>,
): Promise<void> {
  for (const call of calls) {
    if (run.endReason) break;
    const outcome = await run.driver.call(call.function.name, call.function.arguments, {
      signal: run.signal,
    });
    if (outcome.kind === "tool_call_limit") {
      run.endReason = "max_tool_calls";
      break;
    }
    recordOutcome(run, outcome);
    run.messages.push({ role: "tool", tool_call_id: call.id, content: outcome.text });
    if (outcome.endReason === "claim_done") run.endReason = "claim_done";
  }
}

/** Account what the trajectory keeps of one call beyond its message: the code block, or the terminal call. */
function recordOutcome(run: EpisodeRun, outcome: DriverCallOutcome): void {
  if (outcome.terminal) {
    run.toolCalls.push({
      turn: run.turn,
      name: outcome.name,
      args: { command: outcome.terminal.command },
      via: "direct",
      isError: outcome.result.isError === true,
      durationMs: Math.round(outcome.terminal.durationMs * 100) / 100,
    });
  }
  if (!outcome.execution) return;
  const { code, result } = outcome.execution;
  run.codeBlocks.push({
    turn: run.turn,
    code,
    status: result.status,
    output: result.text,
    errorType: result.error?.type ?? null,
    toolCallCount: result.toolCallCount,
    durationMs: result.durationMs,
  });
}

/**
 * Account the turn: the context it leaves (counted by the template, which decides the context-limit stop), its
 * tool outputs, and the tokens the model generated (the endpoint's usage, else the template's count). A reply
 * without tool calls ends the episode.
 */
async function endTurn(run: EpisodeRun, turn: TurnInProgress, response: CompletionResponse): Promise<void> {
  const usageTokens = response.usage?.completionTokens;
  const toolMessages: number[] = [];
  for (let index = turn.firstMessage + 1; index < run.messages.length; index += 1) toolMessages.push(index);
  const counted = await run.counts.turn(
    run.messages,
    usageTokens === undefined ? [...toolMessages, turn.firstMessage] : toolMessages,
  );
  run.contextTokens = counted.contextTokens;
  turn.toolOutputTokens = counted.messageTokens
    .slice(0, toolMessages.length)
    .reduce((sum, tokens) => sum + tokens, 0);
  run.toolOutputTokens += turn.toolOutputTokens;
  turn.completionTokens = usageTokens ?? counted.messageTokens[toolMessages.length]!;
  if ((response.message.tool_calls ?? []).length === 0)
    run.endReason ??=
      response.finishReason === "length" || turn.completionTokens >= run.limits.maxTokensPerTurn
        ? "max_tokens_per_turn"
        : "no_tool_calls";
  run.turns.push({
    index: run.turn,
    contextTokens: turn.contextTokens,
    completionTokens: turn.completionTokens,
    toolOutputTokens: turn.toolOutputTokens,
    durationMs: Math.round(performance.now() - turn.started),
    finishReason: response.finishReason ?? null,
    usage: response.usage ?? null,
  });
  run.turn += 1;
}

function toTrajectory(run: EpisodeRun): Trajectory {
  const { options, driver } = run;
  const verdict = driver.verdict;
  return {
    schemaVersion: TRAJECTORY_SCHEMA_VERSION,
    runId: options.runId,
    episodeId: episodeIdOf(options.task.id, options.scale, options.mode, options.sample),
    task: options.task.id,
    scale: options.scale,
    seed: options.seed,
    harness: options.mode,
    model: options.client.name,
    sample: options.sample,
    messages: run.messages,
    tools: run.tools,
    tokenizer: run.tokenizerName,
    turns: run.turns,
    toolCalls: run.toolCalls,
    codeBlocks: run.codeBlocks,
    runtimeErrors: driver.stats.runtimeErrors,
    refusedDirectCalls: driver.stats.refusedDirectCalls,
    toolOutputTokens: run.toolOutputTokens,
    finalContextTokens: run.contextTokens,
    endReason: run.endReason ?? "model_error",
    answer: driver.answer,
    reward: verdict?.reward ?? 0,
    checks: verdict?.checks ?? [],
    verifierError: verdict?.error ?? null,
    error: run.failure,
    startedAt: run.startedAt.toISOString(),
    durationMs: Math.round(performance.now() - run.started),
    ...(driver.profile.name === "default" ? {} : { interface: driver.profile.name }),
    ...(driver.terminal ? { terminal: true } : {}),
  };
}

export function episodeIdOf(task: string, scale: Scale, mode: HarnessMode, sample: number): string {
  return `${task}|${scale}|${mode}|${sample}`;
}

export function newRunId(): string {
  return `run-${new Date().toISOString().replace(/[:.]/g, "-")}-${randomUUID().slice(0, 8)}`;
}
