import { createHash, randomBytes } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { removeTree } from "../../core/index.js";
import {
  defineExternalTask,
  type ExternalDomain,
  type ExternalInstance,
  type ExternalSession,
  type ExternalTaskDefinition,
  type ReplacedCodeTool,
  type Verdict,
} from "../../envs/index.js";
import type { McpConfig } from "../../runtime/index.js";
import {
  LOCA_SIZES,
  REPLACED_SERVER_TYPES,
  entryKey,
  locaSeed,
  type LocaClass,
  type LocaEntry,
} from "./loca-checkout.js";
import { SIDECAR_SCRIPT, startLocaSidecar, type SidecarOptions } from "./loca-sidecar.js";
import { resolveNpmServers } from "./resolve-npm-servers.js";

const INSTANCE_FORMAT = 1;
const BUILD_TIMEOUT_MS = 30 * 60_000;
const OPEN_TIMEOUT_MS = 10 * 60_000;
const VERIFY_TIMEOUT_MS = 10 * 60_000;
const REFERENCE_TIMEOUT_MS = 2 * 60_000;

/** LOCA's `python_execute` as progagent offers it under DTC: the same name and arguments, run in the sandbox. */
const PYTHON_EXECUTE: ReplacedCodeTool = {
  name: "python_execute",
  description:
    "Run Python code in the agent workspace (the working directory) and return what it printed (stdout and stderr) and how it ended.",
  inputSchema: {
    type: "object",
    properties: {
      code: { type: "string", description: "The Python code to run." },
      filename: {
        type: "string",
        description: "Accepted for compatibility; the code runs without a file name.",
      },
      timeout: {
        type: "integer",
        description: "Accepted for compatibility; the sandbox's own deadline applies.",
      },
    },
    required: ["code"],
  },
  codeArgument: "code",
};

const manifestSchema = z.object({
  schemaVersion: z.literal(1),
  key: z.string(),
  task: z.string(),
  size: z.string(),
  seed: z.number(),
  instruction: z.string(),
  generatedSeconds: z.number(),
  /** Ground-truth tables the initial workspace holds under the same name (expected workspace files). */
  referenceTables: z.array(z.string()),
});
type InstanceManifest = z.infer<typeof manifestSchema>;

/** What every task of one checkout shares. */
export interface LocaTaskContext {
  root: string;
  sidecar: SidecarOptions;
  /** Environment for the suite's Python servers (the checkout and a stand-in SDK on PYTHONPATH, quiet logs). */
  serverEnvironment: Record<string, string>;
  /** Why a server type cannot start here, by type (absent: it can). */
  unavailable: ReadonlyMap<string, string>;
  /** The instruction of each class (read from the checkout), when it could be read without generating. */
  instructions: ReadonlyMap<string, string>;
  /** Classes the checkout's Python could not import, with the error (missing requirements). */
  importErrors: ReadonlyMap<string, string>;
}

/** A hash of the files below a folder (names and bytes, in order; caches skipped). */
function hashFolder(folder: string, hash = createHash("sha256")): ReturnType<typeof createHash> {
  for (const name of readdirSync(folder).sort()) {
    if (name === "__pycache__" || name.startsWith(".")) continue;
    const path = join(folder, name);
    if (statSync(path).isDirectory()) hashFolder(path, hash.update(`${name}/`));
    else hash.update(name).update(readFileSync(path));
  }
  return hash;
}

let sidecarSourceHash: string | undefined;

function instanceKey(context: LocaTaskContext, locaClass: LocaClass, entry: LocaEntry): string {
  sidecarSourceHash ??= createHash("sha256").update(readFileSync(SIDECAR_SCRIPT)).digest("hex");
  const hash = hashFolder(join(context.root, locaClass.folder));
  hash.update(JSON.stringify({ format: INSTANCE_FORMAT, entry, sidecar: sidecarSourceHash }));
  return hash.digest("hex").slice(0, 24);
}

/** Instances being built by this process, so that episodes of one instance opening together build it once. */
const building = new Map<string, Promise<InstanceManifest>>();

async function buildInstance(
  context: LocaTaskContext,
  taskId: string,
  entry: LocaEntry,
  dir: string,
  facts: { key: string; size: string; seed: number },
): Promise<InstanceManifest> {
  const manifestPath = join(dir, "manifest.json");
  if (existsSync(manifestPath)) return manifestSchema.parse(JSON.parse(readFileSync(manifestPath, "utf8")));
  const parent = join(dir, "..");
  mkdirSync(parent, { recursive: true });
  const staging = join(parent, `.staging-${facts.key}-${process.pid}-${randomBytes(4).toString("hex")}`);
  mkdirSync(staging);
  const sidecar = startLocaSidecar(context.sidecar);
  try {
    const built = await sidecar.request<{
      instruction: string;
      generatedSeconds: number;
      referenceTables: string[];
    }>(
      "build",
      { checkout: context.root, entry, taskDir: join(staging, "task"), stateDir: staging },
      { timeoutMs: BUILD_TIMEOUT_MS },
    );
    const manifest: InstanceManifest = {
      schemaVersion: 1,
      key: facts.key,
      task: taskId,
      size: facts.size,
      seed: facts.seed,
      instruction: built.instruction,
      generatedSeconds: built.generatedSeconds,
      referenceTables: built.referenceTables,
    };
    writeFileSync(join(staging, "manifest.json"), JSON.stringify(manifest, null, 2));
    try {
      renameSync(staging, dir);
    } catch (error) {
      if (!existsSync(manifestPath)) throw error; // another builder won the race
    }
    return manifest;
  } finally {
    await sidecar.dispose();
    await removeTree(staging);
  }
}

