/**
 * What a synthesis run costs, measured on scripted models: one retail candidate through every stage
 * (intents, a constructor that reads the domain, fails one validation and repairs, the auditor, a
 * calibration of 2 samples at v0 and v3), with every request's prompt and every reply counted by the Qwen3
 * chat template (what a server would bill), then extrapolated to a real run. Prints tables; asserts nothing.
 *
 *   npx tsx bench/synth-cost.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLAIM_DONE_TOOL_NAME } from "../src/envs/index.js";
import {
  createOpenAiClient,
  createTokenCounter,
  type ChatMessage,
  type FunctionTool,
} from "../src/harness/index.js";
import { PTC_TOOL_NAME } from "../src/runtime/index.js";
import { loadSuite } from "../src/suite/index.js";
import { runSynthesis } from "../src/synth/index.js";
import { startRoleServer, type RoleRequest } from "../test/helpers/scripted-role-server.js";

const counter = createTokenCounter();

/** A reply calling one function, with usage counted from the real request and reply. */
function countedReply(request: RoleRequest, name: string, args: Record<string, unknown>): unknown {
  const message: ChatMessage = {
    role: "assistant",
    content: null,
    tool_calls: [
      {
        id: `call_${Math.random().toString(36).slice(2, 8)}`,
        type: "function",
        function: { name, arguments: JSON.stringify(args) },
      },
    ],
  };
  const prompt = counter.countContext(
    request.messages as ChatMessage[],
    (request.tools ?? []) as unknown as FunctionTool[],
  );
  return {
    choices: [{ message, finish_reason: "tool_calls" }],
    usage: { prompt_tokens: prompt, completion_tokens: counter.countMessage(message) },
  };
}

function draftFrom(base: string, id: string, override = ""): string {
  return `import { defineTask, loadBuiltinDomain, loadSuite } from "progagent";
const domain = await loadBuiltinDomain("retail");
const [base] = await loadSuite(${JSON.stringify(base)});
export default defineTask({ ...base!, id: ${JSON.stringify(id)}, domain, ${override} });
`;
}

const [recall] = await loadSuite("retail.apply-supplier-recall");
// A realistic module size for the completions: the built-in task's own source is what a constructor writes.
const { readFileSync } = await import("node:fs");
const recallSource = readFileSync(
  new URL("../src/suite/retail/tasks/apply-supplier-recall.ts", import.meta.url),
  "utf8",
);
const id = "retail.recall-scope";
const good = draftFrom("retail.apply-supplier-recall", id);
const padding = `\n/* ${recallSource.replace(/\*\//g, "* /")} */\n`;
const script: Array<[string, Record<string, unknown>]> = [
  ["list_domain_files", {}],
  ["read_domain_file", { path: "api.md" }],
  ["read_domain_file", { path: "domain/tasks/apply-supplier-recall.ts" }],
  ["read_domain_file", { path: "domain/generate-notices.ts" }],
  [
    "write_task_module",
    {
      content:
        draftFrom(
          "retail.apply-supplier-recall",
          id,
          `verify: () => [{ id: "x", passed: true, message: "" }]`,
        ) + padding,
    },
  ],
  ["validate_draft", {}],
  ["write_task_module", { content: good + padding }],
  ["validate_draft", {}],
  ["finish", {}],
];
const constructorServer = await startRoleServer((request) => {
  if (request.tools?.some((tool) => tool.function.name === "propose_intents"))
    return countedReply(request, "propose_intents", {
      intents: [
        {
          slug: "recall-scope",
          request:
            "Several suppliers sent recall letters, some amended later. Cancel every unshipped order that still holds a recalled item and list them.",
        },
      ],
    });
  const step = script[request.messages.filter((message) => message.role === "assistant").length]!;
  return countedReply(request, step[0], step[1]);
});
const checks = {
  requirements_stated: true,
  answer_format_stated: true,
  no_answer_leakage: true,
  realistic_near_misses: true,
};
const auditorServer = await startRoleServer((request) =>
  countedReply(request, "submit_verdict", { verdict: "accept", reasons: ["consistent"], checks }),
);
let episodes = 0;
const referenceServer = await startRoleServer((request) => {
  const step = request.messages.filter((message) => message.role === "assistant").length;
  if (step === 0) episodes += 1;
  if (episodes % 2 === 0) return countedReply(request, CLAIM_DONE_TOOL_NAME, { answer: "[]" });
  const cell = recall!.oracle[step];
  if (cell !== undefined) return countedReply(request, PTC_TOOL_NAME, { code: cell });
  const last = [...request.messages].reverse().find((message) => message.role === "tool")?.content ?? "";
  return countedReply(request, CLAIM_DONE_TOOL_NAME, { answer: last.trim() });
});

