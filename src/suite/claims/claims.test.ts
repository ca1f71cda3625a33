import type Database from "better-sqlite3";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTempDir } from "../../core/index.js";
import {
  buildInstance,
  listWorkspaceFiles,
  openStateView,
  type Instance,
  openToolBench,
  type ToolBench,
  instanceContents,
} from "../../envs/index.js";
import { type ToolCallResult, resultText } from "../../runtime/index.js";
import {
  COVERAGE_RULES_PATH,
  EXTENDED_NOTICE_DAYS,
  NOTICE_DAYS,
  SUBLIMITS,
  parseCoverageRules,
} from "./rules.js";
import { claimsOutsidePeriod, lossOutsidePeriodTask } from "./tasks/loss-outside-period.js";
import { expectedReassignment, reassignLeaveClaimsTask } from "./tasks/reassign-leave-claims.js";
import { claimsTools } from "./tools.js";
let bench: ToolBench;
let instance: Instance;
let db: Database.Database;

beforeAll(() => {
  bench = openToolBench(lossOutsidePeriodTask, claimsTools);
  ({ instance, db } = bench);
});

afterAll(() => bench.close());

const call = (name: string, args: Record<string, unknown>): Promise<ToolCallResult> => bench.call(name, args);
const text = (result: ToolCallResult): string => resultText(result);

describe("claims tools", () => {
  it("paginates claims with the suite envelope and a total order", async () => {
    const total = (db.prepare("SELECT COUNT(*) AS count FROM claims").get() as { count: number }).count;
    const first = (await call("list_claims", { per_page: 50 })).structuredContent as Record<string, unknown>;
    expect(Object.keys(first)).toEqual(["claims", "page", "per_page", "total", "has_more"]);
    expect(first.total).toBe(total);
    expect(first.has_more).toBe(total > 50);
    const second = (await call("list_claims", { per_page: 50, page: 2 })).structuredContent as {
      claims: Array<{ claim_id: string }>;
    };
    const firstIds = (first.claims as Array<{ claim_id: string }>).map((claim) => claim.claim_id);
    expect(second.claims.some((claim) => firstIds.includes(claim.claim_id))).toBe(false);
  });

  it("rejects a malformed claim id and names the list tool for an unknown one", async () => {
    expect(text(await call("get_claim", { claim_id: "12" }))).toContain("claim_id must look like CLM-00123");
    expect(text(await call("get_claim", { claim_id: "CLM-99999" }))).toContain(
      "use list_claims to find claim ids",
    );
  });

  it("fails the second page of the payments listing once, then serves it", async () => {
    const failed = await call("list_payments", { page: 2 });
    expect(failed.isError).toBe(true);
    expect(text(failed)).toContain("503");
    const retried = await call("list_payments", { page: 2 });
    expect(retried.isError).toBeFalsy();
    expect((retried.structuredContent as { page: number }).page).toBe(2);
  });

  it("drops the first reserve write of some claims with an error body, then saves it", async () => {
    const open = db
      .prepare(
        "SELECT claim_id FROM claims WHERE status = 'open' AND CAST(substr(claim_id, 5) AS INTEGER) % 6 = 1 LIMIT 1",
      )
      .get() as { claim_id: string };
    const dropped = await call("set_reserve", { claim_id: open.claim_id, reserve: 12345, reason: "review" });
    expect(dropped.isError).toBeFalsy();
    expect(dropped.structuredContent).toMatchObject({ status: "error" });
    const unchanged = db.prepare("SELECT reserve FROM claims WHERE claim_id = ?").get(open.claim_id) as {
      reserve: number;
    };
    expect(unchanged.reserve).not.toBe(12345);
    const saved = await call("set_reserve", { claim_id: open.claim_id, reserve: 12345, reason: "review" });
    expect(saved.structuredContent).toMatchObject({ claim: { claim_id: open.claim_id, reserve: 12345 } });
    const closed = db.prepare("SELECT claim_id FROM claims WHERE status = 'closed' LIMIT 1").get() as {
      claim_id: string;
    };
    const refused = await call("set_reserve", { claim_id: closed.claim_id, reserve: 100, reason: "review" });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain("only open claims");
  });

  it("denies only open claims and records the reason as a note", async () => {
    const closed = db.prepare("SELECT claim_id FROM claims WHERE status = 'closed' LIMIT 1").get() as {
      claim_id: string;
    };
    expect(text(await call("deny_claim", { claim_id: closed.claim_id, reason: "test" }))).toContain(
      "only open claims",
    );
    const open = db.prepare("SELECT claim_id FROM claims WHERE status = 'open' LIMIT 1").get() as {
      claim_id: string;
    };
    await call("deny_claim", { claim_id: open.claim_id, reason: "outside policy period" });
    expect(db.prepare("SELECT status, reserve FROM claims WHERE claim_id = ?").get(open.claim_id)).toEqual({
      status: "denied",
      reserve: 0,
    });
    const note = db
      .prepare("SELECT body FROM claim_notes WHERE claim_id = ? ORDER BY note_id DESC LIMIT 1")
      .get(open.claim_id) as { body: string };
    expect(note.body).toBe("Denied: outside policy period");
  });
});

