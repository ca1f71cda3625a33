import { existsSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { ERROR_CODES, ProgAgentError } from "../core/index.js";
import { trajectorySchema, type Trajectory } from "../harness/index.js";

/** A trajectory and where it came from. */
export interface SourcedTrajectory {
  trajectory: Trajectory;
  file: string;
  line: number;
}

export interface RunSummary {
  path: string;
  runIds: string[];
  models: string[];
  episodes: number;
}

function invalid(message: string, details: Record<string, string | number>): ProgAgentError {
  return new ProgAgentError(message, { code: ERROR_CODES.FILE_FORMAT_INVALID, category: "user", details });
}

/**
 * Reads the trajectories of run directories (or trajectories.jsonl files), strictly: a line that is not JSON or
 * not a trajectory (schemaVersion 1 or 2) is an error naming the file and line; a run with no trajectory is an error.
 */
export function readRuns(inputs: readonly string[]): {
  trajectories: SourcedTrajectory[];
  runs: RunSummary[];
} {
  if (inputs.length === 0)
    throw new ProgAgentError("no input: pass --in <run dir> (the --out of an eval or start run)", {
      code: ERROR_CODES.INVALID_ARGUMENT,
      category: "user",
    });
  const trajectories: SourcedTrajectory[] = [];
  const runs: RunSummary[] = [];
  for (const input of inputs) {
    const path = resolve(input);
    const file = existsSync(path) && statSync(path).isDirectory() ? join(path, "trajectories.jsonl") : path;
    if (!existsSync(file))
      throw new ProgAgentError(
        `${input}: no trajectories.jsonl (expected a run directory written by eval or start)`,
        {
          code: ERROR_CODES.FILE_FORMAT_INVALID,
          category: "user",
        },
      );
    const lines = readFileSync(file, "utf8").split("\n");
    const runIds = new Set<string>();
    const models = new Set<string>();
    let episodes = 0;
    lines.forEach((text, index) => {
      if (text.trim().length === 0) return;
      const line = index + 1;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        throw invalid(
          `${file} line ${line} is not JSON (${(error as Error).message}); the file is corrupt or was cut short`,
          {
            file,
            line,
          },
        );
      }
      const parsed = trajectorySchema.safeParse(value);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw invalid(
          `${file} line ${line} is not a trajectory (schemaVersion 1 or 2): ${issue?.path.join(".")}: ${issue?.message}`,
          { file, line },
        );
      }
      trajectories.push({ trajectory: parsed.data, file, line });
      runIds.add(parsed.data.runId);
      models.add(parsed.data.model);
      episodes += 1;
    });
    if (episodes === 0)
      throw invalid(`${file} holds no trajectories: the run has not finished an episode`, { file });
    runs.push({ path: file, runIds: [...runIds], models: [...models], episodes });
  }
  return { trajectories, runs };
}