const root = mkdtempSync(join(tmpdir(), "synth-cost-"));
try {
  const client = (baseUrl: string, model: string) => createOpenAiClient({ baseUrl, model, maxRetries: 0 });
  const startedAt = Date.now();
  const outcome = await runSynthesis({
    domain: "retail",
    outDir: join(root, "suite"),
    candidates: 1,
    maxRounds: 3,
    model: {
      spec: "openai:constructor",
      baseUrl: constructorServer.baseUrl,
      client: client(constructorServer.baseUrl, "c"),
    },
    auditor: {
      spec: "openai:auditor",
      baseUrl: auditorServer.baseUrl,
      client: client(auditorServer.baseUrl, "a"),
    },
    calibration: {
      spec: "openai:reference",
      baseUrl: referenceServer.baseUrl,
      client: client(referenceServer.baseUrl, "r"),
      samples: 2,
      band: { low: 0, high: 0.8 },
      harness: "ptc",
    },
    scales: ["v0", "v3"],
    seeds: [0],
  });
  const seconds = ((Date.now() - startedAt) / 1000).toFixed(0);
  const candidate = outcome.report.candidates[0]!;
  const rows: Array<[string, { calls: number; promptTokens: number; completionTokens: number }]> = [
    ["intents", outcome.report.intents.tokens],
    ["construct", candidate.tokens.construct],
    ["audit", candidate.tokens.audit],
    ["calibrate (2 samples x v0,v3)", candidate.tokens.calibrate],
  ];
  console.log(`measured (scripted models, Qwen3 template counts; ${candidate.status}; ${seconds} s wall)`);
  console.log("| stage | calls | prompt tokens | completion tokens | prompt / call |");
  console.log("| --- | --- | --- | --- | --- |");
  for (const [stage, usage] of rows)
    console.log(
      `| ${stage} | ${usage.calls} | ${usage.promptTokens} | ${usage.completionTokens} | ${Math.round(usage.promptTokens / Math.max(1, usage.calls))} |`,
    );

  // Extrapolation: a real constructor takes more turns than the script (assumed 3x: more reading, 3 repair
  // rounds); calibration is 8 samples x 4 scales; 20 candidates per domain; the auditor as measured.
  const constructPerCall = candidate.tokens.construct.promptTokens / candidate.tokens.construct.calls;
  const completionPerCall = candidate.tokens.construct.completionTokens / candidate.tokens.construct.calls;
  const calibratePerEpisode = {
    calls: candidate.tokens.calibrate.calls / 4,
    prompt: candidate.tokens.calibrate.promptTokens / 4,
    completion: candidate.tokens.calibrate.completionTokens / 4,
  };
  const candidates = 20;
  const constructCalls = 3 * candidate.tokens.construct.calls;
  // A longer session carries a longer history: the mean context grows roughly with the turn count.
  const constructPrompt = constructCalls * constructPerCall * 2;
  const estimate = {
    intents: {
      calls: 1,
      prompt: outcome.report.intents.tokens.promptTokens,
      completion: 20 * outcome.report.intents.tokens.completionTokens,
    },
    construct: {
      calls: candidates * constructCalls,
      prompt: candidates * constructPrompt,
      completion: candidates * constructCalls * completionPerCall,
    },
    audit: {
      calls: candidates * candidate.tokens.audit.calls,
      prompt: candidates * candidate.tokens.audit.promptTokens,
      completion: candidates * candidate.tokens.audit.completionTokens,
    },
    calibrate: {
      calls: candidates * 32 * calibratePerEpisode.calls,
      prompt: candidates * 32 * calibratePerEpisode.prompt,
      completion: candidates * 32 * calibratePerEpisode.completion,
    },
  };
  console.log(
    `\nestimate for one domain, ${candidates} candidates (constructor 3x the scripted turns, calibration 8 samples x 4 scales)`,
  );
  console.log("| stage | calls | prompt tokens | completion tokens |");
  console.log("| --- | --- | --- | --- |");
  let calls = 0;
  let prompt = 0;
  let completion = 0;
  for (const [stage, usage] of Object.entries(estimate)) {
    calls += usage.calls;
    prompt += usage.prompt;
    completion += usage.completion;
    console.log(
      `| ${stage} | ${Math.round(usage.calls)} | ${Math.round(usage.prompt)} | ${Math.round(usage.completion)} |`,
    );
  }
  console.log(`| total | ${Math.round(calls)} | ${Math.round(prompt)} | ${Math.round(completion)} |`);
} finally {
  await Promise.all([constructorServer.close(), auditorServer.close(), referenceServer.close()]);
  rmSync(root, { recursive: true, force: true });
}