describe("claims generator and verifiers", () => {
  it("writes coverage rules that parse back to the domain's rules", () => {
    const rules = parseCoverageRules(readFileSync(join(instance.workspaceDir, COVERAGE_RULES_PATH), "utf8"));
    expect(Object.fromEntries(rules.noticeDays)).toEqual(NOTICE_DAYS);
    expect(rules.extendedNoticeDays).toBe(EXTENDED_NOTICE_DAYS);
    expect([...rules.sublimits.values()]).toEqual(SUBLIMITS.map(([, , amount]) => amount));
    expect(rules.exclusions.map((exclusion) => exclusion.cause)).toEqual([
      "flood",
      "wear_and_tear",
      "earth_movement",
    ]);
    expect(listWorkspaceFiles(instance.workspaceDir)).toHaveLength(13);
  });

  it("plants a loss on an expiration date, which the denial task counts as outside the period", () => {
    const state = openStateView(instance.dbPath, instance.workspaceDir);
    try {
      const onExpiration = state.view.db
        .prepare(
          "SELECT c.claim_id FROM claims c JOIN policies p ON p.policy_id = c.policy_id WHERE c.status = 'open' AND c.loss_date = p.expiration_date",
        )
        .all() as Array<{ claim_id: string }>;
      expect(onExpiration.length).toBeGreaterThan(0);
      const expected = claimsOutsidePeriod(state.view);
      for (const { claim_id } of onExpiration) expect(expected).toContain(claim_id);
      const checks = lossOutsidePeriodTask.verify({
        initial: state.view,
        final: state.view,
        answer: '{"denied": []}',
        scale: "v0",
        seed: 3,
      }) as Array<{ passed: boolean }>;
      expect(checks.some((item) => !item.passed)).toBe(true);
    } finally {
      state.close();
    }
  });

  it("is deterministic per seed and differs across seeds", () => {
    const contents = instanceContents(bench.instance);
    expect(instanceContents(bench.rebuild())).toEqual(contents);
    expect(instanceContents(bench.rebuild({ seed: 4 })).tables).not.toEqual(contents.tables);
  });
});

describe("claims reassignment guideline", () => {
  it("sets caps that leave a claim without a taker and never moves a claim to an unlicensed adjuster", () => {
    const other = createTempDir("claims-test-reassign");
    try {
      const built = buildInstance(reassignLeaveClaimsTask, "v0", 3, other.path);
      const opened = openStateView(built.dbPath, built.workspaceDir);
      try {
        const plan = expectedReassignment(opened.view);
        expect(plan.moves.size).toBeGreaterThan(0);
        const licensed = opened.view.db.prepare(
          "SELECT licensed_states FROM adjusters WHERE adjuster_id = ?",
        );
        const state = opened.view.db.prepare("SELECT loss_state FROM claims WHERE claim_id = ?");
        for (const [claim, adjuster] of plan.moves) {
          expect(adjuster).not.toBe(plan.onLeave);
          const states = (licensed.get(adjuster) as { licensed_states: string }).licensed_states.split(",");
          expect(states).toContain((state.get(claim) as { loss_state: string }).loss_state);
        }
        expect(plan.unassigned.length).toBeGreaterThan(0);
      } finally {
        opened.close();
      }
    } finally {
      other.dispose();
    }
  });
});
