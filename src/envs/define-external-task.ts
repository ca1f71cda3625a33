import type { JsonSchemaObject, McpConfig } from "../runtime/index.js";
import type { TaskDefinition, Verdict } from "./define-task.js";
import type { Scale } from "./scale.js";

/** What groups an external suite's tasks in listings and reports (no schema, no tools: those are the suite's). */
export interface ExternalDomain {
  id: string;
  title: string;
  description: string;
}

export interface ExternalPrepareRequest {
  scale: Scale;
  seed: number;
  /** The instance cache (`defaultCacheDir()` unless the caller chose another). */
  cacheDir: string;
  signal?: AbortSignal;
}

/** A built (task, scale, seed) instance of an external task: immutable once prepared, shared by its episodes. */
export interface ExternalInstance {
  /** What determines the instance's bytes (the cache folder's name carries it). */
  key: string;
  /** The instruction the agent is given (the suite's own text for this instance). */
  instruction: string;
  /** Host folder with the agent's initial files; copied into every episode's workspace, never changed. */
  workspaceDir: string;
  /** The suite harness's code tool, which progagent offers under DTC and runs in its sandbox. */
  codeTool?: ReplacedCodeTool;
  /** Opens one episode's side of the instance: its servers, its hidden state and its verifier. */
  open(request: ExternalOpenRequest): Promise<ExternalSession>;
}

export interface ExternalOpenRequest {
  /** The episode's live workspace: the folder the sandbox sees at /workspace (already holding the initial files). */
  workspaceDir: string;
  /** A host folder private to this episode, never bound into any sandbox, removed when the episode ends. */
  hiddenDir: string;
  signal?: AbortSignal;
}

/**
 * A tool of the suite's own harness that ran code (LOCA's `python_execute`): under DTC progagent offers it
 * with the same name and schema and runs the program in its sandbox instead of on the host. PTC and Hybrid
 * have `programmatic_tool_call` instead.
 */
export interface ReplacedCodeTool {
  name: string;
  description: string;
  inputSchema: JsonSchemaObject;
  /** The argument holding the program's text. */
  codeArgument: string;
}

/** Which reference state `applyReference` writes: the suite's expected final state, or a copy with one change. */
export type ReferenceVariant = "reference" | "perturbed";

/** One episode's side of an external instance, owned by the episode (disposed with it). */
export interface ExternalSession {
  /** The upstream MCP servers of this episode (paths already pointing at its copies). */
  mcpConfig: McpConfig;
  /** Host paths the agent must never reach (ground truth, mock databases); none may lie in the workspace. */
  hiddenPaths: readonly string[];
  /** Runs the suite's verifier on the final state; called once the program and the servers have stopped. */
  verify(request: { answer: string; signal?: AbortSignal }): Promise<Verdict>;
  /**
   * Writes the suite's reference final state (or a copy of it with one change that must fail) into this
   * episode's state, for validation. Absent when the suite has none; `referenceUnavailable` then says why.
   */
  applyReference?(variant: ReferenceVariant): Promise<void>;
  referenceUnavailable?: string;
  dispose(): Promise<void>;
}

/**
 * A task whose environment, tools and verifier belong to someone else (a public benchmark): `prepare` builds
 * an instance for (scale, seed), its `open` gives each episode upstream MCP servers and a verifier run on the
 * host. No oracle and no near-misses: validation is what the suite allows (null agent 0; a reference state 1
 * and a perturbed copy 0 where it has one).
 */
export interface ExternalTaskDefinition {
  readonly kind: "external";
  /** `<domain>.<slug>` */
  id: string;
  domain: ExternalDomain;
  summary: string;
  /** The instruction as listings show it (an instance may word it for its own data). */
  instruction: string;
  /** Names of the upstream servers its episodes use, for listings. */
  servers: readonly string[];
  /** Why no instance of this task can run here (a server that is not installed), or undefined. */
  skipped?: string;
  prepare(request: ExternalPrepareRequest): Promise<ExternalInstance>;
}

/** Any task: one written with `defineTask`, or an external one. */
export type Task = TaskDefinition | ExternalTaskDefinition;

export function isExternalTask(task: Task): task is ExternalTaskDefinition {
  return (task as { kind?: unknown }).kind === "external";
}

const TASK_ID = /^[a-z][a-z0-9_]*\.[A-Za-z0-9_.-]+$/;

/** Checks an external task's shape; every error names the task and what was expected. */
export function defineExternalTask(
  definition: Omit<ExternalTaskDefinition, "kind"> & { kind?: "external" },
): ExternalTaskDefinition {
  const where = `external task '${String(definition.id)}'`;
  if (typeof definition.id !== "string" || !TASK_ID.test(definition.id))
    throw new Error(`${where}: the id must look like <domain>.<slug> (letters, digits, _ . -)`);
  if (!definition.id.startsWith(`${definition.domain?.id}.`))
    throw new Error(`${where}: the id must start with its domain id '${String(definition.domain?.id)}.'`);
  if (!/^[a-z][a-z0-9_]*$/.test(definition.domain.id))
    throw new Error(`${where}: domain id '${definition.domain.id}' must be snake_case`);
  for (const field of ["summary", "instruction"] as const)
    if (typeof definition[field] !== "string" || definition[field].trim() === "")
      throw new Error(`${where}: '${field}' must be a non-empty string`);
  if (typeof definition.prepare !== "function") throw new Error(`${where}: 'prepare' must be a function`);
  return { ...definition, kind: "external" };
}
