import { describe, expect, it } from "vitest";
import { formatProgressLine } from "./progress.js";

describe("formatProgressLine", () => {
  const state = {
    done: 117,
    total: 232,
    etaSeconds: 71.4,
    summary: "pass 101/115 err 2 reward=1",
    detail: "university.waitlist-promotion-with-prerequisites v3 hybrid",
  };

  it("keeps the counts, the pass count and the last reward visible at 80 columns, cutting the task id", () => {
    const line = formatProgressLine("episodes", state, 80);
    expect(line.length).toBeLessThanOrEqual(79);
    expect(line).toMatch(/^episodes 117\/232 /);
    expect(line).toContain("pass 101/115 err 2 reward=1");
    expect(line).toContain("eta 71s");
    expect(line).toMatch(/ university\.\S*…$/);
  });

  it("drops the bar before the summary on a narrow terminal, and shows everything on a wide one", () => {
    const narrow = formatProgressLine("episodes", state, 60);
    expect(narrow.length).toBeLessThanOrEqual(59);
    expect(narrow).not.toContain("[");
    expect(narrow).toContain("pass 101/115 err 2 reward=1");
    const wide = formatProgressLine("episodes", state, 200);
    expect(wide).toContain(`[${"#".repeat(15)}${"-".repeat(15)}]`);
    expect(wide.endsWith("university.waitlist-promotion-with-prerequisites v3 hybrid")).toBe(true);
  });
});
