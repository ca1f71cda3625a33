import { compareHarnessThenScale } from "./dimensions.js";
import type { MetricsRow, SummaryRow } from "./results-file.js";

type Mean = "meanToolCalls" | "meanDirectToolCalls" | "meanToolOutputTokens" | "meanTurns";
type PerEpisode = Mean | "contextLimitShare" | "runtimeErrorsPerEpisode";
type CodeShare = "loopShare" | "conditionalShare" | "tryShare" | "dtcLikeShare";

/**
 * Collapses per-task rows into one row per harness x scale, sorted DTC, PTC, Hybrid and v0..v3.
 *
 * Per-episode means are weighted by episodes, so a task run more often counts more, as if all episodes were
 * pooled; code-style shares are weighted by code blocks, so they stay shares of all blocks written.
 */
export function summarizeByHarnessAndScale(rows: readonly MetricsRow[]): SummaryRow[] {
  const groups = new Map<string, MetricsRow[]>();
  for (const row of rows) {
    const key = `${row.harness}/${row.scale}`;
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return [...groups.values()].map(summaryRow).sort(compareHarnessThenScale);
}

function summaryRow(rows: MetricsRow[]): SummaryRow {
  const first = rows[0];
  if (!first) throw new Error("summaryRow needs at least one row");
  const episodes = sum(rows, (row) => row.episodes);
  const modelErrors = sum(rows, (row) => row.modelErrors);
  const successes = sum(rows, (row) => row.successes);
  // Means are over scored episodes (those without a model error), weighted by them.
  const scored = (row: MetricsRow): number => row.episodes - row.modelErrors;
  const scoredEpisodes = episodes - modelErrors;
  const perEpisode = (field: PerEpisode): number | null =>
    scoredEpisodes === 0 ? null : sum(rows, (row) => (row[field] ?? 0) * scored(row)) / scoredEpisodes;
  const codeBlockCount = sum(rows, (row) => row.codeBlockCount);
  const codeShare = (field: CodeShare): number | null =>
    codeBlockCount === 0 ? null : sum(rows, (row) => (row[field] ?? 0) * row.codeBlockCount) / codeBlockCount;

  const passAtKByK: Record<string, number> = {};
  const ks = new Set(rows.flatMap((row) => Object.keys(row.passAtK)));
  for (const k of [...ks].sort((left, right) => Number(left) - Number(right))) {
    // Only tasks with at least k episodes have a pass@k.
    const withK = rows.filter((row) => row.passAtK[k] !== undefined);
    const weight = sum(withK, scored);
    passAtKByK[k] = sum(withK, (row) => (row.passAtK[k] ?? 0) * scored(row)) / weight;
  }

  return {
    scale: first.scale,
    harness: first.harness,
    tasks: new Set(rows.map((row) => row.task)).size,
    episodes,
    modelErrors,
    successes,
    passRate: scoredEpisodes === 0 ? null : successes / scoredEpisodes,
    passAtK: passAtKByK,
    meanToolCalls: perEpisode("meanToolCalls"),
    meanDirectToolCalls: perEpisode("meanDirectToolCalls"),
    meanToolOutputTokens: perEpisode("meanToolOutputTokens"),
    contextLimitShare: perEpisode("contextLimitShare"),
    runtimeErrorsPerEpisode: perEpisode("runtimeErrorsPerEpisode"),
    meanTurns: perEpisode("meanTurns"),
    codeBlockCount,
    loopShare: codeShare("loopShare"),
    conditionalShare: codeShare("conditionalShare"),
    tryShare: codeShare("tryShare"),
    dtcLikeShare: codeShare("dtcLikeShare"),
  };
}

function sum<T>(items: readonly T[], value: (item: T) => number): number {
  let total = 0;
  for (const item of items) total += value(item);
  return total;
}
