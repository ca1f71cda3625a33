import { readFile, stat } from "node:fs/promises";
import { domainOf, type EpisodeSummary } from "./episode-summary.js";
import { Tally } from "./jsonl-index.js";

/** `tasks validate --json` output is one JSON document; larger than this it is not one. */
const MAX_VALIDATION_BYTES = 64 * 1024 * 1024;

/** One row of `tasks validate --json`, as far as the viewer needs it. */
export interface ValidationRowView {
  task: string;
  scale: string;
  seed: number | null;
  nullReward: number | null;
  oracleReward: number | null;
  dtcReplayReward: number | null;
  nearMissRewards: Record<string, number>;
  oracleToolCalls: number | null;
  ok: boolean;
  problems: string[];
  durationMs: number | null;
}

export interface ValidationFile {
  summaries: EpisodeSummary[];
  rows: ValidationRowView[];
  skipped: Tally;
}

const numberOrNull = (value: unknown): number | null => (typeof value === "number" ? value : null);

/**
 * Reads the JSON array `tasks validate --json` prints: each row an instance (task x scale x seed) with the
 * null agent's, the oracle's, the replay's and every near-miss's reward. Rows of another shape are skipped.
 */
export async function readValidationFile(path: string, source: number): Promise<ValidationFile> {
  const info = await stat(path);
  if (info.size > MAX_VALIDATION_BYTES)
    throw new Error(
      `${path} is ${Math.round(info.size / 1e6)} MB: too large for 'tasks validate --json' output (a JSON file of episodes should be JSONL)`,
    );
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new Error(
      `${path} is not JSON (${(error as Error).message}): the file is cut short or of another format`,
    );
  }
  if (!Array.isArray(value))
    throw new Error(
      `${path} is JSON but not an array of validation rows (another schema: 'tasks validate --json' prints an array)`,
    );
  const summaries: EpisodeSummary[] = [];
  const rows: ValidationRowView[] = [];
  const skipped = new Tally();
  value.forEach((item: unknown, index) => {
    const row = item as Record<string, unknown>;
    if (
      typeof row !== "object" ||
      row === null ||
      typeof row.task !== "string" ||
      typeof row.ok !== "boolean"
    ) {
      skipped.add("another schema (not a 'tasks validate --json' row: no task or ok)", index + 1);
      return;
    }
    const view: ValidationRowView = {
      task: row.task,
      scale: typeof row.scale === "string" ? row.scale : "",
      seed: numberOrNull(row.seed),
      nullReward: numberOrNull(row.nullReward),
      oracleReward: numberOrNull(row.oracleReward),
      dtcReplayReward: numberOrNull(row.dtcReplayReward),
      nearMissRewards:
        typeof row.nearMissRewards === "object" && row.nearMissRewards !== null
          ? Object.fromEntries(
              Object.entries(row.nearMissRewards).filter(
                (entry): entry is [string, number] => typeof entry[1] === "number",
              ),
            )
          : {},
      oracleToolCalls: numberOrNull(row.oracleToolCalls),
      ok: row.ok,
      problems: Array.isArray(row.problems) ? row.problems.map(String) : [],
      durationMs: numberOrNull(row.durationMs),
    };
    rows.push(view);
    summaries.push({
      source,
      line: index + 1,
      offset: 0,
      lengthBytes: 0,
      searchStart: 0,
      searchEnd: 0,
      kind: "validation",
      schemaVersion: null,
      runId: "",
      episodeId: `${view.task}|${view.scale}|seed ${view.seed ?? "?"}`,
      task: view.task,
      domain: domainOf(view.task),
      harness: "validate",
      scale: view.scale,
      seed: view.seed,
      sample: null,
      model: "oracle",
      reward: view.ok ? 1 : 0,
      endReason: view.ok ? "validated" : "validation_failed",
      turns: 0,
      toolCalls: view.oracleToolCalls ?? 0,
      codeBlocks: 0,
      runtimeErrors: 0,
      toolOutputTokens: null,
      contextTokens: null,
      wallTimeMs: view.durationMs,
      step: null,
    });
  });
  return { summaries, rows, skipped };
}
