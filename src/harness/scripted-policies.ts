import { readFileSync } from "node:fs";
import { ERROR_CODES, ProgAgentError } from "../core/index.js";
import {
  CLAIM_DONE_TOOL_NAME,
  createEpisode,
  runCells,
  type DirectCall,
  type HarnessMode,
  type Scale,
  type TaskDefinition,
} from "../envs/index.js";
import type { KernelPool } from "../kernel/index.js";
import { PTC_TOOL_NAME } from "../runtime/index.js";
import type { CompletionResponse, ModelClient } from "./model-client.js";
import { trajectorySchema, type ChatMessage, type Trajectory } from "./trajectory.js";

function toolCallMessage(index: number, name: string, args: unknown): CompletionResponse {
  return {
    message: {
      role: "assistant",
      content: null,
      tool_calls: [
        { id: `call_${index}`, type: "function", function: { name, arguments: JSON.stringify(args) } },
      ],
    },
  };
}

/** The oracle's run, recorded once per instance: its answer and the direct calls its program made. */
export interface OracleRecording {
  answer: string;
  directCalls: DirectCall[];
}

/** Runs the oracle's cells once in a PTC episode to learn its answer and its direct-call (DTC) form. */
export async function recordOracle(
  task: TaskDefinition,
  scale: Scale,
  seed: number,
  options: { pool?: KernelPool; cacheDir?: string } = {},
): Promise<OracleRecording> {
  await using episode = await createEpisode(task, scale, seed, { withKernel: true, ...options });
  const run = await runCells(episode, task.oracle);
  if (run.failure) {
    throw new ProgAgentError(`the oracle of ${task.id} (${scale}) failed: ${run.failure.slice(0, 500)}`, {
      code: "ORACLE_FAILED",
      category: "system",
    });
  }
  return { answer: run.answer, directCalls: run.directCalls };
}

/**
 * The oracle policy, a scripted model: under PTC and Hybrid it sends the oracle's cells one per turn and
 * claims done with the last cell's output; under DTC it replays the oracle's recorded direct calls one per
 * turn and claims done with the recorded answer.
 */
export function createOraclePolicy(
  task: TaskDefinition,
  mode: HarnessMode,
  recording: OracleRecording | undefined,
): ModelClient {
  return {
    name: "oracle",
    complete: async ({ messages }) => {
      const step = messages.filter((message) => message.role === "assistant").length;
      if (mode === "dtc") {
        if (!recording)
          throw new ProgAgentError("the DTC oracle needs a recording of the oracle's run", {
            code: ERROR_CODES.INVALID_ARGUMENT,
            category: "system",
          });
        const call = recording.directCalls[step];
        if (call) return toolCallMessage(step, call.name, call.args);
        return toolCallMessage(step, CLAIM_DONE_TOOL_NAME, { answer: recording.answer });
      }
      const cell = task.oracle[step];
      if (cell !== undefined) return toolCallMessage(step, PTC_TOOL_NAME, { code: cell });
      const lastOutput = [...messages].reverse().find((message) => message.role === "tool")?.content ?? "";
      return toolCallMessage(step, CLAIM_DONE_TOOL_NAME, {
        answer: lastOutput.trim() === "(no output)" ? "" : lastOutput.trim(),
      });
    },
  };
}

/** Reads a trajectories.jsonl file, validating every line. */
export function readTrajectories(path: string): Trajectory[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ProgAgentError(`cannot read trajectories '${path}': ${(error as Error).message}`, {
      code: ERROR_CODES.FILE_FORMAT_INVALID,
      category: "user",
    });
  }
  return text
    .split("\n")
    .map((line, index) => ({ line, index }))
    .filter(({ line }) => line.trim().length > 0)
    .map(({ line, index }) => {
      const parsed = trajectorySchema.safeParse(JSON.parse(line));
      if (!parsed.success) {
        throw new ProgAgentError(
          `${path}:${index + 1}: not a valid trajectory (${parsed.error.issues[0]?.path.join(".")}: ${parsed.error.issues[0]?.message})`,
          {
            code: ERROR_CODES.FILE_FORMAT_INVALID,
            category: "user",
          },
        );
      }
      return parsed.data;
    });
}

/** Replays the assistant messages of recorded trajectories, matched by task, scale, harness and sample. */
export function createReplaySource(
  path: string,
): (task: string, scale: Scale, mode: HarnessMode, sample: number) => ModelClient {
  const recorded = new Map<string, ChatMessage[]>();
  for (const trajectory of readTrajectories(path)) {
    recorded.set(
      `${trajectory.task}|${trajectory.scale}|${trajectory.harness}|${trajectory.sample}`,
      trajectory.messages.filter((message) => message.role === "assistant"),
    );
  }
  return (task, scale, mode, sample) => {
    const key = `${task}|${scale}|${mode}|${sample}`;
    const assistant = recorded.get(key);
    return {
      name: `replay:${path}`,
      complete: async ({ messages }) => {
        if (!assistant)
          throw new ProgAgentError(`no recorded trajectory for ${key} in ${path}`, {
            code: ERROR_CODES.INVALID_ARGUMENT,
            category: "user",
          });
        const step = messages.filter((message) => message.role === "assistant").length;
        const next = assistant[step];
        if (!next)
          throw new ProgAgentError(`the recorded trajectory ${key} has no assistant message ${step + 1}`, {
            code: ERROR_CODES.INVALID_ARGUMENT,
            category: "user",
          });
        return { message: next };
      },
    };
  };
}
