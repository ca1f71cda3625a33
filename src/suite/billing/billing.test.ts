import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTempDir } from "../../core/index.js";
import {
  buildInstance,
  openStateView,
  type Instance,
  openToolBench,
  type ToolBench,
  instanceContents,
} from "../../envs/index.js";
import { type ToolCallResult, resultText } from "../../runtime/index.js";
import { billingTasks } from "./index.js";
import { PLANS, graduatedCharge } from "./rules.js";
import { expectedSuspensions, paymentPlanCustomers } from "./tasks/dunning-suspensions.js";
import { answerAmount } from "./tasks/expectations.js";
import { expectedRequestCredits, readRequests } from "./tasks/support-credit-requests.js";
import { billingTools } from "./tools.js";
const task = billingTasks.find((candidate) => candidate.id === "billing.dunning-suspensions")!;
let bench: ToolBench;
let instance: Instance;
let db: Database.Database;

beforeAll(() => {
  bench = openToolBench(task, billingTools);
  ({ instance, db } = bench);
});

afterAll(() => bench.close());

const call = (name: string, args: Record<string, unknown>): Promise<ToolCallResult> => bench.call(name, args);
const text = (result: ToolCallResult): string => resultText(result);

describe("billing generator", () => {
  it("is deterministic per seed and differs across seeds", () => {
    const contents = instanceContents(bench.instance);
    expect(instanceContents(bench.rebuild())).toEqual(contents);
    expect(instanceContents(bench.rebuild({ seed: 4 })).tables).not.toEqual(contents.tables);
  });
});

describe("billing rules", () => {
  it("prices overage on graduated tiers", () => {
    const team = PLANS.find((plan) => plan.code === "TEAM")!;
    // 250k at 0.60 + 50k at 0.45 per 1000
    expect(graduatedCharge(300_000, team.tiers)).toBe(172.5);
    expect(graduatedCharge(0, team.tiers)).toBe(0);
  });
});

describe("billing tools", () => {
  it("paginates usage and fails page 3 once with a 503, then succeeds", async () => {
    const first = await call("list_usage_records", { per_page: 50 });
    expect(first.structuredContent).toMatchObject({ page: 1, per_page: 50, has_more: true });
    const failing = await call("list_usage_records", { page: 3, per_page: 50 });
    expect(failing.isError).toBe(true);
    expect(text(failing)).toContain("503");
    const retried = await call("list_usage_records", { page: 3, per_page: 50 });
    expect(retried.isError).toBeFalsy();
  });

  it("drops some account statements once with an error body that is not an MCP error", async () => {
    const failing = await call("get_account_statement", { customer_id: "CUS-00002" });
    expect(failing.isError).toBeFalsy();
    expect(failing.structuredContent).toMatchObject({ status: "error" });
    expect(failing.structuredContent).not.toHaveProperty("invoices");
    const retried = await call("get_account_statement", { customer_id: "CUS-00002" });
    expect(retried.structuredContent).toMatchObject({
      customer_id: "CUS-00002",
      invoices: expect.any(Array),
    });
    const other = await call("get_account_statement", { customer_id: "CUS-00001" });
    expect(other.structuredContent).toHaveProperty("credit_notes");
  });

  it("rejects malformed ids and names the listing tool for unknown ones", async () => {
    expect(text(await call("get_invoice", { invoice_id: "42" }))).toContain("INV-000123");
    expect(text(await call("get_subscription", { subscription_id: "SUB-99999" }))).toContain(
      "use list_subscriptions",
    );
  });

  it("schedules a retry only on open invoices, as the next attempt", async () => {
    const open = db.prepare("SELECT invoice_id FROM invoices WHERE status = 'open' LIMIT 1").get() as {
      invoice_id: string;
    };
    const paid = db.prepare("SELECT invoice_id FROM invoices WHERE status = 'paid' LIMIT 1").get() as {
      invoice_id: string;
    };
    const latest = (
      db.prepare("SELECT MAX(attempt_no) AS n FROM payments WHERE invoice_id = ?").get(open.invoice_id) as {
        n: number | null;
      }
    ).n;
    const result = await call("schedule_payment_retry", { invoice_id: open.invoice_id });
    expect(result.structuredContent).toMatchObject({
      payment: { invoice_id: open.invoice_id, status: "scheduled", attempt_no: (latest ?? 0) + 1 },
    });
    expect(text(await call("schedule_payment_retry", { invoice_id: paid.invoice_id }))).toContain("paid");
  });
});

