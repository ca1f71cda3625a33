import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { ERROR_CODES, ProgAgentError, errorMessage } from "../core/index.js";
import { DEFAULT_AGENT_LIMITS } from "../harness/index.js";
import { trajectorySchema } from "../harness/trajectory.js";
import { HARNESSES, SCALES } from "./dimensions.js";

export const RUN_CONFIG_FILE = "run-config.json";

/**
 * `run-config.json`: what produced a run directory's episodes. A resume compares it field by field with the
 * new run's, so that episodes of one configuration are never reported under another. Concurrency is left
 * out on purpose: it changes how fast a run goes, not what it measures.
 */
export const runConfigSchema = z.object({
  schemaVersion: z.literal(1),
  model: z.string(),
  /** The endpoint the model was reached at (resolved, so an environment variable cannot change it silently). */
  baseUrl: z.string().nullable(),
  harnesses: z.array(trajectorySchema.shape.harness),
  scales: z.array(trajectorySchema.shape.scale),
  /** Task ids, sorted. */
  tasks: z.array(z.string()),
  samples: z.number().int().positive(),
  seed: z.number().int(),
  temperature: z.number().nullable(),
  /** The agent limits in effect (defaults filled in). */
  limits: z.record(z.string(), z.number()),
  /** Kernel settings that change what programs can do (interpreter, sandbox, resource limits). */
  kernel: z.record(z.string(), z.unknown()),
  /** The interface profile, whether `terminal` was offered and whether verdicts were revealed: all model-visible. */
  interface: z.enum(["default", "paper"]).default("default"),
  terminal: z.boolean().default(false),
  revealVerdict: z.boolean().default(false),
});
export type RunConfig = z.infer<typeof runConfigSchema>;

export interface RunConfigInput {
  model: string;
  baseUrl: string | null;
  harnesses: readonly RunConfig["harnesses"][number][];
  scales: readonly RunConfig["scales"][number][];
  taskIds: readonly string[];
  samples: number;
  seed: number;
  temperature?: number;
  limits?: Partial<Record<keyof typeof DEFAULT_AGENT_LIMITS, number>>;
  kernelOptions?: object;
  interface?: "default" | "paper";
  terminal?: boolean;
  revealVerdict?: boolean;
}

export function buildRunConfig(input: RunConfigInput): RunConfig {
  return runConfigSchema.parse({
    schemaVersion: 1,
    model: input.model,
    baseUrl: input.baseUrl,
    // Sets, in report order: `--harness ptc,dtc` and `--harness dtc,ptc` are the same run.
    harnesses: HARNESSES.filter((harness) => input.harnesses.includes(harness)),
    scales: SCALES.filter((scale) => input.scales.includes(scale)),
    tasks: [...input.taskIds].sort(),
    samples: input.samples,
    seed: input.seed,
    temperature: input.temperature ?? null,
    limits: { ...DEFAULT_AGENT_LIMITS, ...input.limits },
    // A JSON round trip keeps the data and drops callbacks (a kernel's tool handlers are not configuration).
    kernel: JSON.parse(JSON.stringify(input.kernelOptions ?? {})) as Record<string, unknown>,
    interface: input.interface ?? "default",
    terminal: input.terminal ?? false,
    revealVerdict: input.revealVerdict ?? false,
  });
}

/** The fields in which two configurations differ, as `field: old -> new`. */
export function describeRunConfigDifferences(recorded: RunConfig, current: RunConfig): string[] {
  const differences: string[] = [];
  for (const key of Object.keys(current) as Array<keyof RunConfig>) {
    const before = canonical(recorded[key]) ?? "unset";
    const after = canonical(current[key]) ?? "unset";
    if (before === after) continue;
    const old = recorded[key];
    const now = current[key];
    if (Array.isArray(old) && Array.isArray(now)) {
      const added = now.filter((item) => !old.includes(item as never));
      const missing = old.filter((item) => !now.includes(item as never));
      const parts = [
        ...(added.length > 0 ? [`added ${shorten(added.join(", "))}`] : []),
        ...(missing.length > 0 ? [`missing ${shorten(missing.join(", "))}`] : []),
      ];
      differences.push(`${key}: ${parts.join("; ") || `${shorten(before)} -> ${shorten(after)}`}`);
    } else if (isRecord(old) && isRecord(now)) {
      for (const inner of [...new Set([...Object.keys(old), ...Object.keys(now)])].sort()) {
        const innerBefore = canonical(old[inner]) ?? "unset";
        const innerAfter = canonical(now[inner]) ?? "unset";
        if (innerBefore !== innerAfter)
          differences.push(`${key}.${inner}: ${shorten(innerBefore)} -> ${shorten(innerAfter)}`);
      }
    } else differences.push(`${key}: ${shorten(before)} -> ${shorten(after)}`);
  }
  return differences;
}

export function readRunConfig(dir: string): RunConfig | null {
  const path = join(dir, RUN_CONFIG_FILE);
  if (!existsSync(path)) return null;
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ProgAgentError(`${path} is not valid JSON: ${errorMessage(error)}`, {
      code: ERROR_CODES.FILE_FORMAT_INVALID,
      category: "user",
      details: { path },
    });
  }
  const parsed = runConfigSchema.safeParse(value);
  if (!parsed.success)
    throw new ProgAgentError(
      `${path} is not a run configuration (schemaVersion 1): ${parsed.error.issues[0]?.message ?? "invalid"}`,
      { code: ERROR_CODES.FILE_FORMAT_INVALID, category: "user", details: { path } },
    );
  return parsed.data;
}

export function writeRunConfig(dir: string, config: RunConfig): void {
  const path = join(dir, RUN_CONFIG_FILE);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(config, null, 2)}\n`);
  renameSync(temporary, path);
}

// Keys sorted, so that the order in which options were given never reads as a difference.
function canonical(value: unknown): string | undefined {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([left], [right]) => (left < right ? -1 : 1)))
      : inner,
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function shorten(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
