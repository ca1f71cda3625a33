import { describe, expect, it } from "vitest";
import type { CompletionResponse, ModelClient } from "../harness/index.js";
import { runAuditor } from "./auditor.js";
import { judgeCalibration, parseBand } from "./calibration.js";
import { dedupeIntents, tokenSetSimilarity } from "./intents.js";
import { emptyUsage } from "./tool-session.js";
import type { ValidationReport } from "./worker-protocol.js";

function verdictClient(args: Record<string, unknown>): ModelClient {
  return {
    name: "scripted-auditor",
    complete: async (): Promise<CompletionResponse> => ({
      message: {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "call_0",
            type: "function",
            function: { name: "submit_verdict", arguments: JSON.stringify(args) },
          },
        ],
      },
      usage: { promptTokens: 10, completionTokens: 5 },
    }),
  };
}

const ALL_CHECKS = {
  requirements_stated: true,
  answer_format_stated: true,
  no_answer_leakage: true,
  realistic_near_misses: true,
};

function report(ok: boolean): ValidationReport {
  return {
    kind: "validation",
    ok,
    task: null,
    gates: [
      { id: "null-agent-0", passed: ok, detail: ok ? "ok" : "v0 seed 0: the initial state already passes" },
    ],
    rows: [],
    durationMs: 1,
  };
}

describe("auditor", () => {
  it("cannot accept a draft that failed a gate", async () => {
    const verdict = await runAuditor({
      client: verdictClient({ verdict: "accept", reasons: ["looks fine"], checks: ALL_CHECKS }),
      moduleText: "export default {}",
      report: report(false),
      usage: emptyUsage(),
    });
    expect(verdict).toMatchObject({
      verdict: "reject",
      note: "the auditor cannot accept a draft that failed a gate",
    });
  });

  it("an acceptance with a failed check is a rejection", async () => {
    const verdict = await runAuditor({
      client: verdictClient({
        verdict: "accept",
        reasons: [],
        checks: { ...ALL_CHECKS, no_answer_leakage: false },
      }),
      moduleText: "export default {}",
      report: report(true),
      usage: emptyUsage(),
    });
    expect(verdict).toMatchObject({
      verdict: "reject",
      note: "accepted with failed checks: no_answer_leakage",
    });
  });

  it("accepts a passing draft when every check holds, and counts its tokens", async () => {
    const usage = emptyUsage();
    const verdict = await runAuditor({
      client: verdictClient({ verdict: "accept", reasons: ["consistent"], checks: ALL_CHECKS }),
      moduleText: "export default {}",
      report: report(true),
      usage,
    });
    expect(verdict.verdict).toBe("accept");
    expect(usage).toEqual({ calls: 1, promptTokens: 10, completionTokens: 5 });
  });
});

describe("intents", () => {
  it("drops near-duplicates (token-set similarity), repeated slugs and malformed entries", () => {
    const request = "List every overdue invoice of the northern region and send the customer a reminder.";
    const { kept, dropped } = dedupeIntents([
      { slug: "overdue-reminders", request },
      { slug: "overdue-reminders-2", request: `${request} Please!` },
      { slug: "overdue-reminders", request: "Something else entirely, about refunds of damaged goods." },
      { slug: "Bad Slug", request: "A request long enough to count as one request." },
      { slug: "refund-audit", request: "Audit the refunds issued last month against the returns policy." },
    ]);
    expect(kept.map((item) => item.slug)).toEqual(["overdue-reminders", "refund-audit"]);
    expect(dropped.map((item) => item.reason)).toEqual([
      "near-duplicate of overdue-reminders",
      "duplicate slug",
      "malformed: needs a kebab-case slug and a request of 20-4000 characters",
    ]);
    expect(tokenSetSimilarity("Refund the order", "refund THE order!")).toBe(1);
  });
});

describe("difficulty band", () => {
  it("parses two increasing rates and keeps a task only strictly inside at every scale", () => {
    const band = parseBand("0,0.8");
    expect(band).toEqual({ low: 0, high: 0.8 });
    expect(() => parseBand("0.8,0.2")).toThrow(/lower bound must be below/);
    expect(() => parseBand("0,2")).toThrow(/two pass rates in \[0, 1\]/);
    expect(judgeCalibration("t", { v0: 0.5, v1: 0.25 }, band, ["v0", "v1"]).kept).toBe(true);
    expect(judgeCalibration("t", { v0: 0.5, v1: 0 }, band, ["v0", "v1"])).toMatchObject({
      kept: false,
      reason: "t: v1: pass rate 0.00 outside (0, 0.8)",
    });
    expect(judgeCalibration("t", { v0: 0.8 }, band, ["v0"]).kept).toBe(false);
    expect(judgeCalibration("t", { v0: null }, band, ["v0"]).reason).toContain("no finished sample");
  });
});
