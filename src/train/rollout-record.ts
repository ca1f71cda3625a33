import { randomUUID } from "node:crypto";
import { appendFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { DriverCallOutcome, EpisodeDriver, HarnessMode, Scale } from "../envs/index.js";
import {
  createCountingWorker,
  type ChatMessage,
  type CountingWorker,
  type FunctionTool,
  type Trajectory,
} from "../harness/index.js";
import { TRAJECTORY_SCHEMA_VERSION } from "../harness/trajectory.js";
import type { ToolCallRecord } from "../runtime/index.js";
import type { EndReason } from "./rollout-answers.js";

/** What the service knows of an episode when it opens. */
export interface RecordedEpisodeStart {
  id: string;
  task: string;
  scale: Scale;
  seed: number;
  mode: HarnessMode;
  /** The trainer's step, when the client sent one. */
  step: number | undefined;
  createdAt: number;
}

/** What the service knows of an episode when it ends, before its history is let go. */
export interface RecordedEpisodeEnd {
  messages: readonly ChatMessage[];
  endReason: EndReason;
  reward: number;
  driver: EpisodeDriver;
}

/** The hooks of one episode being recorded. */
export interface EpisodeRecording {
  /** Environment tool calls, direct and from code (openAgentEpisode's `onCall`). */
  onCall(record: ToolCallRecord): void;
  /** The driver, watched: each call's outcome is kept (code blocks, the last result the history may not hold). */
  watch(driver: EpisodeDriver, currentTurn: () => number): EpisodeDriver;
  /** The episode ended: it is counted and appended off the step's path. */
  finished(end: RecordedEpisodeEnd): void;
}

/**
 * `rollout serve --record <dir>`: appends every finished episode to `<dir>/trajectories.jsonl` as a trajectory
 * (schema version 2, so `progagent view`, `report` and `export sft` read it) with a `rollout` field: the
 * service's own end reason, the trainer's step and the service's episode id.
 */
export interface RolloutRecorder {
  readonly path: string;
  /** Episodes appended, and episodes that could not be (their error is in `lastError`). */
  readonly written: number;
  readonly failed: number;
  readonly lastError: string | undefined;
  open(start: RecordedEpisodeStart): EpisodeRecording;
  /** Waits for the episodes being written, then ends the counting thread. */
  close(): Promise<void>;
}

export interface RolloutRecorderOptions {
  dir: string;
  /** The tokenizer token counts come from (a folder; default the built-in Qwen3). */
  tokenizer?: string;
  /** The records' `model` (the service does not know the trainer's model). */
  model?: string;
}

/**
 * The harness's end reason for each of the service's (which stays in `rollout.endReason`): limits of time to
 * wall_clock, limits of history to context_limit, and `deleted` (the trainer ended it, at its own turn or
 * length limit) to max_turns.
 */
const END_REASON_OF: Record<EndReason, Trajectory["endReason"]> = {
  claim_done: "claim_done",
  no_tool_calls: "no_tool_calls",
  max_tool_calls: "max_tool_calls",
  max_turns: "max_turns",
  deleted: "max_turns",
  wall_clock: "wall_clock",
  idle_timeout: "wall_clock",
  service_shutdown: "wall_clock",
  tokenizer_deadline: "wall_clock",
  max_history_bytes: "context_limit",
  history_budget: "context_limit",
};

export function createRolloutRecorder(options: RolloutRecorderOptions): RolloutRecorder {
  const path = join(options.dir, "trajectories.jsonl");
  const runId = `rollout-${new Date().toISOString().replace(/[:.]/g, "-")}-${randomUUID().slice(0, 8)}`;
  let counting: CountingWorker | undefined;
  let queue: Promise<void> = mkdir(options.dir, { recursive: true }).then(() => undefined);
  let written = 0;
  let failed = 0;
  let lastError: string | undefined;
  const samples = new Map<string, number>();

  const countingWorker = (): CountingWorker => {
    counting ??= createCountingWorker(
      options.tokenizer === undefined ? {} : { tokenizer: options.tokenizer },
    );
    return counting;
  };

  /** Appends one record after those before it; a failure is counted, never thrown at the service. */
  const append = (build: () => Promise<Trajectory & { rollout: Record<string, unknown> }>): void => {
    queue = queue
      .then(async () => {
        const record = await build();
        await appendFile(path, `${JSON.stringify(record)}\n`);
        written += 1;
      })
      .catch((error: unknown) => {
        failed += 1;
        lastError = (error as Error).message;
      });
  };

  return {
    path,
    get written() {
      return written;
    },
    get failed() {
      return failed;
    },
    get lastError() {
      return lastError;
    },
    open(start) {
      const calls: Array<{ turn: number; record: ToolCallRecord }> = [];
      const outcomes: Array<{ turn: number; outcome: DriverCallOutcome }> = [];
      let turnOf = (): number => 0;
      const key = `${start.task}|${start.scale}|${start.seed}|${start.mode}|${start.step ?? ""}`;
      const sample = samples.get(key) ?? 0;
      samples.set(key, sample + 1);
      return {
        onCall: (record) => calls.push({ turn: turnOf(), record }),
        watch(driver, currentTurn) {
          turnOf = () => Math.max(0, currentTurn() - 1);
          return new Proxy(driver, {
            get(target, property) {
              const value = Reflect.get(target, property) as unknown;
              if (property !== "call")
                return typeof value === "function" ? (value as () => unknown).bind(target) : value;
              return async (...args: Parameters<EpisodeDriver["call"]>) => {
                const outcome = await target.call(...args);
                outcomes.push({ turn: turnOf(), outcome });
                return outcome;
              };
            },
          });
        },
        finished(end) {
          const endedAt = Date.now();
          // The history is let go once this returns: keep a copy of the array (its messages are not changed).
          const messages = [...end.messages];
          const facts = {
            tools: end.driver.functionTools(),
            stats: { ...end.driver.stats },
            verdict: end.driver.verdict,
            answer: end.driver.answer,
            profile: end.driver.profile.name,
            terminal: end.driver.terminal,
          };
          append(async () =>
            buildRecord({
              start,
              end: { ...end, messages },
              facts,
              calls,
              outcomes,
              endedAt,
              runId,
              sample,
              model: options.model ?? "rollout",
              counting: countingWorker(),
            }),
          );
        },
      };
    },
    async close() {
      await queue;
      await counting?.close();
    },
  };
}

interface BuildInput {
  start: RecordedEpisodeStart;
  end: RecordedEpisodeEnd;
  facts: {
    tools: readonly FunctionTool[];
    stats: EpisodeDriver["stats"];
    verdict: EpisodeDriver["verdict"];
    answer: string | null;
    profile: string;
    terminal: boolean;
  };
  calls: ReadonlyArray<{ turn: number; record: ToolCallRecord }>;
  outcomes: ReadonlyArray<{ turn: number; outcome: DriverCallOutcome }>;
  endedAt: number;
  runId: string;
  sample: number;
  model: string;
  counting: CountingWorker;
}

/**
 * The messages as the model saw them: the history the service kept, plus the results it did not keep (the
 * call that ended the episode), matched to the last assistant turn's calls in order.
 */
function completeMessages(messages: readonly ChatMessage[], outcomes: BuildInput["outcomes"]): ChatMessage[] {
  const complete = [...messages];
  const lastAssistant = complete.map((message) => message.role).lastIndexOf("assistant");
  if (lastAssistant < 0) return complete;
  const answered = new Set(
    complete
      .slice(lastAssistant + 1)
      .flatMap((message) => (message.tool_call_id ? [message.tool_call_id] : [])),
  );
  const lastTurn = complete.filter((message) => message.role === "assistant").length - 1;
  const turnOutcomes = outcomes.filter((entry) => entry.turn === lastTurn);
  (complete[lastAssistant]!.tool_calls ?? []).forEach((call, index) => {
    const outcome = turnOutcomes[index]?.outcome;
    if (!answered.has(call.id) && outcome)
      complete.push({ role: "tool", tool_call_id: call.id, content: outcome.text });
  });
  return complete;
}

/** Per-turn token counts in the counting thread: the context each turn saw, what it generated, its tool outputs. */
async function countTurns(
  messages: readonly ChatMessage[],
  tools: readonly FunctionTool[],
  counting: CountingWorker,
): Promise<{ turns: Trajectory["turns"]; toolOutputTokens: number; finalContextTokens: number }> {
  const assistants = messages.flatMap((message, index) => (message.role === "assistant" ? [index] : []));
  const counter = counting.openConversation(tools);
  try {
    let context = (await counter.turn(messages.slice(0, assistants[0] ?? messages.length), [])).contextTokens;
    const turns: Trajectory["turns"] = [];
    let toolOutputTokens = 0;
    for (const [turn, at] of assistants.entries()) {
      const boundary = assistants[turn + 1] ?? messages.length;
      const toolIndices: number[] = [];
      for (let index = at + 1; index < boundary; index += 1) toolIndices.push(index);
      const counted = await counter.turn(messages.slice(0, boundary), [at, ...toolIndices]);
      const outputTokens = counted.messageTokens.slice(1).reduce((sum, tokens) => sum + tokens, 0);
      turns.push({
        index: turn,
        contextTokens: context,
        completionTokens: counted.messageTokens[0] ?? 0,
        toolOutputTokens: outputTokens,
        durationMs: 0,
        finishReason: null,
        usage: null,
      });
      toolOutputTokens += outputTokens;
      context = counted.contextTokens;
    }
    return { turns, toolOutputTokens, finalContextTokens: context };
  } finally {
    counter.close();
  }
}

async function buildRecord(input: BuildInput): Promise<Trajectory & { rollout: Record<string, unknown> }> {
  const { start, end, facts } = input;
  const messages = completeMessages(end.messages, input.outcomes);
  const counted = await countTurns(messages, facts.tools, input.counting);
  await input.counting.ready;
  const codeBlocks: Trajectory["codeBlocks"] = input.outcomes.flatMap(({ turn, outcome }) =>
    outcome.execution
      ? [
          {
            turn,
            code: outcome.execution.code,
            status: outcome.execution.result.status,
            output: outcome.execution.result.text,
            errorType: outcome.execution.result.error?.type ?? null,
            toolCallCount: outcome.execution.result.toolCallCount,
            durationMs: outcome.execution.result.durationMs,
          },
        ]
      : [],
  );
  return {
    schemaVersion: TRAJECTORY_SCHEMA_VERSION,
    runId: input.runId,
    episodeId: start.id,
    task: start.task,
    scale: start.scale,
    seed: start.seed,
    harness: start.mode,
    model: input.model,
    sample: input.sample,
    messages,
    tools: [...facts.tools],
    tokenizer: input.counting.tokenizerName,
    turns: counted.turns,
    toolCalls: input.calls.map(({ turn, record }) => ({
      turn,
      name: record.name,
      args: record.args,
      via: record.via,
      isError: record.isError,
      durationMs: Math.round(record.durationMs * 100) / 100,
    })),
    codeBlocks,
    runtimeErrors: facts.stats.runtimeErrors,
    refusedDirectCalls: facts.stats.refusedDirectCalls,
    toolOutputTokens: counted.toolOutputTokens,
    finalContextTokens: counted.finalContextTokens,
    endReason: END_REASON_OF[end.endReason],
    answer: facts.answer,
    reward: end.reward >= 1 ? 1 : 0,
    checks: facts.verdict?.checks ?? [],
    verifierError: facts.verdict?.error ?? null,
    error: null,
    startedAt: new Date(start.createdAt).toISOString(),
    durationMs: input.endedAt - start.createdAt,
    ...(facts.profile === "default" ? {} : { interface: facts.profile as Trajectory["interface"] }),
    ...(facts.terminal ? { terminal: true } : {}),
    rollout: {
      ...(start.step === undefined ? {} : { step: start.step }),
      endReason: end.endReason,
      serviceEpisodeId: start.id,
    },
  };
}
