import Database from "better-sqlite3";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTempDir, type TempDir } from "../../core/index.js";
import { buildInstance, listWorkspaceFiles, openStateView } from "../../envs/index.js";
import type { Instance, StateView } from "../../envs/index.js";
import { bindTool } from "../../runtime/index.js";
import { marketplaceTasks } from "./index.js";
import { ESCALATION_CODE } from "./rules.js";
import { escalateOverdueTask } from "./tasks/escalate-overdue.js";
import { acceptedOffers, escalatedDecisions, overdueCases, sellersOverLimit } from "./tasks/expectations.js";
import { marketplaceTools } from "./tools.js";

let cache: TempDir;
let instance: Instance;
let initial: { view: StateView; close(): void };
let db: Database.Database;
const opened: Database.Database[] = [];

/** A fresh episode database (the instance is immutable: tools write to a private copy, as an episode does). */
function episode(name: string): string {
  const path = join(cache.path, `${name}.sqlite`);
  copyFileSync(instance.dbPath, path);
  db = new Database(path);
  opened.push(db);
  return path;
}

beforeAll(() => {
  cache = createTempDir("marketplace-test");
  instance = buildInstance(escalateOverdueTask, "v0", 3, cache.path);
  initial = openStateView(instance.dbPath, instance.workspaceDir);
  episode("browser");
});

afterAll(() => {
  for (const handle of opened) handle.close();
  initial.close();
  cache.dispose();
});

/** A tool call: the page's HTML (or the error text), its HTTP status and whether it was a tool error. */
type Result = { error: boolean; html: string; status?: number };
async function call(name: string, args: Record<string, unknown>): Promise<Result> {
  const tool = marketplaceTools.find((candidate) => candidate.name === name)!;
  const result = await bindTool(tool, { db, workspaceDir: instance.workspaceDir }).call(args, {
    signal: AbortSignal.timeout(5_000),
    timeoutMs: 5_000,
  });
  const text = result.content.map((part) => ("text" in part ? part.text : "")).join("");
  const page = result.structuredContent as { html?: string; status?: number } | undefined;
  return { error: result.isError === true, html: page?.html ?? text, status: page?.status };
}

const open = (url: string) => call("browser_navigate", { url });
const tokenOf = (html: string, action: string): string =>
  new RegExp(`action="${action}"[^]*?name="csrf_token" value="([^"]+)"`).exec(html)![1]!;

describe("marketplace generator", () => {
  it("writes three policies, the scan reference and nine inbox e-mails", () => {
    const files = listWorkspaceFiles(instance.workspaceDir);
    expect(files.filter((path) => path.startsWith("inbox/"))).toHaveLength(9);
    expect(files.filter((path) => !path.startsWith("inbox/"))).toHaveLength(4);
  });

  it.each([0, 1, 5, 7])("plants the cases the near-misses turn on (seed %i)", (seed) => {
    const built = buildInstance(escalateOverdueTask, "v0", seed, cache.path);
    const state = openStateView(built.dbPath, built.workspaceDir);
    const count = (sql: string): number => (state.view.db.prepare(sql).get() as { n: number }).n;
    try {
      const overdue = overdueCases(state.view);
      const awaiting = count("SELECT count(*) AS n FROM disputes WHERE status = 'awaiting_seller'");
      expect(overdue.length).toBeGreaterThan(0);
      expect(awaiting).toBeGreaterThan(overdue.length); // the planted edge cases are not overdue
      const may = count("SELECT count(*) AS n FROM refunds WHERE issued_on LIKE '2025-05%'");
      expect(Math.min(may, awaiting)).toBeGreaterThan(10); // listings of 2+ pages
      const scansOutOfOrder = `SELECT count(*) AS n FROM tracking_events a JOIN tracking_events b
        ON b.tracking_number = a.tracking_number AND b.event_id > a.event_id AND b.happened_at < a.happened_at`;
      expect(count(scansOutOfOrder)).toBe(0);
      const decisions = escalatedDecisions(state.view);
      expect(decisions.some((item) => item.refund === null)).toBe(true);
      expect(acceptedOffers(state.view).length).toBeGreaterThan(0);
      const declines = "body LIKE 'I do not accept%' OR body LIKE '%won''t accept%'";
      expect(count(`SELECT count(*) AS n FROM dispute_messages WHERE ${declines}`)).toBeGreaterThan(0);
      expect([...sellersOverLimit(state.view).values()].some((seller) => seller.status === "on_hold")).toBe(
        true,
      );
    } finally {
      state.close();
    }
  });

  it("registers eight tasks over the browser tools", () => {
    expect(marketplaceTasks).toHaveLength(8);
    for (const task of marketplaceTasks) expect(task.tools).toContain("browser_navigate");
  });
});

