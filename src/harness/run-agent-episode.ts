import { randomUUID } from "node:crypto";
import { errorMessage } from "../core/index.js";
import {
  CLAIM_DONE_TOOL_NAME,
  createEpisode,
  formatVerdict,
  type HarnessMode,
  type Scale,
  type TaskDefinition,
  type Verdict,
} from "../envs/index.js";
import type { KernelOptions, KernelPool } from "../kernel/index.js";
import { PTC_TOOL_NAME, resultText } from "../runtime/index.js";
import type { ModelClient } from "./model-client.js";
import { functionToolsFor, refusedDirectCallMessage, renderSystemPrompt } from "./system-prompt.js";
import { createTokenCounter, type TokenCounter } from "./token-counter.js";
import {
  TRAJECTORY_SCHEMA_VERSION,
  type ChatMessage,
  type CodeBlock,
  type EndReason,
  type ToolCallEntry,
  type Trajectory,
  type TurnRecord,
} from "./trajectory.js";

export interface AgentLimits {
  maxTurns: number;
  maxToolCalls: number;
  /** The model's context window; the episode stops before a request would exceed it. */
  contextWindowTokens: number;
  maxTokensPerTurn: number;
  wallClockMs: number;
  /** Per code execution (PTC). */
  executionTimeoutMs: number;
}

export const DEFAULT_AGENT_LIMITS: AgentLimits = {
  maxTurns: 300,
  maxToolCalls: 1000,
  contextWindowTokens: 131_072,
  maxTokensPerTurn: 8_192,
  wallClockMs: 30 * 60_000,
  executionTimeoutMs: 60_000,
};

export interface AgentEpisodeOptions {
  task: TaskDefinition;
  scale: Scale;
  seed: number;
  mode: HarnessMode;
  client: ModelClient;
  runId: string;
  sample: number;
  limits?: Partial<AgentLimits>;
  pool?: KernelPool;
  kernelOptions?: Omit<KernelOptions, "workspaceDir" | "tools" | "onToolCall">;
  tokenCounter?: TokenCounter;
  temperature?: number;
  cacheDir?: string;
  signal?: AbortSignal;
}

