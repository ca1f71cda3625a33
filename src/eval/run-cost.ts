import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { ERROR_CODES, ProgAgentError, errorMessage } from "../core/index.js";
import type { RunCost } from "./report-content.js";

/** What the last invocation of a run cost; the reports show it. Rewritten by each invocation (a resume too). */
export const RUN_COST_FILE = "run-cost.json";

const runCostSchema = z.object({
  schemaVersion: z.literal(1),
  preparedInstances: z.number().int().nonnegative(),
  prepareSeconds: z.number().nonnegative(),
  episodes: z.number().int().nonnegative(),
  runSeconds: z.number().nonnegative(),
});

export function writeRunCost(dir: string, cost: RunCost): void {
  const path = join(dir, RUN_COST_FILE);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ schemaVersion: 1, ...cost }, null, 2)}\n`);
  renameSync(temporary, path);
}

/** `{ cost }` from the run's directory, or `{}` when the command recorded none. */
export function readRunCost(dir: string): { cost?: RunCost } {
  const path = join(dir, RUN_COST_FILE);
  if (!existsSync(path)) return {};
  try {
    const { schemaVersion: _version, ...cost } = runCostSchema.parse(JSON.parse(readFileSync(path, "utf8")));
    return { cost };
  } catch (error) {
    throw new ProgAgentError(`${path} is not a run cost record: ${errorMessage(error)}`, {
      code: ERROR_CODES.FILE_FORMAT_INVALID,
      category: "user",
    });
  }
}
