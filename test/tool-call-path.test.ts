import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createPtcSession, bindTool, defineTool, type ToolCallRecord } from "../src/runtime/index.js";

/** A write tool that counts its calls, synchronous like the domain tools, and one that answers later. */
function counters() {
  const state = { bumps: 0 };
  const bump = defineTool({
    name: "bump",
    description: "Adds one to the counter.",
    kind: "write",
    inputSchema: z.object({}),
    handler: () => ({ bumps: (state.bumps += 1) }),
  });
  const later = defineTool({
    name: "later",
    description: "Answers after a few milliseconds.",
    kind: "read",
    inputSchema: z.object({ value: z.number() }),
    handler: async ({ value }) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { value: value * 2 };
    },
  });
  const broken = defineTool({
    name: "broken",
    description: "Throws.",
    kind: "read",
    inputSchema: z.object({}),
    handler: () => {
      throw new Error("the disk is on fire");
    },
  });
  return { state, endpoints: [bindTool(bump, {}), bindTool(later, {}), bindTool(broken, {})] };
}

/** Runs one program in a fresh session and ends the session. */
async function runInSession(
  options: Parameters<typeof createPtcSession>[0],
  code: string,
): Promise<Awaited<ReturnType<ReturnType<typeof createPtcSession>["run"]>>> {
  const session = createPtcSession(options);
  try {
    return await session.run(code);
  } finally {
    await session.dispose();
  }
}

describe("tool calls from code", () => {
  it("answer synchronous and asynchronous tools in order, recording each call once", async () => {
    const { endpoints } = counters();
    const calls: ToolCallRecord[] = [];
    const result = await runInSession(
      { endpoints, onCall: (record) => calls.push(record) },
      "out = [tools.bump()['bumps'], tools.later(value=21)['value'], tools.bump()['bumps']]\n" +
        "try:\n    tools.broken()\nexcept ToolError as error:\n    out.append(str(error))\nprint(out)",
    );
    expect(result.text).toBe("[1, 42, 2, 'broken: Error: internal error: the disk is on fire']");
    expect(result.toolCallCount).toBe(4);
    expect(calls.map((call) => [call.name, call.isError])).toEqual([
      ["bump", false],
      ["later", false],
      ["bump", false],
      ["broken", true],
    ]);
  });

  it("a call made after the execution's deadline fails without running the tool", async () => {
    const { state, endpoints } = counters();
    const result = await runInSession(
      { endpoints, kernelOptions: { timeoutMs: 500 } },
      "import time\ntry:\n    time.sleep(30)\nexcept KeyboardInterrupt:\n    pass\n" +
        "try:\n    tools.bump()\nexcept ToolError as error:\n    print('refused:', error)",
    );
    expect(result.text).toContain("refused: bump: Tool 'bump' failed: tool 'bump' was aborted");
    expect(state.bumps).toBe(0);
  });

  it("the kernel and the processes its program starts yield to the host (SCHED_BATCH)", async () => {
    const result = await runInSession(
      { endpoints: [] },
      "import os, subprocess, sys\n" +
        "child = subprocess.run([sys.executable, '-c', 'import os; print(os.sched_getscheduler(0))'], capture_output=True, text=True)\n" +
        "print(os.sched_getscheduler(0) == os.SCHED_BATCH, child.stdout.strip() == str(os.SCHED_BATCH))",
    );
    expect(result.text).toBe("True True");
  });

  // The kernel's wait for a result (bootstrap.py, _await_result): its state is read from the bootstrap module.
  const SPIN_STATE =
    "import sys\n_boot = sys.modules['__main__']\n_state = lambda: (_boot._spin_allowed, _boot._spin_misses, _boot._spin_pause)\n";

  it("a kernel may spin for its results only while no more kernels run programs than there are spare cores", async () => {
    const spare = availableParallelism() - 1;
    const count = spare + 1;
    let arrived = 0;
    let release: () => void = () => undefined;
    const allArrived = new Promise<void>((resolve) => (release = resolve));
    const barrier = defineTool({
      name: "barrier",
      description: "Answers once every program has called it.",
      kind: "read",
      inputSchema: z.object({}),
      handler: async () => {
        arrived += 1;
        if (arrived === count) release();
        await allArrived;
        return {};
      },
    });
    const code = `${SPIN_STATE}tools.barrier()\nprint(_state()[0])`;
    const sessions = Array.from({ length: count }, () =>
      createPtcSession({ endpoints: [bindTool(barrier, {})] }),
    );
    try {
      const results = await Promise.all(sessions.map((session) => session.run(code)));
      expect(results.map((result) => result.text)).toEqual(Array.from({ length: count }, () => "False"));
      arrived = 0;
      const alone = await sessions[0]!.run(`${SPIN_STATE}tools.barrier()\nprint(_state()[0])`);
      expect(alone.text).toBe(spare >= 1 ? "True" : "False");
    } finally {
      await Promise.all(sessions.map((session) => session.dispose()));
    }
  });

  it.skipIf(availableParallelism() < 2)(
    "a result later than the spin pauses spinning for 1, then 3 calls",
    async () => {
      const { endpoints } = counters();
      // The kernel's clock and poll are replaced so that every result comes later than the spin, whatever the
      // machine's load (with the real clock a descheduled kernel could find the 5 ms result already there).
      const lateResults =
        "_ticks = [0]\ndef _clock():\n    _ticks[0] += 10**9\n    return _ticks[0]\n_boot._poll = (lambda timeout: [], _clock)\n";
      const result = await runInSession(
        { endpoints },
        `${SPIN_STATE}${lateResults}_seen = [_state()]\nfor _ in range(3):\n    tools.later(value=1)\n    _seen.append(_state())\nprint(_seen)`,
      );
      // The exec allowed spinning; no result answers within the spin: spin, miss, pause 1; sleep; spin, miss,
      // pause 3.
      expect(result.text).toBe("[(True, 0, 0), (True, 1, 1), (True, 1, 0), (True, 2, 3)]");
    },
  );
});
