import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TaskDefinition } from "../src/envs/index.js";
import { trajectorySchema } from "../src/harness/trajectory.js";
import { loadSuite } from "../src/suite/index.js";
import { createRolloutRecorder, type RolloutRecorder } from "../src/train/rollout-record.js";
import { createRolloutService, type RolloutService } from "../src/train/rollout-service.js";
import { createEpisodeStore } from "../src/view/episode-store.js";

const TASK_ID = "retail.apply-supplier-recall";
const dir = mkdtempSync(join(tmpdir(), "view-record-"));
let task: TaskDefinition;
let recorder: RolloutRecorder;
let service: RolloutService;

beforeAll(async () => {
  task = (await loadSuite(TASK_ID)).find((candidate) => candidate.id === TASK_ID)!;
  recorder = createRolloutRecorder({ dir });
  service = createRolloutService({
    loadTask: async (id) => (id === TASK_ID ? task : undefined),
    maxEpisodes: 4,
    limits: { idleTimeoutMs: 60_000 },
    recorder,
  });
});

afterAll(async () => {
  await service.dispose();
  await recorder.close();
  rmSync(dir, { recursive: true, force: true });
});

function records(): Array<Record<string, unknown>> {
  return readFileSync(join(dir, "trajectories.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("rollout serve --record", () => {
  it("appends each finished episode as a trajectory with the trainer's step, read by the viewer", async () => {
    const direct = await service.create({ task: TASK_ID, scale: "v0", mode: "dtc", step: 3 });
    const directId = direct.episode_id as string;
    await service.toolCalls(directId, { calls: [{ name: task.tools[0]!, arguments: {} }] });
    const ended = await service.toolCalls(directId, {
      calls: [{ id: "final", name: "claim_done", arguments: { answer: "[]" } }],
    });
    expect(ended).toMatchObject({ done: true, end_reason: "claim_done" });

    const coded = await service.create({ task: TASK_ID, scale: "v0", mode: "ptc", step: 4 });
    const codedId = coded.episode_id as string;
    const code = `try:\n    tools["${task.tools[0]}"]()\nexcept Exception as error:\n    print("failed:", type(error).__name__)\nanswer = 6 * 7\nprint("answer", answer)\nanswer`;
    await service.toolCalls(codedId, { calls: [{ name: "programmatic_tool_call", arguments: { code } }] });
    await service.remove(codedId);
    await service.remove(directId);
    await recorder.close();

    expect(recorder.failed).toBe(0);
    const [first, second] = records();
    for (const record of [first, second]) expect(trajectorySchema.safeParse(record).success).toBe(true);
    expect(first).toMatchObject({
      schemaVersion: 2,
      episodeId: directId,
      task: TASK_ID,
      harness: "dtc",
      endReason: "claim_done",
      rollout: { step: 3, endReason: "claim_done", serviceEpisodeId: directId },
    });
    const directMessages = first!.messages as Array<{ role: string; tool_call_id?: string }>;
    // The result of the call that ended the episode is recorded though the service's history let it go.
    expect(directMessages[directMessages.length - 1]).toMatchObject({ role: "tool", tool_call_id: "final" });
    const turns = first!.turns as Array<{
      contextTokens: number;
      completionTokens: number;
      toolOutputTokens: number;
    }>;
    expect(turns).toHaveLength(2);
    expect(turns[1]!.contextTokens).toBeGreaterThan(turns[0]!.contextTokens);
    expect(turns[0]!.toolOutputTokens).toBeGreaterThan(0);
    // Environment tools only, as the harness records them (claim_done is the episode's, not the environment's).
    expect(first!.toolCalls).toEqual([
      expect.objectContaining({ turn: 0, name: task.tools[0], via: "direct" }),
    ]);

    expect(second).toMatchObject({
      harness: "ptc",
      endReason: "max_turns",
      rollout: { step: 4, endReason: "deleted" },
      toolCalls: [expect.objectContaining({ turn: 0, name: task.tools[0], via: "code" })],
    });
    expect(second!.codeBlocks).toEqual([
      expect.objectContaining({ turn: 0, code, status: "ok", output: expect.stringContaining("answer 42") }),
    ]);

    const store = createEpisodeStore([dir], { indexCacheDir: null });
    await store.update();
    expect(
      store.summaries().map((summary) => [summary.kind, summary.step, summary.harness, summary.endReason]),
    ).toEqual([
      ["rollout", 3, "dtc", "claim_done"],
      ["rollout", 4, "ptc", "deleted"],
    ]);
  });
});