/** The verdict of LOCA's verifier: its reward, and its error or observation as the one check's message. */
function toVerdict(result: { reward: number; observation: string; info: Record<string, unknown> }): Verdict {
  const passed = result.reward === 1;
  const error = typeof result.info.error === "string" ? result.info.error : undefined;
  return {
    reward: passed ? 1 : 0,
    checks: [{ id: "loca_verifier", passed, message: (error ?? result.observation).trim().slice(0, 4_000) }],
  };
}

async function openSession(
  context: LocaTaskContext,
  locaClass: LocaClass,
  entry: LocaEntry,
  instance: { dir: string; manifest: InstanceManifest },
  request: { workspaceDir: string; hiddenDir: string },
): Promise<ExternalSession> {
  const sidecar = startLocaSidecar(context.sidecar);
  try {
    const opened = await sidecar.request<{ config: McpConfig; hiddenPaths: string[] }>(
      "open",
      {
        checkout: context.root,
        entry,
        instanceTaskDir: join(instance.dir, "task"),
        stateDir: instance.dir,
        hiddenDir: request.hiddenDir,
        workspaceDir: request.workspaceDir,
        python: context.sidecar.python,
        serverEnv: context.serverEnvironment,
      },
      { timeoutMs: OPEN_TIMEOUT_MS },
    );
    const tables = instance.manifest.referenceTables;
    return {
      mcpConfig: resolveNpmServers(opened.config),
      hiddenPaths: opened.hiddenPaths,
      verify: async ({ answer, signal }) =>
        toVerdict(
          await sidecar.request(
            "verify",
            { answer },
            { timeoutMs: VERIFY_TIMEOUT_MS, ...(signal ? { signal } : {}) },
          ),
        ),
      ...(tables.length > 0
        ? {
            applyReference: async (variant) => {
              await sidecar.request("reference", { variant, tables }, { timeoutMs: REFERENCE_TIMEOUT_MS });
            },
          }
        : {
            referenceUnavailable: `${locaClass.className}'s ground truth holds no table the agent's workspace has (its verifier reads the mock services' state or files it computes), so no reference final state can be written; LOCA-bench ships no reference solutions`,
          }),
      dispose: () => sidecar.dispose(),
    };
  } catch (error) {
    await sidecar.dispose();
    throw error;
  }
}

/** Why a class cannot run here: the servers it needs that cannot start, with their reasons. */
function skipReason(context: LocaTaskContext, locaClass: LocaClass): string | undefined {
  const importError = context.importErrors.get(locaClass.envClass);
  if (importError !== undefined)
    return `${context.sidecar.python} cannot import ${locaClass.envClass} (${importError}); install LOCA-bench's requirements (see the README's LOCA-bench section)`;
  const missing = [...locaClass.serverTypes]
    .filter((type) => !REPLACED_SERVER_TYPES.has(type) && context.unavailable.has(type))
    .sort()
    .map((type) => `${type} (${context.unavailable.get(type)})`);
  if (missing.length === 0) return undefined;
  return `needs MCP server${missing.length > 1 ? "s" : ""} that cannot start here: ${missing.join("; ")}; install LOCA-bench's requirements (see the README's LOCA-bench section)`;
}

/** One domain object for every class: suites that share a domain id share its object. */
const LOCA_DOMAIN: ExternalDomain = {
  id: "loca",
  title: "LOCA-bench",
  description: "LOCA-bench's environment classes, generated and verified by a LOCA-bench checkout",
};

/** One LOCA-bench environment class as an external task `loca.<slug>`. */
export function defineLocaTask(context: LocaTaskContext, locaClass: LocaClass): ExternalTaskDefinition {
  const id = `loca.${locaClass.slug}`;
  const skipped = skipReason(context, locaClass);
  const servers = [...locaClass.serverTypes].filter((type) => !REPLACED_SERVER_TYPES.has(type)).sort();
  return defineExternalTask({
    id,
    domain: LOCA_DOMAIN,
    summary: `LOCA-bench ${locaClass.className} (${servers.join(", ")})`,
    instruction:
      context.instructions.get(locaClass.envClass) ?? `(${locaClass.className}: generated with the instance)`,
    servers,
    ...(skipped === undefined ? {} : { skipped }),
    async prepare({ scale, seed, cacheDir }): Promise<ExternalInstance> {
      const size = LOCA_SIZES[scale];
      const chosen = locaSeed(seed);
      const entry = locaClass.entries.get(entryKey(size, chosen));
      if (!entry)
        throw new Error(
          `the checkout has no ${locaClass.className} configuration at ${size}, seed ${chosen}`,
        );
      const key = instanceKey(context, locaClass, entry);
      const dir = join(cacheDir, "loca-bench", `${locaClass.slug}-${size}-${chosen}-${key}`);
      let manifest = building.get(dir);
      if (!manifest) {
        manifest = buildInstance(context, id, entry, dir, { key, size, seed: chosen });
        building.set(dir, manifest);
        manifest.catch(() => undefined).finally(() => building.delete(dir));
      }
      const built = await manifest;
      return {
        key,
        instruction: built.instruction,
        workspaceDir: join(dir, "task", "agent_workspace"),
        ...(Object.values(entry.mcp_servers).some(
          (server) => server.type === "python_execute" && server.enabled !== false,
        )
          ? { codeTool: PYTHON_EXECUTE }
          : {}),
        open: (request) => openSession(context, locaClass, entry, { dir, manifest: built }, request),
      };
    },
  });
}
