import type { ModelClient } from "../harness/index.js";
import { runToolSession, type StageUsage } from "./tool-session.js";
import type { ValidationReport } from "./worker-protocol.js";

export const AUDIT_CHECKS = [
  "requirements_stated",
  "answer_format_stated",
  "no_answer_leakage",
  "realistic_near_misses",
] as const;
export type AuditCheck = (typeof AUDIT_CHECKS)[number];

export interface AuditVerdict {
  verdict: "accept" | "reject";
  reasons: string[];
  checks: Partial<Record<AuditCheck, boolean>>;
  /** Set when the auditor's own judgement was overridden (a failed gate, a missing verdict). */
  note?: string;
}

const SYSTEM = `You are an independent auditor of synthesised evaluation tasks for tool-using agents. You did not write the task. You read its source (instruction, prepare, verifier, oracle, near-misses) and its validation report, and you judge it strictly:
- requirements_stated: every requirement the verifier checks is stated in the instruction (or in a document the instruction points to);
- answer_format_stated: the exact answer format the verifier parses is stated in the instruction;
- no_answer_leakage: neither the instruction nor the workspace documents the task adds give the answer away;
- realistic_near_misses: the near-misses are mistakes a capable agent could plausibly make.
Accept only when all four hold. Call submit_verdict exactly once.`;

/**
 * The auditor: a separate model session over the draft and its validation report. It can reject a draft
 * that passed the gates; it can never accept one that failed a gate (enforced here, whatever it says).
 */
export async function runAuditor(options: {
  client: ModelClient;
  moduleText: string;
  report: ValidationReport;
  usage: StageUsage;
  maxTurns?: number;
  signal?: AbortSignal;
}): Promise<AuditVerdict> {
  let submitted: AuditVerdict | undefined;
  const gateLines = options.report.gates
    .map(
      (gate) => `- ${gate.passed ? "PASS" : "FAIL"} ${gate.id}: ${gate.detail.split("\n")[0]!.slice(0, 300)}`,
    )
    .join("\n");
  const calls = options.report.rows
    .map((row) => `${row.scale}/seed ${row.seed}: ${row.oracleToolCalls}`)
    .join(", ");
  await runToolSession({
    client: options.client,
    system: SYSTEM,
    user: `Validation report (gates in code):\n${gateLines}\nOracle direct calls: ${calls}\n\nThe task module:\n\n\`\`\`ts\n${options.moduleText}\n\`\`\``,
    maxTurns: options.maxTurns ?? 3,
    maxTokensPerTurn: 4_096,
    usage: options.usage,
    ...(options.signal ? { signal: options.signal } : {}),
    isDone: () => submitted !== undefined,
    tools: [
      {
        name: "submit_verdict",
        description: "Your verdict: accept or reject, the reasons, and each check.",
        parameters: {
          type: "object",
          properties: {
            verdict: { type: "string", enum: ["accept", "reject"] },
            reasons: { type: "array", items: { type: "string" } },
            checks: {
              type: "object",
              properties: Object.fromEntries(AUDIT_CHECKS.map((check) => [check, { type: "boolean" }])),
            },
          },
          required: ["verdict", "reasons", "checks"],
        },
        handler: (args) => {
          if (args.verdict !== "accept" && args.verdict !== "reject")
            throw new Error("verdict must be 'accept' or 'reject'");
          const reasons = Array.isArray(args.reasons)
            ? args.reasons.map((item) => String(item).slice(0, 2_000))
            : [];
          const rawChecks = (
            typeof args.checks === "object" && args.checks !== null ? args.checks : {}
          ) as Record<string, unknown>;
          const checks: AuditVerdict["checks"] = {};
          for (const check of AUDIT_CHECKS)
            if (typeof rawChecks[check] === "boolean") checks[check] = rawChecks[check];
          submitted = { verdict: args.verdict, reasons: reasons.slice(0, 50), checks };
          return "verdict recorded";
        },
      },
    ],
  });
  if (!submitted) return { verdict: "reject", reasons: ["the auditor gave no verdict"], checks: {} };
  const failedChecks = AUDIT_CHECKS.filter((check) => submitted!.checks[check] === false);
  if (submitted.verdict === "accept" && failedChecks.length > 0)
    return {
      ...submitted,
      verdict: "reject",
      note: `accepted with failed checks: ${failedChecks.join(", ")}`,
    };
  if (submitted.verdict === "accept" && !options.report.ok)
    return { ...submitted, verdict: "reject", note: "the auditor cannot accept a draft that failed a gate" };
  return submitted;
}