/** Runs one agent episode under a harness mode and returns its trajectory (never throws for agent or model failures). */
export async function runAgentEpisode(options: AgentEpisodeOptions): Promise<Trajectory> {
  const limits = { ...DEFAULT_AGENT_LIMITS, ...options.limits };
  const tokens = options.tokenCounter ?? createTokenCounter();
  const startedAt = new Date();
  const started = performance.now();
  let turn = 0;
  const toolCalls: ToolCallEntry[] = [];
  const episode = await createEpisode(options.task, options.scale, options.seed, {
    withKernel: options.mode !== "dtc",
    ...(options.pool ? { pool: options.pool } : {}),
    kernelOptions: { ...options.kernelOptions, timeoutMs: limits.executionTimeoutMs },
    ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}),
    onCall: (record) =>
      toolCalls.push({
        turn,
        name: record.name,
        args: record.args,
        via: record.via,
        isError: record.isError,
        durationMs: Math.round(record.durationMs * 100) / 100,
      }),
  });
  const environmentTools = episode.endpoints;
  const tools = functionToolsFor(options.mode, environmentTools);
  const messages: ChatMessage[] = [
    {
      role: "system",
      content: renderSystemPrompt(
        options.mode,
        environmentTools,
        Math.round(limits.executionTimeoutMs / 1000),
      ),
    },
    { role: "user", content: options.task.instruction },
  ];
  const turns: TurnRecord[] = [];
  const codeBlocks: CodeBlock[] = [];
  let contextTokens = tokens.countContext(messages, tools);
  let toolOutputTokens = 0;
  let runtimeErrors = 0;
  let refusedDirectCalls = 0;
  let callCount = 0;
  let endReason: EndReason | undefined;
  let answer: string | null = null;
  let verdict: Verdict | undefined;
  let failure: string | null = null;
  const wallClock = AbortSignal.timeout(limits.wallClockMs);
  const signal = options.signal ? AbortSignal.any([options.signal, wallClock]) : wallClock;
  const available = [
    ...environmentTools.map((tool) => tool.name),
    ...(options.mode === "dtc" ? [] : [PTC_TOOL_NAME]),
    CLAIM_DONE_TOOL_NAME,
  ];

  try {
    while (!endReason) {
      if (turn >= limits.maxTurns) {
        endReason = "max_turns";
        break;
      }
      if (signal.aborted) {
        endReason = "wall_clock";
        break;
      }
      if (contextTokens > limits.contextWindowTokens) {
        endReason = "context_limit";
        break;
      }
      const turnStarted = performance.now();
      const contextAtTurn = contextTokens;
      let response;
      try {
        response = await options.client.complete({
          messages,
          tools,
          maxTokens: limits.maxTokensPerTurn,
          ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
          signal,
        });
      } catch (error) {
        endReason = signal.aborted ? "wall_clock" : "model_error";
        failure = errorMessage(error);
        break;
      }
      const assistant = response.message;
      messages.push(assistant);
      const assistantTokens = tokens.countMessage(assistant);
      const completionTokens = response.usage?.completionTokens ?? assistantTokens;
      let turnToolTokens = 0;
      const calls = assistant.tool_calls ?? [];
      if (calls.length === 0) {
        endReason =
          response.finishReason === "length" || completionTokens >= limits.maxTokensPerTurn
            ? "max_tokens_per_turn"
            : "no_tool_calls";
      }
      for (const call of calls) {
        if (endReason) break;
        if (callCount >= limits.maxToolCalls) {
          endReason = "max_tool_calls";
          break;
        }
        callCount += 1;
        const name = call.function.name;
        let output: string;
        let args: Record<string, unknown> | undefined;
        try {
          const parsed: unknown = JSON.parse(call.function.arguments || "{}");
          if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
            throw new Error("arguments must be a JSON object");
          args = parsed as Record<string, unknown>;
        } catch (error) {
          args = undefined;
          output = `Error: the arguments of '${name}' are not a valid JSON object (${errorMessage(error)}). Send the arguments as a JSON object.`;
        }
        if (args !== undefined) {
          if (name === CLAIM_DONE_TOOL_NAME) {
            answer = typeof args.answer === "string" ? args.answer : JSON.stringify(args.answer ?? "");
            verdict = await episode.finish(answer);
            output = formatVerdict(verdict);
            endReason = "claim_done";
          } else if (name === PTC_TOOL_NAME && options.mode !== "dtc") {
            const code = typeof args.code === "string" ? args.code : null;
            if (code === null) {
              output = `Error: ${PTC_TOOL_NAME} expects {"code": string}.`;
              runtimeErrors += 1;
            } else {
              const result = await episode.execute(code, { signal });
              output = result.text;
              if (result.status !== "ok") runtimeErrors += 1;
              codeBlocks.push({
                turn,
                code,
                status: result.status,
                output: result.text,
                errorType: result.error?.type ?? null,
                toolCallCount: result.toolCallCount,
                durationMs: result.durationMs,
              });
            }
          } else if (episode.router.has(name)) {
            if (options.mode === "ptc") {
              output = refusedDirectCallMessage(name, call.function.arguments);
              refusedDirectCalls += 1;
              runtimeErrors += 1;
            } else {
              output = resultText(await episode.callTool(name, args, { signal }));
            }
          } else {
            output = `Error: unknown tool '${name}'. Available tools: ${available.join(", ")}`;
          }
        }
        const toolMessage: ChatMessage = { role: "tool", tool_call_id: call.id, content: output! };
        messages.push(toolMessage);
        const messageTokens = tokens.countMessage(toolMessage);
        turnToolTokens += messageTokens;
      }
      toolOutputTokens += turnToolTokens;
      contextTokens = tokens.countContext(messages, tools);
      turns.push({
        index: turn,
        contextTokens: contextAtTurn,
        completionTokens,
        toolOutputTokens: turnToolTokens,
        durationMs: Math.round(performance.now() - turnStarted),
        finishReason: response.finishReason ?? null,
        usage: response.usage ?? null,
      });
      turn += 1;
    }
  } catch (error) {
    failure = errorMessage(error);
    endReason = endReason ?? "model_error";
  } finally {
    await episode.dispose();
  }
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
    messages,
    tools,
    tokenizer: tokens.tokenizerName,
    turns,
    toolCalls,
    codeBlocks,
    runtimeErrors,
    refusedDirectCalls,
    toolOutputTokens,
    finalContextTokens: contextTokens,
    endReason: endReason ?? "model_error",
    answer,
    reward: verdict?.reward ?? 0,
    checks: verdict?.checks ?? [],
    verifierError: verdict?.error ?? null,
    error: failure,
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - started),
  };
}

export function episodeIdOf(task: string, scale: Scale, mode: HarnessMode, sample: number): string {
  return `${task}|${scale}|${mode}|${sample}`;
}

export function newRunId(): string {
  return `run-${new Date().toISOString().replace(/[:.]/g, "-")}-${randomUUID().slice(0, 8)}`;
}
