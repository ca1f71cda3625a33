import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { errorMessage } from "../core/index.js";
import {
  buildInstance,
  listWorkspaceEntriesSync,
  taskToolDefinitions,
  validateTaskInstance,
  type DomainDefinition,
  type Scale,
  type TaskDefinition,
  type ValidationRow,
} from "../envs/index.js";
import type { KernelPool } from "../kernel/index.js";
import { toolInputJsonSchema } from "../runtime/index.js";
import type {
  DraftTaskSummary,
  GateResult,
  ValidateRequest,
  ValidationReport,
  ValidationRowSummary,
} from "./worker-protocol.js";

/** The gate ids, in the order the report lists them. */
export const GATE_IDS = [
  "loads",
  "domain-unchanged",
  "near-misses",
  "null-agent-0",
  "oracle-1",
  "replay-1",
  "near-miss-0",
  "deterministic-build",
  "instruction-and-tools-stable",
  "oracle-dtc-calls",
] as const;

export interface GateOptions {
  pool: KernelPool;
  /** Two empty cache directories: every instance is built in both, and the bytes compared. */
  cacheDirs: [string, string];
}

/** What a built-in domain is made of, captured before the draft's code runs, to detect a draft that changes it. */
function domainShape(domain: DomainDefinition): unknown[] {
  return [
    domain.id,
    domain.version,
    domain.schemaSql,
    // Compared by identity only, never called from here.
    // eslint-disable-next-line @typescript-eslint/unbound-method
    domain.generate,
    domain.tools.length,
    ...domain.tools.flatMap((tool) => [tool, tool.name, tool.description, tool.handler, tool.inputSchema]),
  ];
}

function sameShape(left: unknown[], right: unknown[]): boolean {
  return left.length === right.length && left.every((value, index) => value === right[index]);
}

/** The instruction and tools as the agent sees them; computed after each scale's build (a prepare could mutate them). */
function presentedSignature(task: TaskDefinition): string {
  return JSON.stringify({
    instruction: task.instruction,
    tools: taskToolDefinitions(task).map((tool) => ({
      name: tool.name,
      description: tool.description,
      schema: toolInputJsonSchema(tool.inputSchema),
    })),
  });
}

/** sha256 over an instance's database bytes and its workspace files (names and bytes, sorted). */
function instanceDigest(dbPath: string, workspaceDir: string): string {
  const hash = createHash("sha256").update(readFileSync(dbPath));
  for (const entry of listWorkspaceEntriesSync(workspaceDir)) {
    hash
      .update(entry.path)
      .update("\0")
      .update(readFileSync(join(workspaceDir, entry.path)))
      .update("\0");
  }
  return hash.digest("hex");
}

function summarizeTask(task: TaskDefinition): DraftTaskSummary {
  return {
    id: String(task.id).slice(0, 200),
    summary: String(task.summary ?? "").slice(0, 5_000),
    instruction: String(task.instruction ?? "").slice(0, 100_000),
    tools: Array.isArray(task.tools) ? task.tools.map(String).slice(0, 200) : [],
    nearMisses: Array.isArray(task.nearMisses)
      ? task.nearMisses.slice(0, 100).map((item) => ({
          id: String(item.id).slice(0, 200),
          description: String(item.description ?? "").slice(0, 5_000),
        }))
      : [],
  };
}

function summarizeRow(row: ValidationRow): ValidationRowSummary {
  return {
    scale: row.scale,
    seed: row.seed,
    nullReward: row.nullReward,
    oracleReward: row.oracleReward,
    dtcReplayReward: row.dtcReplayReward,
    nearMissRewards: row.nearMissRewards,
    oracleToolCalls: row.oracleToolCalls,
    problems: row.problems.slice(0, 100).map((problem) => problem.slice(0, 20_000)),
  };
}

/**
 * The gates that are code (synthesis.md), over a draft task module: it loads and builds on the built-in
 * domain without changing it; at least `minNearMisses` near-misses; at every scale and seed the null agent
 * gets 0, the oracle 1, its direct-call replay 1, every near-miss 0; two builds give identical bytes; the
 * instruction and tools are the same at every scale; the oracle's direct-call form has at least
 * `minOracleCallsV0` calls at v0 and more at v3. The first scale and seed run first and stop the run when
 * they fail, so a broken draft reads its errors back quickly.
 */
