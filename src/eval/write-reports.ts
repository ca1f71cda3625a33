import { createReadStream } from "node:fs";
import { rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { ERROR_CODES, ProgAgentError, errorMessage } from "../core/index.js";
import { trajectorySchema, type Trajectory } from "../harness/trajectory.js";
import { computeMetrics, isModelError } from "./metrics.js";
import type { FailedEpisode } from "./report-content.js";
import { readRunConfig } from "./run-config.js";
import { readRunCost } from "./run-cost.js";
import { renderHtmlReport } from "./report-html.js";
import { renderMarkdownReport } from "./report-markdown.js";
import { resultsFileSchema, type MetricsRow, type ResultsFile, type SummaryRow } from "./results-file.js";
import { summarizeByHarnessAndScale } from "./summarize-by-harness-and-scale.js";

export interface WriteReportsOptions {
  /** Values of k for pass@k (default 1 and 8). */
  k?: readonly number[];
  /** Stamped into results.json and the reports (default: now). */
  createdAt?: string;
  signal?: AbortSignal;
}

export interface WrittenReports {
  resultsPath: string;
  markdownPath: string;
  htmlPath: string;
  rows: MetricsRow[];
  summary: SummaryRow[];
}

/**
 * Reads `<dir>/trajectories.jsonl`, computes the metrics and writes `results.json`, `report.md` and
 * `report.html` beside it.
 *
 * @throws ProgAgentError `FILE_FORMAT_INVALID` naming the line when a line is not a valid trajectory,
 *   `INVALID_ARGUMENT` when the file is missing.
 */
export async function writeReports(dir: string, options: WriteReportsOptions = {}): Promise<WrittenReports> {
  const trajectories = await readTrajectories(join(dir, "trajectories.jsonl"));
  const rows = await computeMetrics(trajectories, { k: options.k, signal: options.signal });
  const summary = summarizeByHarnessAndScale(rows);
  const results: ResultsFile = resultsFileSchema.parse({
    schemaVersion: 2,
    runId: distinct(trajectories.map((trajectory) => trajectory.runId)),
    model: distinct(trajectories.map((trajectory) => trajectory.model)),
    createdAt: options.createdAt ?? new Date().toISOString(),
    rows,
    summary,
  });
  const input = {
    ...results,
    trajectoriesCount: trajectories.length,
    failures: failedEpisodes(trajectories),
    revealVerdict: readRunConfig(dir)?.revealVerdict === true,
    ...readRunCost(dir),
  };

  const resultsPath = join(dir, "results.json");
  const markdownPath = join(dir, "report.md");
  const htmlPath = join(dir, "report.html");
  await writeAtomically(resultsPath, `${JSON.stringify(results, null, 2)}\n`);
  await writeAtomically(markdownPath, renderMarkdownReport(input));
  await writeAtomically(htmlPath, await renderHtmlReport(input));
  return { resultsPath, markdownPath, htmlPath, rows, summary };
}

async function readTrajectories(path: string): Promise<Trajectory[]> {
  const trajectories: Trajectory[] = [];
  const stream = createReadStream(path, { encoding: "utf8" });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let lineNumber = 0;
  try {
    for await (const line of lines) {
      lineNumber += 1;
      if (line.trim() === "") continue;
      const trajectory = parseLine(line, path, lineNumber);
      // Messages are most of a trajectory's bytes and no metric reads them; dropping them keeps long runs in memory.
      trajectories.push({ ...trajectory, messages: [] });
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      throw new ProgAgentError(
        `${path} does not exist: point at a run directory that holds trajectories.jsonl`,
        {
          code: ERROR_CODES.INVALID_ARGUMENT,
          category: "user",
          cause: error,
          details: { path },
        },
      );
    }
    throw error;
  } finally {
    lines.close();
    stream.destroy();
  }
  if (trajectories.length === 0) {
    throw formatError(`${path} holds no trajectories`, path, 0);
  }
  return trajectories;
}

function parseLine(line: string, path: string, lineNumber: number): Trajectory {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    throw formatError(
      `${path} line ${lineNumber} is not valid JSON: ${errorMessage(error)}`,
      path,
      lineNumber,
    );
  }
  const parsed = trajectorySchema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join(".") || "(line)"}: ${issue.message}`)
      .join("; ");
    throw formatError(
      `${path} line ${lineNumber} is not a trajectory (schemaVersion 1): ${issues}`,
      path,
      lineNumber,
    );
  }
  return parsed.data;
}

function formatError(message: string, path: string, lineNumber: number): ProgAgentError {
  return new ProgAgentError(message, {
    code: ERROR_CODES.FILE_FORMAT_INVALID,
    category: "user",
    details: { path, line: lineNumber },
  });
}

function failedEpisodes(trajectories: readonly Trajectory[]): FailedEpisode[] {
  return trajectories
    .filter((trajectory) => trajectory.reward === 0 && !isModelError(trajectory))
    .map((trajectory) => ({
      task: trajectory.task,
      scale: trajectory.scale,
      harness: trajectory.harness,
      sample: trajectory.sample,
      endReason: trajectory.endReason,
      answer: trajectory.answer,
      checks: trajectory.checks,
      verifierError: trajectory.verifierError,
    }));
}

function distinct(values: readonly string[]): string {
  return [...new Set(values)].join(", ");
}

// A report is either the old one or the new one, never half written, even if the process is killed.
async function writeAtomically(path: string, text: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, text, "utf8");
  await rename(temporary, path);
}