describe("the back office", () => {
  it("renders paginated listings as HTML and answers bad addresses like a web server", async () => {
    const first = await open("/disputes");
    expect(first.status).toBe(200);
    expect(first.html).toMatch(/<table id="disputes"/);
    expect(first.html).toContain('rel="next"');
    expect(first.html).toContain("<script");
    expect((await open("/disputes?colour=red")).html).toContain(
      "400 Bad Request: /disputes has no parameter 'colour'",
    );
    await open("/disputes/DSP-99999"); // the CDN may show its browser check first
    expect((await open("/disputes/DSP-99999")).html).toContain("404 Not Found: no case DSP-99999");
    expect((await open("https://example.com/disputes")).error).toBe(true);
  });

  it("fails a deep listing page once with a 503, and shows the browser check instead of some records once", async () => {
    const deep = await open("/refunds?page=2");
    expect(deep.error).toBe(true);
    expect(deep.html).toContain("503 Service Unavailable");
    expect((await open("/refunds?page=2")).html).toContain("Showing 11–20");
    const ids = db.prepare("SELECT dispute_id FROM disputes").pluck().all() as string[];
    const checked: string[] = [];
    for (const id of ids)
      if ((await open(`/disputes/${id}`)).html.includes("<title>Just a moment...")) checked.push(id);
    expect(checked.length).toBeGreaterThan(0);
    for (const id of checked) expect((await open(`/disputes/${id}`)).html).toContain(`Case ${id}`);
  });

  it("refuses a post with a stale token (403, nothing saved) and a refund over the order total (422)", async () => {
    const [id] = overdueCases(initial.view);
    const action = `/disputes/${id}/actions`;
    const token = tokenOf((await open(`/disputes/${id}`)).html, action);
    const actions = () => (db.prepare("SELECT count(*) AS n FROM dispute_actions").get() as { n: number }).n;
    const fields = { csrf_token: "0000", action: "escalate", reason_code: ESCALATION_CODE };
    const stale = await call("browser_submit_form", { url: action, fields });
    expect(stale.status).toBe(403);
    expect(stale.error).toBe(false);
    const refund = { csrf_token: token, action: "refund_full", amount: "99999" };
    const tooMuch = await call("browser_submit_form", { url: action, fields: refund });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.html).toContain("amount exceeds what is left to refund");
    expect(actions()).toBe(0);
  });
});

describe("marketplace.escalate-overdue", () => {
  it("rewards exactly the policy's escalations", async () => {
    const expected = overdueCases(initial.view);
    const path = episode("escalate");
    const escalate = async (id: string) => {
      const action = `/disputes/${id}/actions`;
      let page = await open(`/disputes/${id}`);
      if (page.html.includes("Just a moment")) page = await open(`/disputes/${id}`);
      return call("browser_submit_form", {
        url: action,
        fields: { csrf_token: tokenOf(page.html, action), action: "escalate", reason_code: ESCALATION_CODE },
      });
    };
    for (const id of expected) expect((await escalate(id)).html).toContain(`Case ${id} escalated`);
    const final = openStateView(path, instance.workspaceDir);
    try {
      const passes = async (answer: string): Promise<boolean> => {
        const context = { initial: initial.view, final: final.view, answer, scale: "v0", seed: 3 };
        return (await escalateOverdueTask.verify(context)).every((item) => item.passed);
      };
      expect(await passes(`Escalated ${expected.length} cases`)).toBe(true);
      expect(await passes(`Escalated ${expected.length + 1} cases`)).toBe(false);
      const responded = "SELECT dispute_id FROM disputes WHERE status = 'seller_responded'";
      const extra = db.prepare(responded).pluck().get() as string;
      expect((await escalate(extra)).html).toContain("escalated");
      expect(await passes(`Escalated ${expected.length} cases`)).toBe(false);
    } finally {
      final.close();
    }
  });
});
