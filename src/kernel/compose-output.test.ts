import { describe, expect, it } from "vitest";
import { composeOutput, NO_OUTPUT, stripAnsi, truncateMiddle } from "./compose-output.js";

const empty = { notes: [], stdout: "", value: null, stderr: "", traceback: null, trailer: [] };

describe("composeOutput", () => {
  it("puts stdout, then the trailing value, then a [stderr] block", () => {
    const { text } = composeOutput({
      ...empty,
      stdout: "a\n",
      value: "42",
      stderr: "warn\n",
      traceback: "Traceback...\nValueError: x\n",
    });
    expect(text).toBe("a\n42\n[stderr]:\nwarn\nTraceback...\nValueError: x");
  });

  it("reads (no output) when nothing was produced", () => {
    expect(composeOutput(empty).text).toBe(NO_OUTPUT);
  });

  it("strips ANSI codes", () => {
    expect(stripAnsi("\u001b[31mred\u001b[0m")).toBe("red");
    expect(composeOutput({ ...empty, stdout: "\u001b[1mbold\u001b[0m" }).text).toBe("bold");
  });

  it("cuts the middle keeping 70% head and 30% tail with a marker", () => {
    const text = "h".repeat(700) + "m".repeat(1000) + "t".repeat(300);
    const result = truncateMiddle(text, 1000);
    expect(result.truncated).toBe(true);
    expect(result.text.startsWith("h".repeat(700))).toBe(true);
    expect(result.text.endsWith("t".repeat(300))).toBe(true);
    expect(result.text).toContain("1000 characters omitted");
    expect(result.text).toContain("concise summaries");
  });
});
