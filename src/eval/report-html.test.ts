import { describe, expect, it } from "vitest";
import { renderHtmlReport } from "./report-html.js";
import type { MetricsRow } from "./results-file.js";
import { summarizeByHarnessAndScale } from "./summarize-by-harness-and-scale.js";

function row(overrides: Partial<MetricsRow> & Pick<MetricsRow, "task" | "scale" | "harness">): MetricsRow {
  return {
    episodes: 4,
    modelErrors: 0,
    successes: 2,
    passRate: 0.5,
    passAtK: { "1": 0.5 },
    meanToolCalls: 10,
    meanDirectToolCalls: 10,
    meanToolOutputTokens: 20_000,
    contextLimitShare: 0,
    runtimeErrorsPerEpisode: 0,
    meanTurns: 10,
    codeBlockCount: 0,
    loopShare: null,
    conditionalShare: null,
    tryShare: null,
    dtcLikeShare: null,
    ...overrides,
  };
}

describe("renderHtmlReport", () => {
  const rows = [
    row({ task: "<script>alert(1)</script>", scale: "v0", harness: "dtc" }),
    row({ task: "<script>alert(1)</script>", scale: "v1", harness: "dtc", passRate: 0.25, successes: 1 }),
    row({ task: "<script>alert(1)</script>", scale: "v0", harness: "ptc", meanToolCalls: 4 }),
    row({ task: "<script>alert(1)</script>", scale: "v1", harness: "ptc", meanToolCalls: 5 }),
  ];

  it("is one self-contained page with three inline SVG charts and the tables", async () => {
    const html = await renderHtmlReport({
      runId: 'run "x" & <y>',
      model: "model-a",
      createdAt: "2026-10-20T12:00:00.000Z",
      trajectoriesCount: 16,
      rows,
      summary: summarizeByHarnessAndScale(rows),
    });
    expect(html.startsWith("<!doctype html>")).toBe(true);
    for (const chart of ["pass-rate", "tool-output-tokens", "tool-calls"]) {
      expect(html).toMatch(
        new RegExp(`<figure data-chart="${chart}">\\s*<svg[^>]*>[\\s\\S]*?</svg>\\s*<figcaption>`),
      );
    }
    // Nothing is fetched: no scripts, stylesheets, fonts or remote URLs.
    expect(html).not.toMatch(/<script|<link|@import|@font-face|src="http|href="http/i);
    expect(html).toContain("run &#34;x&#34; &#38; &#60;y&#62;");
    expect(html).toContain("&#60;script&#62;alert(1)&#60;/script&#62;");
    expect(html).toContain('<td>Hybrid</td><td class="number">0.95</td>');
    expect(html).toContain("Paper reference");
  });
});
