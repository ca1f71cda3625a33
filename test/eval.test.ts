import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { resultsFileSchema, runEvaluation, writeReports } from "../src/eval/index.js";
import { readTrajectories } from "../src/harness/index.js";
import { loadSuite } from "../src/suite/index.js";

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const scratch = mkdtempSync(join(tmpdir(), "progagent-eval-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("evaluation runner", () => {
  it("runs the oracle end to end on a small slice in every mode and writes the reports", async () => {
    const tasks = [(await loadSuite("retail.*"))[0]!, (await loadSuite("clinic.*"))[0]!];
    const outDir = join(scratch, "slice");
    const outcome = await runEvaluation({
      model: "oracle",
      tasks,
      harnesses: ["dtc", "ptc", "hybrid"],
      scales: ["v0"],
      samples: 1,
      seed: 0,
      outDir,
      concurrency: 2,
      limits: { maxTurns: 2_000, maxToolCalls: 5_000 },
    });
    expect(outcome).toMatchObject({ total: 6, ran: 6, skipped: 0 });
    const trajectories = readTrajectories(join(outDir, "trajectories.jsonl"));
    expect(trajectories).toHaveLength(6);
    for (const trajectory of trajectories) {
      expect(trajectory.endReason, trajectory.episodeId).toBe("claim_done");
      expect(trajectory.reward, trajectory.episodeId).toBe(1);
    }
    const dtc = trajectories.filter((trajectory) => trajectory.harness === "dtc");
    const ptc = trajectories.filter((trajectory) => trajectory.harness === "ptc");
    expect(
      dtc.every(
        (trajectory) =>
          trajectory.codeBlocks.length === 0 && trajectory.toolCalls.every((call) => call.via === "direct"),
      ),
    ).toBe(true);
    expect(
      ptc.every(
        (trajectory) =>
          trajectory.codeBlocks.length > 0 && trajectory.toolCalls.every((call) => call.via === "code"),
      ),
    ).toBe(true);
    const tokens = (list: typeof dtc): number =>
      list.reduce((sum, trajectory) => sum + trajectory.toolOutputTokens, 0);
    expect(tokens(ptc)).toBeLessThan(tokens(dtc));

    const reports = await writeReports(outDir);
    const results = resultsFileSchema.parse(JSON.parse(readFileSync(join(outDir, "results.json"), "utf8")));
    expect(results.rows).toHaveLength(6);
    for (const row of results.rows) {
      expect(row).toMatchObject({ passRate: 1, episodes: 1 });
      expect(row.meanToolCalls).toBeGreaterThanOrEqual(10);
      expect(typeof row.meanToolOutputTokens).toBe("number");
      expect(typeof row.runtimeErrorsPerEpisode).toBe("number");
    }
    expect(existsSync(reports.htmlPath) && existsSync(reports.markdownPath)).toBe(true);

    // A recorded run replays to the same rewards through the replay policy.
    const replayDir = join(scratch, "replay");
    await runEvaluation({
      model: `replay:${join(outDir, "trajectories.jsonl")}`,
      tasks,
      harnesses: ["dtc", "ptc", "hybrid"],
      scales: ["v0"],
      samples: 1,
      seed: 0,
      outDir: replayDir,
      concurrency: 2,
      limits: { maxTurns: 2_000, maxToolCalls: 5_000 },
    });
    const replayed = readTrajectories(join(replayDir, "trajectories.jsonl"));
    expect(replayed.map((trajectory) => trajectory.reward)).toEqual(replayed.map(() => 1));
    expect(replayed.every((trajectory) => trajectory.model.startsWith("replay:"))).toBe(true);
  });

  it("resumes an interrupted run without repeating finished episodes", async () => {
    const tasks = (await loadSuite("hr.*")).slice(0, 2);
    const outDir = join(scratch, "resume");
    const controller = new AbortController();
    const plan = {
      model: "oracle",
      tasks,
      harnesses: ["ptc", "dtc"] as const,
      scales: ["v0"] as const,
      samples: 1,
      seed: 0,
      outDir,
      concurrency: 1,
    };
    const first = await runEvaluation({
      ...plan,
      harnesses: [...plan.harnesses],
      scales: [...plan.scales],
      signal: controller.signal,
      onProgress: ({ done }) => {
        if (done === 2) controller.abort();
      },
    });
    expect(first.ran).toBe(2);
    const second = await runEvaluation({ ...plan, harnesses: [...plan.harnesses], scales: [...plan.scales] });
    expect(second).toMatchObject({ total: 4, skipped: 2, ran: 2 });
    const ids = readTrajectories(join(outDir, "trajectories.jsonl")).map(
      (trajectory) => trajectory.episodeId,
    );
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(4);
    expect(
      new Set(readTrajectories(join(outDir, "trajectories.jsonl")).map((trajectory) => trajectory.runId))
        .size,
    ).toBe(1);
  });

  it("drives the same through the CLI, and `report` renders again from the files", async () => {
    const run = promisify(execFile);
    const outDir = join(scratch, "cli");
    const task = (await loadSuite("logistics.*"))[0]!.id;
    const cli = join(projectRoot, "bin", "progagent.js");
    const evaluation = await run(process.execPath, [
      cli,
      "eval",
      "--model",
      "oracle",
      "--harness",
      "ptc",
      "--scales",
      "v0",
      "--tasks",
      task,
      "--samples",
      "1",
      "--concurrency",
      "1",
      "--out",
      outDir,
    ]);
    expect(evaluation.stdout).toContain("1 episodes run");
    expect(evaluation.stdout).toMatch(/PTC\s+v0\s+1\s+1\s+1\.00/);
    rmSync(join(outDir, "report.html"));
    const report = await run(process.execPath, [cli, "report", outDir]);
    expect(report.stdout).toContain("report.html");
    expect(existsSync(join(outDir, "report.html"))).toBe(true);
    const bad = await run(process.execPath, [cli, "eval", "--model", "gpt", "--out", outDir]).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(bad).toMatchObject({ code: 2 });
    expect((bad as { stderr: string }).stderr).toContain(
      "expected oracle, replay:<file>, openai:<model> or anthropic:<model>",
    );
  });
});
