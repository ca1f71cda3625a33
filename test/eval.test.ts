import { execFile } from "node:child_process";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { resultsFileSchema, runEvaluation, writeReports } from "../src/eval/index.js";
import { readTrajectories } from "../src/harness/index.js";
import { loadSuite } from "../src/suite/index.js";
import {
  assistantText,
  assistantToolCall,
  startScriptedOpenAiServer,
} from "./helpers/scripted-openai-server.js";

/** A loopback port nothing listens on (it was bound a moment ago, then released). */
async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

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
    expect(evaluation.stdout).toMatch(/PTC\s+v0\s+1\s+1\s+0\s+1\.00/);
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

describe("honest evaluation results", () => {
  const cli = join(projectRoot, "bin", "progagent.js");
  const run = promisify(execFile);
  type Ran = { code: number; stdout: string; stderr: string };
  const evalCli = (args: string[], env: Record<string, string> = {}): Promise<Ran> =>
    run(process.execPath, [cli, "eval", ...args], { env: { ...process.env, ...env }, timeout: 300_000 })
      .then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }))
      .catch((error: Ran) => error);

  it("reports a failing model endpoint as errors, exits non-zero, and retries them on resume", async () => {
    const server = await startScriptedOpenAiServer();
    try {
      const task = (await loadSuite("retail.*"))[0]!;
      const outDir = join(scratch, "model-errors");
      const args = [
        "--model",
        "openai:scripted",
        "--base-url",
        server.baseUrl,
        "--harness",
        "dtc",
        "--scales",
        "v0",
        "--tasks",
        task.id,
        "--samples",
        "2",
        "--concurrency",
        "1",
        "--out",
        outDir,
        "--yes",
      ];
      // The endpoint passes its check before the run (one reply), then refuses the episodes' requests.
      server.push(
        assistantText("OK"),
        { status: 401, body: { error: "invalid api key" } },
        { status: 401, body: { error: "invalid api key" } },
      );
      const failed = await evalCli(args, { OPENAI_API_KEY: "wrong" });
      expect(failed.code, failed.stderr).toBe(3);
      const lastLine = failed.stderr.trim().split("\n").at(-1) ?? "";
      expect(lastLine).toMatch(/^progagent: 2 of 2 episodes ended with a model error: .*HTTP 401.*\(x2\)/);
      expect(lastLine).toContain("[MODEL_ERRORS]");
      // Errors have their own column and no pass rate is made up from them.
      expect(failed.stdout).toMatch(/Episodes\s+Model errors\s+Pass rate/);
      expect(failed.stdout).toMatch(/DTC\s+v0\s+1\s+2\s+2\s+–/);
      const results = resultsFileSchema.parse(JSON.parse(readFileSync(join(outDir, "results.json"), "utf8")));
      expect(results.summary[0]).toMatchObject({ episodes: 2, modelErrors: 2, passRate: null });
      expect(readFileSync(join(outDir, "report.md"), "utf8")).toContain("- **Model errors:** 2");

      // The endpoint works again: a resume runs the two episodes again instead of skipping them.
      server.push(
        assistantText("OK"),
        assistantToolCall("claim_done", { answer: "[]" }),
        assistantToolCall("claim_done", { answer: "[]" }),
      );
      const resumed = await evalCli(args, { OPENAI_API_KEY: "right" });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stdout).toContain("2 episodes run (2 retried after a model error), 0 already done");
      expect(resumed.stdout).toMatch(/DTC\s+v0\s+1\s+2\s+0\s+0\.00/);
      const trajectories = readTrajectories(join(outDir, "trajectories.jsonl"));
      expect(trajectories.map((trajectory) => trajectory.endReason)).toEqual(["claim_done", "claim_done"]);
      expect(
        readTrajectories(join(outDir, "retried.jsonl")).map((trajectory) => trajectory.endReason),
      ).toEqual(["model_error", "model_error"]);
    } finally {
      await server.close();
    }
  });

  it("with a model endpoint: says what it would send, needs --yes without a terminal, and fails fast on a bad endpoint", async () => {
    const task = (await loadSuite("retail.*"))[0]!;
    const closedUrl = `http://127.0.0.1:${await closedPort()}/v1`;
    const base = ["--harness", "ptc,dtc", "--scales", "v0", "--tasks", task.id, "--concurrency", "1"];
    const unconfirmed = await evalCli([
      "--model",
      "openai:some-model",
      "--base-url",
      closedUrl,
      ...base,
      "--out",
      join(scratch, "unconfirmed"),
    ]);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain(
      `this run sends up to 2 episodes to openai:some-model at ${closedUrl}`,
    );
    expect(unconfirmed.stderr).toMatch(/estimated: at least \S+ prompt and \S+ completion tokens/);
    expect(unconfirmed.stderr).toContain("needs --yes when standard input is not a terminal");

    // A closed port: one clear line in seconds, with the URL and the cause, and no episode recorded.
    const closed = join(scratch, "closed-port");
    const started = Date.now();
    const refused = await evalCli([
      "--model",
      "openai:some-model",
      "--base-url",
      closedUrl,
      ...base,
      "--out",
      closed,
      "--yes",
    ]);
    expect(refused.code).toBe(3);
    const last = refused.stderr.trim().split("\n").at(-1) ?? "";
    expect(last).toContain("failed its check before the run (no episode was run)");
    expect(last).toContain(`${closedUrl}/chat/completions`);
    expect(last).toContain("ECONNREFUSED");
    expect(Date.now() - started).toBeLessThan(60_000); // seconds in practice; the bound only catches a retry loop
    const recorded = join(closed, "trajectories.jsonl");
    expect(existsSync(recorded) ? readFileSync(recorded, "utf8").trim() : "").toBe("");

    // A refused key: named with its status before any episode.
    const server = await startScriptedOpenAiServer();
    try {
      server.push({ status: 401, body: { error: "invalid api key" } });
      const unauthorised = await evalCli([
        "--model",
        "openai:scripted",
        "--base-url",
        server.baseUrl,
        ...base,
        "--out",
        join(scratch, "unauthorised"),
        "--yes",
      ]);
      expect(unauthorised.code).toBe(2);
      expect(unauthorised.stderr).toMatch(/refused the request \(HTTP 401\): .*invalid api key/);
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]).toMatchObject({ model: "scripted", max_tokens: 1 });
    } finally {
      await server.close();
    }
  });

  it("refuses to resume a run directory with a different configuration, and --force-new starts over", async () => {
    const tasks = [(await loadSuite("clinic.*"))[0]!];
    const outDir = join(scratch, "config");
    const plan = {
      model: "oracle",
      tasks,
      harnesses: ["ptc" as const],
      scales: ["v0" as const],
      samples: 1,
      seed: 0,
      outDir,
      concurrency: 1,
    };
    await runEvaluation(plan);
    const config = JSON.parse(readFileSync(join(outDir, "run-config.json"), "utf8")) as Record<
      string,
      unknown
    >;
    expect(config).toMatchObject({
      model: "oracle",
      seed: 0,
      samples: 1,
      harnesses: ["ptc"],
      scales: ["v0"],
    });
    await expect(runEvaluation({ ...plan, seed: 1, samples: 2 })).rejects.toThrow(
      /holds a run with a different configuration \(samples: 1 -> 2; seed: 0 -> 1\).*--force-new/,
    );
    await expect(runEvaluation({ ...plan, limits: { maxTurns: 7 } })).rejects.toThrow(
      /\(limits\.maxTurns: 300 -> 7\)/,
    );
    // The same configuration again: a plain resume.
    expect(await runEvaluation({ ...plan })).toMatchObject({ ran: 0, skipped: 1 });
    const fresh = await runEvaluation({ ...plan, seed: 1, forceNew: true });
    expect(fresh).toMatchObject({ ran: 1, skipped: 0 });
    expect(readTrajectories(join(outDir, "trajectories.jsonl")).map((trajectory) => trajectory.seed)).toEqual(
      [1],
    );

    const refused = await evalCli([
      "--model",
      "oracle",
      "--harness",
      "ptc",
      "--scales",
      "v0",
      "--tasks",
      tasks[0]!.id,
      "--samples",
      "3",
      "--out",
      outDir,
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("samples: 1 -> 3");
    expect(refused.stderr).toContain("[RUN_CONFIG_MISMATCH]");
  });

  it("takes integers where integers are meant", async () => {
    for (const [flag, value] of [
      ["--samples", "1.5"],
      ["--concurrency", "2.5"],
      ["--seed", "-1"],
      ["--max-turns", "3.5"],
    ]) {
      const result = await evalCli(["--model", "oracle", flag!, value!, "--out", join(scratch, "never")]);
      expect(result.code, `${flag} ${value}`).toBe(2);
      expect(result.stderr).toContain(`${flag} expects a`);
      expect(result.stderr).toContain(`got '${value}'`);
    }
    expect(existsSync(join(scratch, "never", "trajectories.jsonl"))).toBe(false);
  });
});
