import { describe, expect, it } from "vitest";
import { renderMarkdownReport } from "./report-markdown.js";
import type { ReportInput } from "./report-content.js";
import type { MetricsRow } from "./results-file.js";
import { summarizeByHarnessAndScale } from "./summarize-by-harness-and-scale.js";

function row(overrides: Partial<MetricsRow> & Pick<MetricsRow, "task" | "scale" | "harness">): MetricsRow {
  return {
    episodes: 8,
    modelErrors: 0,
    successes: 4,
    passRate: 0.5,
    passAtK: { "1": 0.5, "8": 1 },
    meanToolCalls: 12,
    meanDirectToolCalls: 12,
    meanToolOutputTokens: 31_250,
    contextLimitShare: 0.125,
    runtimeErrorsPerEpisode: 0,
    meanTurns: 12,
    codeBlockCount: 0,
    loopShare: null,
    conditionalShare: null,
    tryShare: null,
    dtcLikeShare: null,
    ...overrides,
  };
}

function input(rows: MetricsRow[]): ReportInput {
  return {
    runId: "run-42",
    model: "qwen3-14b",
    createdAt: "2026-10-20T12:00:00.000Z",
    trajectoriesCount: rows.reduce((total, each) => total + each.episodes, 0),
    rows,
    summary: summarizeByHarnessAndScale(rows),
  };
}

describe("renderMarkdownReport", () => {
  const rows = [
    row({ task: "refund_order", scale: "v0", harness: "dtc" }),
    row({
      task: "refund_order",
      scale: "v0",
      harness: "ptc",
      passRate: 0.875,
      successes: 7,
      meanToolOutputTokens: 4_000,
      runtimeErrorsPerEpisode: 1.5,
      codeBlockCount: 10,
      loopShare: 0.8,
      conditionalShare: 0.6,
      tryShare: 0.1,
      dtcLikeShare: 0.2,
    }),
  ];

  it("shows run info, summary, code style, per-task and the paper's figures labelled as the paper's", () => {
    const markdown = renderMarkdownReport(input(rows));
    expect(markdown).toMatch(/^# progagent evaluation: qwen3-14b on 1 task in 1 domain \(refund_order\)\n/);
    expect(markdown).toContain("- **Run:** run-42");
    expect(markdown).toContain("- **Model:** qwen3-14b");
    expect(markdown).toContain("- **Harnesses:** DTC, PTC");
    expect(markdown).toContain("- **Tasks:** 1");
    expect(markdown).toContain("- **Episodes:** 16");
    expect(markdown).toContain("- **Report created:** 2026-10-20T12:00:00.000Z");
    expect(markdown).toContain(
      "| DTC | v0 | 1 | 8 | 0 | 0.50 | 0.50 | 1.00 | 12.0 | 12.0 | 31,250 | 0.0 | 12.5% |",
    );
    expect(markdown).toContain("| PTC | v0 | 10 | 80.0% | 60.0% | 10.0% | 20.0% |");
    expect(markdown).toContain("| refund_order | v0 | PTC | 8 | 0 | 0.88 |");
    expect(markdown).toMatch(/## Paper reference: .*not from this run/);
    expect(markdown).toContain("| DTC | 0.95 | 0.88 | 0.65 | 0.42 |");
    expect(markdown).toContain("| PTC | 0.95 | 0.94 | 0.92 | 0.90 |");
  });

  it("escapes task names that would break the table or read as markup", () => {
    const markdown = renderMarkdownReport(
      input([row({ task: "a|b <img src=x> _c_", scale: "v1", harness: "dtc" })]),
    );
    expect(markdown).toContain("| a\\|b \\<img src=x\\> \\_c\\_ | v1 | DTC |");
    expect(markdown).not.toMatch(/[^\\]<img/);
  });

  it("says so when no code was written", () => {
    expect(renderMarkdownReport(input([rows[0] as MetricsRow]))).toContain("No code blocks in this run.");
  });

  it("puts the rows with failed episodes first, marked, and says how each failed", () => {
    const failing = row({ task: "retail.late-fees", scale: "v1", harness: "ptc", episodes: 2, successes: 0 });
    const checks = [
      { id: "answer-is-object", passed: true, message: "a JSON object" },
      { id: "late-fees", passed: false, message: "L-00012: expected 35.00, got 30" },
    ];
    const failures = [
      {
        task: "retail.late-fees",
        scale: "v1",
        harness: "ptc" as const,
        sample: 0,
        endReason: "claim_done",
        answer: '{"L-00012": 30}',
        checks,
        verifierError: null,
      },
      {
        task: "retail.late-fees",
        scale: "v1",
        harness: "ptc" as const,
        sample: 1,
        endReason: "context_limit",
        answer: null,
        checks: [],
        verifierError: null,
      },
    ];
    const report = { ...input([rows[0]!, failing]), failures };
    const markdown = renderMarkdownReport(report);
    const perTask = markdown.slice(markdown.indexOf("## Per task"), markdown.indexOf("## Failed episodes"));
    const [firstRow] = perTask
      .split("\n")
      .filter((line) => line.startsWith("| ") && !line.startsWith("| Task") && !line.startsWith("| ---"));
    expect(firstRow).toMatch(/^\| ✗ retail\.late-fees \| v1 \| PTC \|/);
    expect(firstRow).toContain("sample 0: claim_done, failed late-fees; sample 1: context_limit |");
    expect(markdown).toContain(
      '| ✗ retail.late-fees | v1 | PTC | 0 | claim_done | {"L-00012": 30} | late-fees |',
    );
    // Expected values stay hidden unless the run revealed them to the model.
    expect(markdown).not.toContain("expected 35.00");
    const revealed = renderMarkdownReport({ ...report, revealVerdict: true });
    expect(revealed).toContain("late-fees: L-00012: expected 35.00, got 30");
  });
});
