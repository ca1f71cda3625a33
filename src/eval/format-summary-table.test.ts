import { describe, expect, it } from "vitest";
import { formatSummaryTable } from "./format-summary-table.js";
import type { SummaryRow } from "./results-file.js";

function summaryRow(overrides: Partial<SummaryRow> & Pick<SummaryRow, "scale" | "harness">): SummaryRow {
  return {
    tasks: 2,
    episodes: 16,
    modelErrors: 0,
    successes: 8,
    passRate: 0.5,
    passAtK: { "1": 0.5 },
    meanToolCalls: 10,
    meanDirectToolCalls: 10,
    meanToolOutputTokens: 1234.4,
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

describe("formatSummaryTable", () => {
  it("aligns columns, numbers to the right", () => {
    const text = formatSummaryTable([
      summaryRow({ scale: "v0", harness: "hybrid", meanToolOutputTokens: 123_456 }),
      summaryRow({ scale: "v0", harness: "dtc" }),
    ]);
    const lines = text.split("\n");
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^Harness {2}Scale {2}Tasks {2}Episodes {2}Model errors {2}Pass rate {2}pass@1/);
    expect(lines[1]).toMatch(/^-+( {2}-+)+$/);
    // Sorted DTC first; columns line up whatever the widths of the values.
    expect(lines[2]).toMatch(/^DTC {6}v0/);
    expect(lines[3]).toMatch(/^Hybrid {3}v0/);
    const tokenColumnEnd = (line: string | undefined, value: string): number =>
      (line ?? "").indexOf(value) + value.length;
    expect(tokenColumnEnd(lines[2], " 1,234 ")).toBe(tokenColumnEnd(lines[3], " 123,456 "));
  });
});
