import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  KERNEL_STARTS_VARIABLE,
  acquireStartTurn,
  startConcurrency,
  startQueueState,
} from "./start-queue.js";

describe("kernel start turns", () => {
  beforeEach(() => {
    process.env[KERNEL_STARTS_VARIABLE] = "2";
  });
  afterEach(() => {
    delete process.env[KERNEL_STARTS_VARIABLE];
    vi.useRealTimers();
  });

  it("lets as many starts run as allowed and hands the next turn over in order", async () => {
    const first = await acquireStartTurn(1_000);
    const second = await acquireStartTurn(1_000);
    const order: string[] = [];
    const third = acquireStartTurn(1_000).then((release) => {
      order.push("third");
      return release;
    });
    const fourth = acquireStartTurn(1_000).then((release) => {
      order.push("fourth");
      return release;
    });
    await Promise.resolve();
    expect(order).toEqual([]);
    expect(startQueueState()).toMatchObject({ running: 2, waiting: 2 });
    first();
    first(); // ending a turn twice frees one turn only
    const releaseThird = await third;
    expect(order).toEqual(["third"]);
    expect(startQueueState()).toMatchObject({ running: 2, waiting: 1 });
    second();
    const releaseFourth = await fourth;
    expect(order).toEqual(["third", "fourth"]);
    releaseThird();
    releaseFourth();
    expect(startQueueState()).toMatchObject({ running: 0, waiting: 0 });
  });

  it("fails a wait for a turn at its deadline, naming the queue, and leaves the queue usable", async () => {
    vi.useFakeTimers();
    const held = [await acquireStartTurn(1_000), await acquireStartTurn(1_000)];
    const waiting = acquireStartTurn(5_000);
    const outcome = expect(waiting).rejects.toMatchObject({
      code: "KERNEL_START_FAILED",
      message: expect.stringContaining("no turn to start within 5000 ms (2 kernels were starting"),
    });
    await vi.advanceTimersByTimeAsync(5_000);
    await outcome;
    expect(startQueueState()).toMatchObject({ running: 2, waiting: 0 });
    for (const release of held) release();
    const again = await acquireStartTurn(1_000);
    again();
  });

  it("stops waiting when the start is abandoned", async () => {
    const held = [await acquireStartTurn(1_000), await acquireStartTurn(1_000)];
    const controller = new AbortController();
    const waiting = acquireStartTurn(60_000, controller.signal);
    controller.abort(new Error("the kernel was stopped"));
    await expect(waiting).rejects.toThrow("the kernel was stopped");
    expect(startQueueState().waiting).toBe(0);
    for (const release of held) release();
  });

  it("rejects a setting that is not a positive integer", () => {
    process.env[KERNEL_STARTS_VARIABLE] = "many";
    expect(() => startConcurrency()).toThrow(/PROGAGENT_KERNEL_STARTS must be a positive integer/);
  });
});
