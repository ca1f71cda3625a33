import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { defineTask } from "../src/envs/index.js";
import { runEvaluation } from "../src/eval/index.js";
import { readTrajectories } from "../src/harness/index.js";
import { tinyTask } from "./fixtures/tiny-domain.js";

const scratch = mkdtempSync(join(tmpdir(), "progagent-eval-prefetch-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The tiny task with an oracle that takes longer the larger the instance (0.3 s at v0, 2.4 s at v3). */
const slowOracleTask = defineTask({
  ...tinyTask,
  id: "tiny.slow_oracle",
  oracle: [
    'import time\ntime.sleep(tools.list_items(per_page=1)["total"] / 100)\nprint("waited")',
    ...tinyTask.oracle,
  ],
});

/** This process's episode directories (a recording or an episode that is still open holds one). */
const openEpisodes = (): string[] =>
  readdirSync(tmpdir()).filter((name) => name.startsWith(`progagent-${process.pid}-episode-`));

describe("DTC oracle evaluation with recordings made ahead", () => {
  it("passes every episode, and a run stopped early waits for the recordings it started before it returns", async () => {
    const before = openEpisodes();
    const full = await runEvaluation({
      model: "oracle",
      tasks: [tinyTask],
      harnesses: ["dtc"],
      scales: ["v0", "v1", "v2", "v3"],
      samples: 1,
      seed: 0,
      outDir: join(scratch, "full"),
      concurrency: 1,
    });
    expect(full).toMatchObject({ total: 4, ran: 4 });
    expect(readTrajectories(full.trajectoriesPath).map((trajectory) => trajectory.reward)).toEqual([
      1, 1, 1, 1,
    ]);

    // Stopped after the first episode (v0): the recording of the next one (v3) is still under way.
    const controller = new AbortController();
    const stopped = await runEvaluation({
      model: "oracle",
      tasks: [slowOracleTask],
      harnesses: ["dtc"],
      scales: ["v0", "v3"],
      samples: 1,
      seed: 0,
      outDir: join(scratch, "stopped"),
      concurrency: 1,
      signal: controller.signal,
      onProgress: ({ done }) => {
        if (done === 1) controller.abort();
      },
    });
    expect(stopped.ran).toBe(1);
    expect(openEpisodes()).toEqual(before);
  }, 120_000);
});
