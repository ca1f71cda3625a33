import { describe, expect, it } from "vitest";
import { startTokenizerWorkers } from "./rollout-tokenizer.js";

describe("startTokenizerWorkers", () => {
  it("fails a job that overruns its deadline alone, replaces the thread and serves the next job", async () => {
    const tokenizer = startTokenizerWorkers({ threads: 1, runDeadlineMs: 2_000 });
    try {
      await tokenizer.ready;
      // 2 MiB of one letter is one pre-tokenised word: tens of seconds of BPE, far over 2 s.
      await expect(tokenizer.encode("a".repeat(2 * 1024 * 1024))).rejects.toMatchObject({ code: "TIMEOUT" });
      expect(tokenizer.load.threads).toBe(0);
      const hello = await tokenizer.encode("Hello");
      expect(hello).toHaveLength(1);
      expect(await tokenizer.decode(hello)).toBe("Hello");
      expect(tokenizer.load).toEqual({ running: 0, waiting: 0, threads: 1 });
    } finally {
      await tokenizer.close();
    }
    await expect(tokenizer.encode("x")).rejects.toThrow(/closed/);
  });

  it("rejects ready and every job with the load's error for a folder that is no tokenizer", async () => {
    const tokenizer = startTokenizerWorkers({ tokenizer: "/nonexistent-progagent-folder" });
    try {
      const job = tokenizer.encode("x");
      await expect(tokenizer.ready).rejects.toMatchObject({ code: "CONFIG_INVALID", category: "user" });
      await expect(job).rejects.toThrow(/is not a tokenizer folder/);
      await expect(tokenizer.decode([1])).rejects.toThrow(/is not a tokenizer folder/);
    } finally {
      await tokenizer.close();
    }
  });
});