describe("billing verifiers", () => {
  it("never suspends accounts on a payment plan and keeps the 45-day boundary", () => {
    const opened = openStateView(instance.dbPath, instance.workspaceDir);
    const state = opened.view;
    try {
      const exempt = paymentPlanCustomers(state);
      expect(exempt.size).toBeGreaterThan(0);
      const expected = expectedSuspensions(state);
      expect(expected.length).toBeGreaterThan(0);
      const owners = state.db.prepare("SELECT customer_id FROM subscriptions WHERE subscription_id = ?");
      for (const id of expected)
        expect(exempt.has((owners.get(id) as { customer_id: string }).customer_id)).toBe(false);
      const boundary = state.db
        .prepare("SELECT subscription_id FROM invoices WHERE status = 'open' AND due_on = '2025-05-16'")
        .all() as Array<{ subscription_id: string }>;
      expect(boundary.length).toBeGreaterThan(0);
    } finally {
      opened.close();
    }
  });
});

describe("billing answer checks", () => {
  it("read a count written in a sentence, as a user would", async () => {
    const opened = openStateView(instance.dbPath, instance.workspaceDir);
    try {
      const expected = expectedSuspensions(opened.view).length;
      const checks = await task.verify({
        initial: opened.view,
        final: opened.view,
        answer: `Suspended ${expected} subscriptions.`,
        scale: "v0",
        seed: 3,
      });
      expect(checks.find((item) => item.id === "answer")?.passed).toBe(true);
      const wrong = await task.verify({
        initial: opened.view,
        final: opened.view,
        answer: `Suspended ${expected + 1} subscriptions.`,
        scale: "v0",
        seed: 3,
      });
      expect(wrong.find((item) => item.id === "answer")?.passed).toBe(false);
    } finally {
      opened.close();
    }
  });

  it("read amounts written as currency text", () => {
    expect(answerAmount("$1,234.50")).toBe(1234.5);
    expect(answerAmount(431.25)).toBe(431.25);
    expect(answerAmount("n/a")).toBeNaN();
  });
});

describe("billing credit requests", () => {
  it("never grant a request against a void invoice that otherwise qualifies", () => {
    const requests = billingTasks.find((candidate) => candidate.id === "billing.support-credit-requests")!;
    const other = createTempDir("billing-test-credits");
    try {
      const built = buildInstance(requests, "v0", 3, other.path);
      const opened = openStateView(built.dbPath, built.workspaceDir);
      try {
        const state = opened.view;
        const voided = readRequests(state).filter(
          (request) =>
            (
              state.db.prepare("SELECT status FROM invoices WHERE invoice_id = ?").get(request.invoiceId) as {
                status: string;
              }
            ).status === "void",
        );
        expect(voided.length).toBe(1);
        const granted = expectedRequestCredits(state).map((credit) => credit.invoice_id);
        expect(granted).not.toContain(voided[0]!.invoiceId);
        // The same request is granted once the invoice is no longer void: the status is what excludes it.
        const writable = new Database(built.dbPath);
        try {
          writable
            .prepare("UPDATE invoices SET status = 'open' WHERE invoice_id = ?")
            .run(voided[0]!.invoiceId);
        } finally {
          writable.close();
        }
        const reopened = openStateView(built.dbPath, built.workspaceDir);
        try {
          expect(expectedRequestCredits(reopened.view).map((credit) => credit.invoice_id)).toContain(
            voided[0]!.invoiceId,
          );
        } finally {
          reopened.close();
        }
      } finally {
        opened.close();
      }
    } finally {
      other.dispose();
    }
  });
});
