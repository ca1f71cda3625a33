import { existsSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";
import { ERROR_CODES, ProgAgentError, errorMessage } from "../../core/index.js";
import type { Scale } from "../../envs/index.js";

/** The LOCA-bench commit this adapter was written and checked against. */
export const LOCA_CHECKED_COMMIT = "8cd474d";

/** LOCA's environment-state sizes the authors evaluate, as progagent's four scales. */
export const LOCA_SIZES: Record<Scale, string> = { v0: "8k", v1: "16k", v2: "32k", v3: "64k" };

/** The five seeds of every task configuration; progagent's seeds 0-4 name them by index. */
export const LOCA_SEEDS = [42, 123, 456, 789, 2024] as const;

/** Server types of LOCA's own harness that progagent replaces (its claim_done and programmatic_tool_call). */
export const REPLACED_SERVER_TYPES = new Set([
  "claim_done",
  "python_execute",
  "programmatic_tool_calling",
  "programmatic-tool-calling",
]);

const serverSchema = z.looseObject({
  type: z.string().min(1),
  enabled: z.boolean().nullish(),
  params: z.record(z.string(), z.unknown()).nullish(),
});
const entrySchema = z.looseObject({
  name: z.string().min(1).nullish(),
  env_class: z.string().regex(/^[A-Za-z_][\w.]*\.[A-Za-z_]\w*$/, "a dotted Python class path"),
  env_params: z.record(z.string(), z.unknown()),
  mcp_servers: z.record(z.string(), serverSchema),
});
const configFileSchema = z.looseObject({ configurations: z.array(entrySchema).min(1) });

/** One entry of `task-configs/final_<size>_set_config.json`. */
export type LocaEntry = z.infer<typeof entrySchema>;

/** One environment class of the checkout and its configuration per (size, seed). */
export interface LocaClass {
  /** The class name (`CanvasListTestS2LEnv`). */
  className: string;
  /** The dotted class path the sidecar imports. */
  envClass: string;
  /** `canvas_list_test` (its folder without `_s2l`): the task id's slug. */
  slug: string;
  /** `gem/envs/<folder>`: the class's sources (its instances are keyed on them). */
  folder: string;
  entries: Map<string, LocaEntry>;
  /** The server types its configurations use (replaced ones included). */
  serverTypes: Set<string>;
}

export interface LocaCheckout {
  root: string;
  classes: LocaClass[];
}

export function entryKey(size: string, seed: number): string {
  return `${size}|${seed}`;
}

function layoutError(root: string, problem: string): ProgAgentError {
  return new ProgAgentError(
    `${root} is not a LOCA-bench checkout progagent can read: ${problem} (clone https://github.com/hkust-nlp/LOCA-bench; checked against commit ${LOCA_CHECKED_COMMIT})`,
    { code: ERROR_CODES.SUITE_INVALID, category: "user", details: { checkout: root } },
  );
}

function readConfigFile(root: string, size: string): LocaEntry[] {
  const path = join(root, "task-configs", `final_${size}_set_config.json`);
  if (!existsSync(path)) throw layoutError(root, `task-configs/final_${size}_set_config.json is missing`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw layoutError(
      root,
      `task-configs/final_${size}_set_config.json is not JSON (${errorMessage(error)})`,
    );
  }
  const parsed = configFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw layoutError(
      root,
      `task-configs/final_${size}_set_config.json: ${issue.path.join(".") || "(root)"}: ${issue.message}; expected {"configurations": [{"env_class", "env_params", "mcp_servers"}, ...]}`,
    );
  }
  return parsed.data.configurations;
}

/** `gem.envs.canvas_list_test_s2l.canvas_list_test_s2l.CanvasListTestS2LEnv` -> its folder and slug. */
function classPlace(envClass: string): { folder: string; slug: string } {
  const parts = envClass.split(".");
  const folder = parts.length >= 4 && parts[0] === "gem" && parts[1] === "envs" ? parts[2]! : parts.at(-2)!;
  return { folder: join("gem", "envs", folder), slug: folder.replace(/_s2l$/, "").toLowerCase() };
}

/**
 * Reads a checkout's task configurations (the four evaluated sizes) and groups them by environment class.
 * A missing folder, a missing or malformed configuration file, a seed outside LOCA's five, or a class folder
 * that is not there is one error naming the checkout and what was expected.
 */
export function readLocaCheckout(dir: string): LocaCheckout {
  const root = resolve(dir);
  if (!existsSync(root) || !statSync(root).isDirectory()) throw layoutError(root, "no such folder");
  for (const required of ["gem/envs", "gem/tools/mcp_server/config"])
    if (!existsSync(join(root, required))) throw layoutError(root, `${required}/ is missing`);
  const classes = new Map<string, LocaClass>();
  for (const size of Object.values(LOCA_SIZES)) {
    for (const entry of readConfigFile(root, size)) {
      const seed = Number(entry.env_params.seed);
      if (!(LOCA_SEEDS as readonly number[]).includes(seed))
        throw layoutError(
          root,
          `${entry.env_class} at ${size} has seed ${String(entry.env_params.seed)}; expected one of ${LOCA_SEEDS.join(", ")}`,
        );
      const className = entry.env_class.split(".").at(-1)!;
      let known = classes.get(className);
      if (!known) {
        const place = classPlace(entry.env_class);
        if (!existsSync(join(root, place.folder)))
          throw layoutError(root, `the folder of ${entry.env_class} (${place.folder}/) is missing`);
        known = {
          className,
          envClass: entry.env_class,
          ...place,
          entries: new Map(),
          serverTypes: new Set(),
        };
        classes.set(className, known);
      }
      known.entries.set(entryKey(size, seed), entry);
      for (const server of Object.values(entry.mcp_servers))
        if (server.enabled !== false) known.serverTypes.add(server.type);
    }
  }
  return { root, classes: [...classes.values()].sort((left, right) => left.slug.localeCompare(right.slug)) };
}

/** LOCA's seed for progagent's: 0-4 name the five seeds by index, and the five seeds name themselves. */
export function locaSeed(seed: number): number {
  if ((LOCA_SEEDS as readonly number[]).includes(seed)) return seed;
  const byIndex = LOCA_SEEDS[seed];
  if (Number.isInteger(seed) && byIndex !== undefined) return byIndex;
  throw new ProgAgentError(
    `LOCA-bench has configurations for seeds ${LOCA_SEEDS.join(", ")} only: give one of them, or 0-4 to name them by index (got ${seed})`,
    { code: ERROR_CODES.INVALID_ARGUMENT, category: "user", details: { seed } },
  );
}
