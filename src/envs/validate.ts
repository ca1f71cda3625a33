import type { ExecutionResult, KernelPool } from "../kernel/index.js";
import type { ToolCallRecord } from "../runtime/index.js";
import { errorMessage } from "../core/index.js";
import {
  isExternalTask,
  type ExternalTaskDefinition,
  type ReferenceVariant,
  type Task,
} from "./define-external-task.js";
import type { TaskDefinition, Verdict } from "./define-task.js";
import { createEpisode, type EpisodeOptions } from "./episode.js";
import { prepareExternalInstance } from "./external-episode.js";
import { runCells } from "./run-cells.js";
import type { Scale } from "./scale.js";

export interface ValidationRow {
  task: string;
  scale: Scale;
  seed: number;
  nullReward: number;
  oracleReward: number;
  /** The oracle's recorded direct calls replayed without a kernel, then its answer. */
  dtcReplayReward: number;
  nearMissRewards: Record<string, number>;
  oracleToolCalls: number;
  ok: boolean;
  problems: string[];
  durationMs: number;
}

/** What one validation episode did, for callers that record transcripts (e.g. to compare two code versions). */
export interface ValidationEpisode {
  /** `null`, `oracle`, `replay` or `near-miss:<id>`. */
  phase: string;
  /** Every tool call of the episode, in order. */
  calls: readonly ToolCallRecord[];
  /** The cells' execution results (empty for the null agent and the replay). */
  cells: readonly ExecutionResult[];
  verdict: Verdict;
}

export interface ValidateOptions {
  pool?: KernelPool;
  cacheDir?: string;
  timeoutMs?: number;
  /** Called after each episode's verdict, before the episode is disposed. */
  onEpisode?: (episode: ValidationEpisode) => void;
}

/**
 * Checks one task instance: the null agent gets 0, the oracle gets 1 (and so does its direct-call replay),
 * every near-miss gets 0.
 */
export async function validateTaskInstance(
  task: TaskDefinition,
  scale: Scale,
  seed: number,
  options: ValidateOptions = {},
): Promise<ValidationRow> {
  const startedAt = Date.now();
  const problems: string[] = [];
  const episodeOptions: EpisodeOptions = {
    ...(options.pool ? { pool: options.pool } : {}),
    ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}),
  };
  const cellOptions = options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs };
  const row: ValidationRow = {
    task: task.id,
    scale,
    seed,
    nullReward: -1,
    oracleReward: -1,
    dtcReplayReward: -1,
    nearMissRewards: {},
    oracleToolCalls: 0,
    ok: false,
    problems,
    durationMs: 0,
  };
  try {
    {
      await using episode = await createEpisode(task, scale, seed, episodeOptions);
      const verdict = await episode.finish("");
      options.onEpisode?.({ phase: "null", calls: episode.calls, cells: [], verdict });
      row.nullReward = verdict.reward;
      if (verdict.reward !== 0) problems.push("the null agent (empty answer, no changes) was rewarded");
      if (verdict.error) problems.push(`null agent: ${verdict.error}`);
    }
    let oracleAnswer = "";
    let oracleCalls: Array<{ name: string; args: Record<string, unknown> }> = [];
    {
      await using episode = await createEpisode(task, scale, seed, { ...episodeOptions, withKernel: true });
      const run = await runCells(episode, task.oracle, cellOptions);
      oracleAnswer = run.answer;
      oracleCalls = run.directCalls;
      row.oracleToolCalls = run.directCalls.length;
      if (run.failure) problems.push(`oracle failed: ${run.failure.slice(0, 2000)}`);
      const verdict = await episode.finish(run.answer);
      options.onEpisode?.({ phase: "oracle", calls: episode.calls, cells: run.results, verdict });
      row.oracleReward = verdict.reward;
      if (verdict.reward !== 1) {
        const failed = verdict.checks
          .filter((item) => !item.passed)
          .map((item) => `${item.id}: ${item.message}`);
        problems.push(`oracle not rewarded: ${verdict.error ?? failed.join("; ")}`);
      }
    }
    {
      await using episode = await createEpisode(task, scale, seed, episodeOptions);
      for (const call of oracleCalls) await episode.callTool(call.name, call.args);
      const verdict = await episode.finish(oracleAnswer);
      options.onEpisode?.({ phase: "replay", calls: episode.calls, cells: [], verdict });
      row.dtcReplayReward = verdict.reward;
      if (verdict.reward !== 1) problems.push("the oracle's direct-call replay was not rewarded");
    }
    for (const nearMiss of task.nearMisses) {
      await using episode = await createEpisode(task, scale, seed, { ...episodeOptions, withKernel: true });
      const run = await runCells(episode, nearMiss.cells, cellOptions);
      const verdict = await episode.finish(run.answer);
      options.onEpisode?.({
        phase: `near-miss:${nearMiss.id}`,
        calls: episode.calls,
        cells: run.results,
        verdict,
      });
      row.nearMissRewards[nearMiss.id] = verdict.reward;
      if (verdict.reward !== 0) problems.push(`near-miss '${nearMiss.id}' was rewarded`);
    }
  } catch (error) {
    problems.push(`validation crashed: ${errorMessage(error)}`);
  }
  row.ok = problems.length === 0;
  row.durationMs = Date.now() - startedAt;
  return row;
}

