import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLAIM_DONE_TOOL_NAME } from "../src/envs/index.js";
import { createOpenAiClient } from "../src/harness/index.js";
import { PTC_TOOL_NAME } from "../src/runtime/index.js";
import { loadSuite } from "../src/suite/index.js";
import { runSynthesis, type SynthesisOptions } from "../src/synth/run-synthesis.js";
import { readSynthReport } from "../src/synth/synth-report.js";
import {
  startRoleServer,
  toolCallReply,
  type RoleRequest,
  type RoleServer,
} from "./helpers/scripted-role-server.js";

const BIN = join(import.meta.dirname, "..", "bin", "progagent.js");

function runCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { timeout: 300_000, maxBuffer: 32 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A draft module built on a validated built-in retail task; `override` replaces parts of it. */
function draftFrom(base: string, id: string, override = ""): string {
  return `import { defineTask, loadBuiltinDomain, loadSuite } from "progagent";
const domain = await loadBuiltinDomain("retail");
const [base] = await loadSuite(${JSON.stringify(base)});
export default defineTask({ ...base!, id: ${JSON.stringify(id)}, domain, ${override} });
`;
}
const ALWAYS_PASSES = `verify: () => [{ id: "cancelled", passed: true, message: "ok" }]`;

const INTENTS = [
  {
    slug: "recall-cancellations",
    request:
      "Three suppliers mailed recall letters this week, one of them amended twice. Stop every order that still has a recalled item and has not left the warehouse, then give me the list.",
  },
  {
    slug: "recall-cancellations-again",
    request:
      "Three suppliers mailed recall letters this week, one of them amended twice. Stop every order that still has a recalled item and has not left the warehouse, then give me the list!",
  },
  {
    slug: "never-converges",
    request:
      "Find customers whose loyalty tier lapsed last quarter and tell me how many would regain it with one more purchase.",
  },
  {
    slug: "auditor-rejects",
    request:
      "Finance wants last month's takings per product family after refunds, rounded to cents, as a small table.",
  },
  {
    slug: "too-easy",
    request:
      "Work through the open competitor price claims and credit the shoppers who qualify under our matching rules.",
  },
];

const SCRIPTS: Record<string, Array<[string, Record<string, unknown>]>> = {
  "recall-cancellations": [
    ["read_domain_file", { path: "api.md" }],
    [
      "write_task_module",
      { content: draftFrom("retail.apply-supplier-recall", "retail.recall-cancellations", ALWAYS_PASSES) },
    ],
    ["validate_draft", {}],
    [
      "write_task_module",
      { content: draftFrom("retail.apply-supplier-recall", "retail.recall-cancellations") },
    ],
    ["validate_draft", {}],
    ["finish", { notes: "repaired the verifier" }],
  ],
  "never-converges": [
    [
      "write_task_module",
      { content: draftFrom("retail.apply-supplier-recall", "retail.never-converges", ALWAYS_PASSES) },
    ],
    ["validate_draft", {}],
    ["validate_draft", {}],
    ["finish", {}],
  ],
  "auditor-rejects": [
    ["write_task_module", { content: draftFrom("retail.net-revenue-by-category", "retail.auditor-rejects") }],
    ["validate_draft", {}],
    ["finish", {}],
  ],
  "too-easy": [
    ["write_task_module", { content: draftFrom("retail.price-match-credits", "retail.too-easy") }],
    ["validate_draft", {}],
    ["finish", {}],
  ],
};

function assistantTurns(request: RoleRequest): number {
  return request.messages.filter((message) => message.role === "assistant").length;
}

function constructorRole(request: RoleRequest): unknown {
  if (request.tools?.some((tool) => tool.function.name === "propose_intents"))
    return toolCallReply("propose_intents", { intents: INTENTS });
  const user = request.messages.find((message) => message.role === "user")?.content ?? "";
  const slug = /Build the task "retail\.([a-z-]+)"/.exec(user)?.[1] ?? "";
  const step = SCRIPTS[slug]?.[assistantTurns(request)];
  if (!step) throw new Error(`no scripted constructor step for ${slug} at turn ${assistantTurns(request)}`);
  return toolCallReply(step[0], step[1]);
}

function auditorRole(request: RoleRequest): unknown {
  const user = request.messages.find((message) => message.role === "user")?.content ?? "";
  const checks = {
    requirements_stated: true,
    answer_format_stated: true,
    no_answer_leakage: true,
    realistic_near_misses: true,
  };
  if (user.includes("retail.auditor-rejects"))
    return toolCallReply("submit_verdict", {
      verdict: "reject",
      reasons: ["the instruction never says which refund statuses count, but the verifier checks them"],
      checks: { ...checks, requirements_stated: false },
    });
  return toolCallReply("submit_verdict", { verdict: "accept", reasons: ["consistent"], checks });
}

describe("progagent synth (scripted models for every role)", () => {
  let root: string;
  let constructorServer: RoleServer;
  let auditorServer: RoleServer;
  let referenceServer: RoleServer;
  const episodesPerTask = new Map<string, number>();
  let recallOracle: string[] = [];
  let recallInstruction = "";

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "synth-test-"));
    const [recall] = await loadSuite("retail.apply-supplier-recall");
    recallOracle = recall!.oracle;
    recallInstruction = recall!.instruction;
    constructorServer = await startRoleServer(constructorRole);
    auditorServer = await startRoleServer(auditorRole);
    // The reference model solves the recall task in every other episode (pass rate 0.5) and never the others (0).
    referenceServer = await startRoleServer((request) => {
      const text = request.messages.map((message) => message.content ?? "").join("\n");
      const task = text.includes(recallInstruction) ? "recall" : "other";
      const step = assistantTurns(request);
      if (step === 0) episodesPerTask.set(task, (episodesPerTask.get(task) ?? 0) + 1);
      const solves = task === "recall" && episodesPerTask.get(task)! % 2 === 1;
      if (!solves) return toolCallReply(CLAIM_DONE_TOOL_NAME, { answer: "I could not finish this." });
      const cell = recallOracle[step];
      if (cell !== undefined) return toolCallReply(PTC_TOOL_NAME, { code: cell });
      const last = [...request.messages].reverse().find((message) => message.role === "tool")?.content ?? "";
      return toolCallReply(CLAIM_DONE_TOOL_NAME, { answer: last.trim() });
    });
  });
  afterAll(async () => {
    await Promise.all([constructorServer.close(), auditorServer.close(), referenceServer.close()]);
    rmSync(root, { recursive: true, force: true });
  });

  const options = (outDir: string): SynthesisOptions => ({
    domain: "retail",
    outDir,
    candidates: 4,
    maxRounds: 2,
    model: {
      spec: "openai:constructor",
      baseUrl: constructorServer.baseUrl,
      client: createOpenAiClient({ baseUrl: constructorServer.baseUrl, model: "constructor", maxRetries: 0 }),
    },
    auditor: {
      spec: "openai:auditor",
      baseUrl: auditorServer.baseUrl,
      client: createOpenAiClient({ baseUrl: auditorServer.baseUrl, model: "auditor", maxRetries: 0 }),
    },
    calibration: {
      spec: "openai:reference",
      baseUrl: referenceServer.baseUrl,
      client: createOpenAiClient({ baseUrl: referenceServer.baseUrl, model: "reference", maxRetries: 0 }),
      samples: 2,
      band: { low: 0, high: 0.8 },
      harness: "ptc",
    },
    // The full gates (v0..v3, seeds 0 and 1) run in test/synth-sandbox.test.ts; two scales keep this test short.
    scales: ["v0", "v3"],
    seeds: [0],
  });

  it("repairs, rejects, audits and filters candidates, and writes the accepted task as a suite module", async () => {
    const outDir = join(root, "suite");
    const outcome = await runSynthesis(options(outDir));
    const byId = new Map(outcome.report.candidates.map((candidate) => [candidate.id, candidate]));

    expect(outcome.report.intents.dropped).toContainEqual({
      slug: "recall-cancellations-again",
      reason: "near-duplicate of recall-cancellations",
    });
    expect([...byId.keys()]).toEqual([
      "retail.recall-cancellations",
      "retail.never-converges",
      "retail.auditor-rejects",
      "retail.too-easy",
    ]);

    // The first draft's initial state already satisfied the verifier; the repaired one passed.
    const repaired = byId.get("retail.recall-cancellations")!;
    expect(repaired.rounds.map((round) => round.ok)).toEqual([false, true]);
    expect(repaired.rounds[0]!.failedGates.map((gate) => gate.id)).toContain("null-agent-0");
    expect(`${repaired.status}: ${repaired.reason}`).toMatch(/^accepted/);
    expect(repaired.audit?.verdict).toBe("accept");
    expect(repaired.calibration).toMatchObject({ kept: true, passRates: { v0: 0.5, v3: 0.5 } });

    const stuck = byId.get("retail.never-converges")!;
    expect(stuck).toMatchObject({ status: "rejected", stage: "construct" });
    expect(stuck.rounds).toHaveLength(2);
    expect(stuck.reason).toContain("did not converge after 2 of 2 validation rounds");
    expect(stuck.reason).toContain("null-agent-0");
    expect(stuck.audit).toBeNull();

    const rejected = byId.get("retail.auditor-rejects")!;
    expect(
      rejected.rounds.map((round) => round.ok),
      rejected.reason,
    ).toEqual([true]);
    expect(rejected).toMatchObject({ status: "rejected", stage: "audit" });
    expect(rejected.reason).toContain("never says which refund statuses count");
    expect(rejected.calibration).toBeNull();

    const easy = byId.get("retail.too-easy")!;
    expect(easy).toMatchObject({ status: "rejected", stage: "calibrate" });
    expect(easy.calibration, easy.reason).toMatchObject({ kept: false, passRates: { v0: 0, v3: 0 } });
    expect(easy.reason).toContain("pass rate 0.00 outside (0, 0.8)");

    expect(outcome.accepted).toEqual(["retail.recall-cancellations"]);
    expect(readFileSync(join(outDir, "tasks", "recall-cancellations.ts"), "utf8")).toContain(
      '"retail.recall-cancellations"',
    );
    const index = readFileSync(join(outDir, "index.ts"), "utf8");
    expect(index).toContain('import task0 from "./tasks/recall-cancellations.js"');
    expect(existsSync(join(outDir, "tasks", "too-easy.ts"))).toBe(false);

    // Tokens per stage, as the scripted servers reported them (1,000 prompt + 200 completion per call).
    expect(repaired.tokens.construct).toEqual({ calls: 6, promptTokens: 6_000, completionTokens: 1_200 });
    expect(repaired.tokens.audit.calls).toBe(1);
    expect(repaired.tokens.calibrate.calls).toBe(
      referenceServer.requests.filter((request) => {
        const text = request.messages.map((message) => message.content ?? "").join("\n");
        return text.includes(recallInstruction);
      }).length,
    );
    const markdown = readFileSync(join(outDir, "synth-report.md"), "utf8");
    expect(markdown).toContain("| retail.too-easy | rejected | calibrate |");
    expect(markdown).toContain("## Model calls and tokens per stage");
    expect(readSynthReport(outDir)?.candidates).toHaveLength(4);

    // Resuming finds every candidate decided: no model is called again.
    const before = [
      constructorServer.requests.length,
      auditorServer.requests.length,
      referenceServer.requests.length,
    ];
    const resumed = await runSynthesis(options(outDir));
    expect(resumed.accepted).toEqual(["retail.recall-cancellations"]);
    expect([
      constructorServer.requests.length,
      auditorServer.requests.length,
      referenceServer.requests.length,
    ]).toEqual(before);

    // A different configuration is refused, naming the difference.
    await expect(runSynthesis({ ...options(outDir), maxRounds: 3 })).rejects.toThrow(/maxRounds: 2 -> 3/);
  }, 900_000);

  it("the produced suite folder loads with --suite, runs under eval --model oracle and calibrates", async () => {
    const outDir = join(root, "suite");
    expect(existsSync(join(outDir, "index.ts"))).toBe(true);
    const evaluation = await runCli([
      "eval",
      "--suite",
      outDir,
      "--no-builtin",
      "--model",
      "oracle",
      "--harness",
      "ptc",
      "--scales",
      "v0",
      "--out",
      join(root, "eval"),
    ]);
    expect(evaluation.stderr).not.toMatch(/progagent: /);
    expect(evaluation.code).toBe(0);
    expect(evaluation.stdout).toMatch(/PTC\s+v0\s+1\s+1\s+0\s+1\.00/);

    // The reference model solves every other episode of the recall task: 0.5 is inside (0, 0.8), kept.
    const calibration = await runCli([
      "tasks",
      "calibrate",
      "--suite",
      outDir,
      "--no-builtin",
      "--model",
      "openai:reference",
      "--base-url",
      referenceServer.baseUrl,
      "--samples",
      "2",
      "--scales",
      "v0",
      "--harness",
      "ptc",
      "--concurrency",
      "1",
      "--out",
      join(root, "calibrate"),
      "--json",
    ]);
    expect(calibration.code, calibration.stderr).toBe(0);
    const rows = JSON.parse(calibration.stdout) as Array<{
      task: string;
      passRates: Record<string, number>;
      kept: boolean;
    }>;
    expect(rows).toEqual([
      expect.objectContaining({ task: "retail.recall-cancellations", passRates: { v0: 0.5 }, kept: true }),
    ]);
    expect(existsSync(join(root, "calibrate", "calibration.json"))).toBe(true);
  }, 600_000);

  it("progagent synth runs end to end through the CLI, with the full gates (v0..v3, seeds 0 and 1)", async () => {
    episodesPerTask.clear();
    const outDir = join(root, "cli-suite");
    const result = await runCli([
      "synth",
      "--domain",
      "retail",
      "--model",
      "openai:constructor",
      "--base-url",
      constructorServer.baseUrl,
      "--auditor-model",
      "openai:auditor",
      "--auditor-base-url",
      auditorServer.baseUrl,
      "--calibrate-model",
      "openai:reference",
      "--calibrate-base-url",
      referenceServer.baseUrl,
      "--samples",
      "2",
      "--band",
      "0,0.8",
      "--out",
      outDir,
      "--candidates",
      "1",
      "--max-rounds",
      "3",
      // An hour: 3.6e6 ms. Read as 3.6e9 ms, it overflowed the timer and every sandbox run stopped at once.
      "--timeout",
      "3600",
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("1 of 1 candidates accepted: retail.recall-cancellations");
    expect(result.stdout).toMatch(/model calls \d+, prompt tokens \d+, completion tokens \d+/);
    const report = readSynthReport(outDir)!;
    const [candidate] = report.candidates;
    expect(candidate!.rounds.map((round) => round.ok)).toEqual([false, true]);
    expect(Object.keys(candidate!.oracleToolCalls)).toEqual([
      "v0/0",
      "v1/0",
      "v2/0",
      "v3/0",
      "v0/1",
      "v1/1",
      "v2/1",
      "v3/1",
    ]);
    expect(candidate!.calibration?.passRates).toEqual({ v0: 0.5, v1: 0.5, v2: 0.5, v3: 0.5 });
    expect(existsSync(join(outDir, "tasks", "recall-cancellations.ts"))).toBe(true);
  }, 900_000);

  it("synth refuses a band that is not two increasing pass rates, before any model call", async () => {
    const before = constructorServer.requests.length;
    const result = await runCli([
      "synth",
      "--domain",
      "retail",
      "--model",
      "openai:constructor",
      "--base-url",
      constructorServer.baseUrl,
      "--out",
      join(root, "bad-band"),
      "--candidates",
      "1",
      "--band",
      "0.8,0.2",
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--band '0.8,0.2': the lower bound must be below the upper bound");
    expect(constructorServer.requests.length).toBe(before);
  }, 120_000);
});
