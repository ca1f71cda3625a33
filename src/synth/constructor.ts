import type { ModelClient } from "../harness/index.js";
import type { DomainContext } from "./domain-context.js";
import { DRAFT_MODULE, type DraftFolder } from "./draft-folder.js";
import type { Intent } from "./intents.js";
import { runToolSession, stringArgument, type StageUsage } from "./tool-session.js";
import type { GateResult, ValidationReport } from "./worker-protocol.js";

/** One validation of a draft, as the report records it. */
export interface ValidationRound {
  round: number;
  ok: boolean;
  /** The failed gates (all gates when it passed are in `gates` of the candidate). */
  failedGates: GateResult[];
  /** Set when the sandbox produced no report (crash, timeout, protocol violation). */
  sandboxError?: string;
  durationMs: number;
}

export interface DraftValidation {
  report: ValidationReport | null;
  error?: string;
  log: string;
  durationMs: number;
}

export interface ConstructorOutcome {
  converged: boolean;
  rounds: ValidationRound[];
  /** The passing report (converged) or the last one. */
  lastReport: ValidationReport | null;
  turns: number;
  reason: string;
}

/** The validation report as the constructor reads it back: failed gates first, each with its detail. */
export function formatValidationForModel(
  validation: DraftValidation,
  round: number,
  maxRounds: number,
): string {
  const header = `Validation round ${round} of ${maxRounds}.`;
  if (!validation.report)
    return `${header} The sandbox produced no report: ${validation.error ?? "unknown error"}\nOutput (tail):\n${validation.log.slice(-4_000)}`;
  const report = validation.report;
  if (report.ok) return `${header} Every gate passed. Call finish.`;
  const failed = report.gates.filter((gate) => !gate.passed && !gate.detail.startsWith("not reached"));
  const lines = failed.map((gate) => `- ${gate.id}: ${gate.detail.slice(0, 3_000)}`);
  const unreached = report.gates
    .filter((gate) => gate.detail.startsWith("not reached"))
    .map((gate) => gate.id);
  return [
    `${header} FAILED. Repair ${DRAFT_MODULE} and validate again.`,
    ...lines,
    unreached.length ? `Not reached yet: ${unreached.join(", ")}` : "",
    validation.log.trim() ? `Output (tail):\n${validation.log.slice(-2_000)}` : "",
  ]
    .filter(Boolean)
    .join("\n");
}

function systemPrompt(domainId: string, taskId: string, maxRounds: number, minNearMisses: number): string {
  return `You are the constructor of a verifiable long-horizon task for tool-using agents, in the progagent framework (TypeScript, ESM). You write ONE file, ${DRAFT_MODULE}, and repair it until every validation gate passes.

The file must look like this:
  import { defineTask, loadBuiltinDomain /* , kit helpers such as parseCsv, checkStateDiff, parseAnswerJson */ } from "progagent";
  const domain = await loadBuiltinDomain("${domainId}");
  export default defineTask({
    id: "${taskId}", domain, summary: "...", instruction: "...",
    tools: ["<names of the domain's tools the task exposes>"], workspaceWrite: false,
    prepare(context) { /* optional: task-specific rows or documents, drawn only from context.random / context.faker; scale with context.factors */ },
    verify({ initial, final, answer }) { /* compute the expectation from the generated data (initial state); diff initial against final for write tasks; return checks [{ id, passed, message }] */ },
    oracle: ["<Python cell(s) for the sandboxed kernel: tools.<name>(**kwargs) returns Python values; the last cell prints the answer>"],
    nearMisses: [{ id, description, cells: ["<a realistic wrong solution>"] }, ...],
  });

Rules (checked in code by validate_draft, at scales v0..v3 and two seeds): the null agent (no changes, empty answer) must score 0 - the initial state must not already satisfy the verifier; the oracle must score 1, and so must the replay of its direct tool calls; every near-miss must score 0, and there must be at least ${minNearMisses}; two builds must give identical bytes (no wall clock, no unseeded randomness); the instruction and tools are the same at every scale (never change them in prepare); the oracle needs at least 10 tool calls at v0 and more at v3 (it must read the data through the tools, which scale). Do not change the shared domain (schema, generator, tools): task data goes in prepare. The instruction must state every requirement the verifier checks and the exact answer format, without giving away the answer. Near-misses are realistic mistakes (a missed rule, an off-by-one window, a skipped write), not random output.

Tools: read the domain (list_domain_files, read_domain_file: its generator, tools, existing tasks, api.md), write_task_module, validate_draft (you have ${maxRounds} validation rounds), finish once a validation passed.`;
}

/**
 * The constructor agent: a model session that reads the domain, writes the draft module and validates it in
 * the sandbox, reading the errors back, for at most `maxRounds` validations. Converged when the last
 * validation of the current module passed.
 */