/** What `tasks validate` checks of an external task's instance: what such a suite allows. */
export interface ExternalValidationRow {
  kind: "external";
  task: string;
  scale: Scale;
  seed: number;
  /** The verdict on the untouched state (must be 0); null when the instance could not be validated. */
  nullReward: number | null;
  /** The suite's reference final state (must be 1), where it has one. */
  referenceReward?: number;
  /** The reference state with one change (must be 0), where there is a reference. */
  perturbedReward?: number;
  /** Why there is no reference state, when there is none. */
  referenceUnavailable?: string;
  /** Why the task's episodes cannot run here (a server that is not installed): reported, not a failure. */
  skipped?: string;
  /** A skipped task whose instance could not be built either (its requirements are missing): why. */
  notValidated?: string;
  ok: boolean;
  problems: string[];
  durationMs: number;
}

/** A verdict's reason in one line, for a problem. */
function verdictProblem(verdict: Verdict): string {
  return (
    verdict.error ??
    verdict.checks
      .filter((item) => !item.passed)
      .map((item) => `${item.id}: ${item.message}`)
      .join("; ")
  );
}

/**
 * Checks one instance of an external task: the null agent (no changes, empty answer) gets 0; where the suite
 * has a reference final state, that state gets 1 and a perturbed copy 0. Each verdict comes through an episode's
 * `finish`, the path every agent's claim_done takes (without the suite's servers: nothing calls a tool). A task
 * whose episodes cannot run here says `skipped` and why, and is still judged when its instance can be built.
 */
export async function validateExternalInstance(
  task: ExternalTaskDefinition,
  scale: Scale,
  seed: number,
  options: Pick<ValidateOptions, "cacheDir" | "onEpisode"> = {},
): Promise<ExternalValidationRow> {
  const startedAt = Date.now();
  const row: ExternalValidationRow = {
    kind: "external",
    task: task.id,
    scale,
    seed,
    nullReward: null,
    ok: false,
    problems: [],
    durationMs: 0,
  };
  if (task.skipped !== undefined) row.skipped = task.skipped;
  // No tool is called here, so none of the suite's servers is started: a task skipped for its episodes (a server
  // that is not installed) is still judged, when its instance can be built.
  const episodeOptions: EpisodeOptions = {
    connectServers: false,
    ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}),
  };
  if (task.skipped !== undefined) {
    try {
      await prepareExternalInstance(
        task,
        scale,
        seed,
        options.cacheDir ? { cacheDir: options.cacheDir } : {},
      );
    } catch (error) {
      row.notValidated = errorMessage(error);
      row.ok = true;
      row.durationMs = Date.now() - startedAt;
      return row;
    }
  }
  const judge = async (phase: string, variant?: ReferenceVariant): Promise<Verdict | undefined> => {
    await using episode = await createEpisode(task, scale, seed, episodeOptions);
    if (variant !== undefined) {
      if (!episode.applyReference) {
        row.referenceUnavailable = episode.referenceUnavailable ?? "the suite has no reference final state";
        return undefined;
      }
      await episode.applyReference(variant);
    }
    const verdict = await episode.finish("");
    options.onEpisode?.({ phase, calls: episode.calls, cells: [], verdict });
    return verdict;
  };
  try {
    const empty = (await judge("null"))!;
    row.nullReward = empty.reward;
    if (empty.reward !== 0) row.problems.push("the null agent (no changes, empty answer) was rewarded");
    if (empty.error) row.problems.push(`null agent: ${empty.error}`);
    const reference = await judge("reference", "reference");
    if (reference) {
      row.referenceReward = reference.reward;
      if (reference.reward !== 1)
        row.problems.push(`the reference state was not rewarded: ${verdictProblem(reference)}`);
      const perturbed = (await judge("perturbed", "perturbed"))!;
      row.perturbedReward = perturbed.reward;
      if (perturbed.reward !== 0) row.problems.push("the perturbed reference state was rewarded");
    }
  } catch (error) {
    row.problems.push(`validation crashed: ${errorMessage(error)}`);
  }
  row.ok = row.problems.length === 0;
  row.durationMs = Date.now() - startedAt;
  return row;
}

/** Validates one instance of any task: {@link validateTaskInstance} or {@link validateExternalInstance}. */
export async function validateInstance(
  task: Task,
  scale: Scale,
  seed: number,
  options: ValidateOptions = {},
): Promise<ValidationRow | ExternalValidationRow> {
  return isExternalTask(task)
    ? await validateExternalInstance(task, scale, seed, options)
    : await validateTaskInstance(task, scale, seed, options);
}