export async function runDraftGates(
  loadTask: () => Promise<unknown>,
  domain: DomainDefinition,
  request: ValidateRequest,
  options: GateOptions,
): Promise<ValidationReport> {
  const startedAt = Date.now();
  const gates: GateResult[] = [];
  const rows: ValidationRowSummary[] = [];
  const gate = (id: string, passed: boolean, detail: string): void => {
    gates.push({ id, passed, detail: detail.slice(0, 20_000) });
  };
  const finish = (task: TaskDefinition | null): ValidationReport => {
    const reached = new Set(gates.map((item) => item.id));
    for (const id of GATE_IDS) if (!reached.has(id)) gate(id, false, "not reached: an earlier gate failed");
    return {
      kind: "validation",
      ok: gates.every((item) => item.passed),
      task: task ? summarizeTask(task) : null,
      gates,
      rows,
      durationMs: Date.now() - startedAt,
    };
  };

  const before = domainShape(domain);
  let loaded: unknown;
  try {
    loaded = await loadTask();
  } catch (error) {
    gate("loads", false, `the task module failed to load: ${errorMessage(error)}`);
    return finish(null);
  }
  const task = loaded as TaskDefinition;
  if (
    typeof task !== "object" ||
    task === null ||
    typeof task.id !== "string" ||
    typeof task.instruction !== "string" ||
    typeof task.verify !== "function" ||
    !Array.isArray(task.oracle) ||
    !Array.isArray(task.nearMisses)
  ) {
    gate("loads", false, "the module's default export is not a task made by defineTask({...})");
    return finish(null);
  }
  gate("loads", true, `task ${task.id}`);
  const unchanged = (): boolean => task.domain === domain && sameShape(before, domainShape(domain));
  if (!unchanged()) {
    gate(
      "domain-unchanged",
      false,
      `the task must use the built-in domain as loadBuiltinDomain("${domain.id}") returns it, without changing its schema, generator or tools (put task-specific data in prepare)`,
    );
    return finish(task);
  }
  gate("domain-unchanged", true, `builds on ${domain.id} unchanged`);
  if (task.nearMisses.length < request.minNearMisses) {
    gate(
      "near-misses",
      false,
      `${task.nearMisses.length} near-miss(es); at least ${request.minNearMisses} realistic wrong solutions are required`,
    );
    return finish(task);
  }
  gate("near-misses", true, `${task.nearMisses.length} near-misses`);

  const signatures = new Map<Scale, string>();
  const failedRows: Array<{ row: ValidationRowSummary; phase: string }> = [];
  const order: Array<{ scale: Scale; seed: number }> = [];
  for (const seed of request.seeds) for (const scale of request.scales) order.push({ scale, seed });
  let stoppedEarly = false;
  for (const [index, { scale, seed }] of order.entries()) {
    const row = await validateTaskInstance(task, scale, seed, {
      pool: options.pool,
      cacheDir: options.cacheDirs[0],
      timeoutMs: request.cellTimeoutMs,
    });
    const summary = summarizeRow(row);
    rows.push(summary);
    if (!signatures.has(scale)) signatures.set(scale, presentedSignature(task));
    if (!row.ok) failedRows.push({ row: summary, phase: `${scale} seed ${seed}` });
    if (index === 0 && !row.ok) {
      stoppedEarly = true;
      break;
    }
  }
  const rowGate = (id: string, failed: (row: ValidationRowSummary) => string | null): void => {
    const messages = rows
      .map((row) => {
        const problem = failed(row);
        return problem ? `${row.scale} seed ${row.seed}: ${problem}` : null;
      })
      .filter((item): item is string => item !== null);
    gate(
      id,
      messages.length === 0 && !stoppedEarly,
      messages.length > 0
        ? messages.join("\n")
        : stoppedEarly
          ? "not reached at the other scales and seeds"
          : "ok at every scale and seed",
    );
  };
  const crash = (row: ValidationRowSummary): string | null =>
    row.problems.find((problem) => problem.startsWith("validation crashed")) ?? null;
  rowGate("null-agent-0", (row) =>
    row.nullReward === 0 ? null : (crash(row) ?? "the initial state already passes the verifier"),
  );
  rowGate("oracle-1", (row) =>
    row.oracleReward === 1
      ? null
      : (row.problems.find((problem) => problem.startsWith("oracle")) ?? crash(row) ?? "oracle not rewarded"),
  );
  rowGate("replay-1", (row) =>
    row.dtcReplayReward === 1 ? null : "the oracle's direct-call replay was not rewarded",
  );
  rowGate("near-miss-0", (row) => {
    const rewarded = Object.entries(row.nearMissRewards)
      .filter(([, reward]) => reward !== 0)
      .map(([id]) => id);
    if (Object.keys(row.nearMissRewards).length < task.nearMisses.length)
      return crash(row) ?? "not every near-miss ran";
    return rewarded.length === 0 ? null : `rewarded: ${rewarded.join(", ")}`;
  });
  if (stoppedEarly) return finish(task);

  const digests: string[] = [];
  const seed0 = request.seeds[0]!;
  for (const scale of request.scales) {
    try {
      const first = buildInstance(task, scale, seed0, options.cacheDirs[0]);
      const second = buildInstance(task, scale, seed0, options.cacheDirs[1]);
      const a = instanceDigest(first.dbPath, first.workspaceDir);
      const b = instanceDigest(second.dbPath, second.workspaceDir);
      if (a !== b) digests.push(`${scale}: two builds differ (database or workspace bytes)`);
    } catch (error) {
      digests.push(`${scale}: build failed: ${errorMessage(error)}`);
    }
  }
  gate(
    "deterministic-build",
    digests.length === 0,
    digests.length === 0 ? "two builds give identical bytes" : digests.join("\n"),
  );
  const distinct = new Set(signatures.values());
  gate(
    "instruction-and-tools-stable",
    distinct.size === 1 && presentedSignature(task) === [...distinct][0] && unchanged(),
    distinct.size === 1
      ? "identical at every scale"
      : "the instruction or the tools differ between scales (a prepare must not change the task)",
  );
  const callProblems: string[] = [];
  for (const seed of request.seeds) {
    const calls = (scale: Scale): number | undefined =>
      rows.find((row) => row.scale === scale && row.seed === seed)?.oracleToolCalls;
    const v0 = calls("v0");
    const v3 = calls("v3");
    if (v0 !== undefined && v0 < request.minOracleCallsV0)
      callProblems.push(
        `seed ${seed}: ${v0} direct calls at v0, at least ${request.minOracleCallsV0} required`,
      );
    if (v0 !== undefined && v3 !== undefined && v3 <= v0)
      callProblems.push(`seed ${seed}: ${v3} direct calls at v3, not more than the ${v0} at v0`);
  }
  gate(
    "oracle-dtc-calls",
    callProblems.length === 0,
    callProblems.length === 0
      ? rows.map((row) => `${row.scale}/${row.seed}: ${row.oracleToolCalls}`).join(", ")
      : callProblems.join("\n"),
  );
  return finish(task);
}
