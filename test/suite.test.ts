import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateTaskInstance, type Scale } from "../src/envs/index.js";
import { createKernelPool, type KernelPool } from "../src/kernel/index.js";
import { loadSuite, SUITE_DOMAINS } from "../src/suite/index.js";

// `tasks validate` inside npm test: every built-in task at every scale listed here. PROGAGENT_TEST_SCALES
// narrows it for quick local runs.
const scales = (process.env.PROGAGENT_TEST_SCALES ?? "v0,v1,v2,v3").split(",") as Scale[];
const suite = await loadSuite("*");

const oracleCalls = new Map<string, number>();
let pool: KernelPool;
beforeAll(async () => {
  pool = createKernelPool({ size: 2 });
  await pool.warm();
});
afterAll(async () => {
  await pool.dispose();
});

describe("the built-in suite", () => {
  it("has twelve domains, at least eight tasks in each and 96 in all", () => {
    expect(SUITE_DOMAINS).toHaveLength(12);
    for (const domain of SUITE_DOMAINS) {
      expect(suite.filter((task) => task.domain.id === domain).length, domain).toBeGreaterThanOrEqual(8);
    }
    expect(suite.length).toBeGreaterThanOrEqual(96);
    expect(new Set(suite.map((task) => task.id)).size).toBe(suite.length);
  });

  for (const task of suite) {
    for (const scale of scales) {
      it(`${task.id} ${scale}: null 0, oracle 1, DTC replay 1, near-misses 0`, async () => {
        const row = await validateTaskInstance(task, scale, 0, { pool });
        oracleCalls.set(`${task.id} ${scale}`, row.oracleToolCalls);
        expect(row.problems).toEqual([]);
        expect(row.nullReward).toBe(0);
        expect(row.oracleReward).toBe(1);
        expect(row.dtcReplayReward).toBe(1);
        expect(Object.values(row.nearMissRewards).every((reward) => reward === 0)).toBe(true);
        if (scale === "v0") expect(row.oracleToolCalls).toBeGreaterThanOrEqual(10);
      });
    }
  }

  it.runIf(scales.includes("v0") && scales.includes("v3"))(
    "needs clearly more tool calls at v3 than at v0 (long horizon grows with the environment)",
    () => {
      for (const task of suite) {
        const v0 = oracleCalls.get(`${task.id} v0`) ?? 0;
        const v3 = oracleCalls.get(`${task.id} v3`) ?? 0;
        expect(v3, task.id).toBeGreaterThanOrEqual(Math.ceil(v0 * 1.5));
      }
    },
  );
});