export async function runConstructor(options: {
  client: ModelClient;
  context: DomainContext;
  intent: Intent;
  taskId: string;
  draft: DraftFolder;
  validate: () => Promise<DraftValidation>;
  maxRounds: number;
  maxTurns: number;
  minNearMisses: number;
  usage: StageUsage;
  signal?: AbortSignal;
}): Promise<ConstructorOutcome> {
  const rounds: ValidationRound[] = [];
  let lastReport: ValidationReport | null = null;
  let validatedText: string | null = null;
  let passedText: string | null = null;
  let finished = false;

  const validateNow = async (): Promise<string> => {
    const text = options.draft.readModule();
    if (text === null) return `Error: write ${DRAFT_MODULE} first (write_task_module)`;
    if (rounds.length >= options.maxRounds)
      return `Error: all ${options.maxRounds} validation rounds are used`;
    const validation = await options.validate();
    const round = rounds.length + 1;
    const report = validation.report;
    let ok = report?.ok ?? false;
    const failedGates = report ? report.gates.filter((gate) => !gate.passed) : [];
    if (report && report.task && report.task.id !== options.taskId) {
      ok = false;
      failedGates.unshift({
        id: "task-id",
        passed: false,
        detail: `the task id must be '${options.taskId}', not '${report.task.id}'`,
      });
      report.gates.unshift(failedGates[0]!);
      report.ok = false;
    }
    rounds.push({
      round,
      ok,
      failedGates,
      ...(report ? {} : { sandboxError: validation.error ?? "no report" }),
      durationMs: validation.durationMs,
    });
    lastReport = report;
    validatedText = text;
    passedText = ok ? text : null;
    return formatValidationForModel(validation, round, options.maxRounds);
  };

  const session = await runToolSession({
    client: options.client,
    system: systemPrompt(options.context.domain.id, options.taskId, options.maxRounds, options.minNearMisses),
    user: `Build the task "${options.taskId}" for this user request:\n\n${options.intent.request}\n\nStart by reading api.md and one or two existing tasks of the domain.`,
    maxTurns: options.maxTurns,
    maxTokensPerTurn: 16_384,
    usage: options.usage,
    ...(options.signal ? { signal: options.signal } : {}),
    isDone: () =>
      finished || (rounds.length >= options.maxRounds && !(rounds[rounds.length - 1]?.ok ?? false)),
    tools: [
      {
        name: "list_domain_files",
        description: "Lists the domain's source files, the domain kit's README and api.md.",
        parameters: { type: "object", properties: {} },
        handler: () => options.context.files.join("\n"),
      },
      {
        name: "read_domain_file",
        description: "Reads one file listed by list_domain_files (60,000 characters from offset).",
        parameters: {
          type: "object",
          properties: { path: { type: "string" }, offset: { type: "integer", minimum: 0 } },
          required: ["path"],
        },
        handler: (args) =>
          options.context.read(
            stringArgument(args, "path", 500),
            typeof args.offset === "number" ? Math.max(0, Math.floor(args.offset)) : 0,
          ),
      },
      {
        name: "write_task_module",
        description: `Writes the whole ${DRAFT_MODULE} (replacing it).`,
        parameters: { type: "object", properties: { content: { type: "string" } }, required: ["content"] },
        handler: (args) => options.draft.write(DRAFT_MODULE, stringArgument(args, "content", 300_000)),
      },
      {
        name: "read_task_module",
        description: `Reads ${DRAFT_MODULE} as last written.`,
        parameters: { type: "object", properties: {} },
        handler: () => options.draft.read(DRAFT_MODULE),
      },
      {
        name: "validate_draft",
        description:
          "Validates the draft in the sandbox (every gate, v0..v3, two seeds; stops at the first scale that fails) and returns the failed gates. Uses one round.",
        parameters: { type: "object", properties: {} },
        handler: validateNow,
      },
      {
        name: "finish",
        description: "Ends construction. Only after a validation of the current module passed.",
        parameters: { type: "object", properties: { notes: { type: "string" } } },
        handler: () => {
          const text = options.draft.readModule();
          if (passedText === null || text !== passedText)
            return "Error: the current module has not passed validation; call validate_draft";
          finished = true;
          return "finished";
        },
      },
    ],
  });

  // A module changed after its last validation, with rounds left, is validated once more before judging it.
  const current = options.draft.readModule();
  if (current !== null && current !== validatedText && rounds.length < options.maxRounds) await validateNow();
  const last = rounds[rounds.length - 1];
  const converged = last?.ok === true && passedText !== null && options.draft.readModule() === passedText;
  let reason: string;
  if (converged) reason = `converged after ${rounds.length} validation round(s)`;
  else if (rounds.length === 0)
    reason = `the constructor never validated a draft (${session.turns} turns, ${session.endReason})`;
  else {
    const failed = (last?.failedGates ?? [])
      .filter((gate) => !gate.detail.startsWith("not reached"))
      .map((gate) => `${gate.id}: ${gate.detail.split("\n")[0]!.slice(0, 300)}`);
    reason = `did not converge after ${rounds.length} of ${options.maxRounds} validation rounds; last failure: ${last?.sandboxError ?? (failed.join("; ") || "unknown")}`;
  }
  return { converged, rounds, lastReport, turns: session.turns, reason };
}
