import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateTaskInstance, type Scale } from "../../src/envs/index.js";
import { createKernelPool, type KernelPool } from "../../src/kernel/index.js";
import { SUITE_DOMAINS, loadSuite } from "../../src/suite/index.js";

/** The shards the suite's validation is split into (test/suite-validation/shard-N.test.ts), so that vitest's workers share it. */
export const SUITE_SHARDS = 4;

/**
 * `tasks validate` inside npm test for one shard of the built-in domains (every SUITE_SHARDS-th domain): every
 * task at every scale listed in PROGAGENT_TEST_SCALES (default all four), seed 0.
 */
export async function describeSuiteShard(shard: number): Promise<void> {
  const scales = (process.env.PROGAGENT_TEST_SCALES ?? "v0,v1,v2,v3").split(",") as Scale[];
  const domains = SUITE_DOMAINS.filter((_, index) => index % SUITE_SHARDS === shard);
  const oracleCalls = new Map<string, number>();
  let pool: KernelPool;
  beforeAll(async () => {
    pool = createKernelPool({ size: 2 });
    await pool.warm();
  });
  afterAll(async () => {
    await pool.dispose();
  });

  const suite = (await loadSuite("*")).filter((task) =>
    (domains as readonly string[]).includes(task.domain.id),
  );
  describe(`the built-in suite, domains ${domains.join(", ")}`, () => {
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
}
