import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resultsFileSchema } from "./results-file.js";
import { writeReports } from "./write-reports.js";

function trajectoryLine(overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({
    schemaVersion: 1,
    runId: "run-1",
    episodeId: "e1",
    task: "task_a",
    scale: "v0",
    seed: 1,
    harness: "dtc",
    model: "model-a",
    sample: 0,
    messages: [{ role: "user", content: "do it" }],
    turns: [],
    toolCalls: [],
    codeBlocks: [],
    runtimeErrors: 0,
    refusedDirectCalls: 0,
    toolOutputTokens: 10,
    finalContextTokens: 100,
    endReason: "claim_done",
    answer: null,
    reward: 1,
    checks: [],
    verifierError: null,
    error: null,
    startedAt: "2026-01-01T00:00:00.000Z",
    durationMs: 5,
    ...overrides,
  });
}

describe("writeReports", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "progagent-write-reports-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("writes results.json, report.md and report.html, joining several models", async () => {
    const lines = [trajectoryLine(), "", trajectoryLine({ episodeId: "e2", model: "model-b", reward: 0 })];
    writeFileSync(join(dir, "trajectories.jsonl"), `${lines.join("\n")}\n`);
    const written = await writeReports(dir, { createdAt: "2026-02-02T00:00:00.000Z" });
    const results = resultsFileSchema.parse(JSON.parse(readFileSync(written.resultsPath, "utf8")));
    expect(results).toMatchObject({
      runId: "run-1",
      model: "model-a, model-b",
      createdAt: "2026-02-02T00:00:00.000Z",
    });
    expect(results.rows).toHaveLength(1);
    expect(results.rows[0]).toMatchObject({ task: "task_a", episodes: 2, passRate: 0.5 });
    expect(readFileSync(written.markdownPath, "utf8")).toContain("- **Episodes:** 2");
    expect(readFileSync(written.htmlPath, "utf8")).toContain("<!doctype html>");
  });

  it("names the line of a trajectory that does not match the schema", async () => {
    const lines = [trajectoryLine(), trajectoryLine({ scale: "v9" }), trajectoryLine()];
    writeFileSync(join(dir, "trajectories.jsonl"), lines.join("\n"));
    await expect(writeReports(dir)).rejects.toMatchObject({
      code: "FILE_FORMAT_INVALID",
      message: expect.stringMatching(/line 2 is not a trajectory \(schemaVersion 1\): scale:/),
      details: { line: 2 },
    });
  });

  it("names the line that is not JSON", async () => {
    writeFileSync(join(dir, "trajectories.jsonl"), `${trajectoryLine()}\n{"truncated": \n`);
    await expect(writeReports(dir)).rejects.toMatchObject({
      code: "FILE_FORMAT_INVALID",
      message: expect.stringMatching(/line 2 is not valid JSON/),
    });
  });

  it("explains a missing or empty trajectories file", async () => {
    await expect(writeReports(dir)).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      message: expect.stringMatching(/trajectories\.jsonl does not exist/),
    });
    writeFileSync(join(dir, "trajectories.jsonl"), "\n");
    await expect(writeReports(dir)).rejects.toMatchObject({
      message: expect.stringMatching(/holds no trajectories/),
    });
  });
});
