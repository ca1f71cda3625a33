import type { ExecutionResult } from "../kernel/index.js";
import type { Episode } from "./episode.js";

/** One recorded direct tool call (the DTC form of a program's run). */
export interface DirectCall {
  name: string;
  args: Record<string, unknown>;
}

export interface CellsRun {
  results: ExecutionResult[];
  /** The answer for claim_done: the whole printed output of the last cell, trimmed. */
  answer: string;
  /** Why the run failed (a cell raised or timed out), or null. */
  failure: string | null;
  /** The tool calls the program made, in order. */
  directCalls: DirectCall[];
}

/** Runs PTC cells (an oracle or a near-miss) in the episode's kernel, stopping at the first failing cell. */
export async function runCells(
  episode: Episode,
  cells: readonly string[],
  options: { timeoutMs?: number } = {},
): Promise<CellsRun> {
  const firstCall = episode.calls.length;
  const results: ExecutionResult[] = [];
  let failure: string | null = null;
  for (const [index, cell] of cells.entries()) {
    const result = await episode.execute(
      cell,
      options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs },
    );
    results.push(result);
    if (result.status !== "ok") {
      failure = `cell ${index + 1} ended with status '${result.status}':\n${result.text}`;
      break;
    }
  }
  const last = results.at(-1);
  const answer = failure || !last ? "" : last.stdout.trim() || last.value?.trim() || "";
  const directCalls = episode.calls
    .slice(firstCall)
    .filter((record) => record.via === "code")
    .map((record) => ({ name: record.name, args: record.args }));
  return { results, answer, failure, directCalls };
}
