import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listWorkspaceFiles, openToolBench, type ToolBench } from "../../envs/index.js";
import { marketplaceTasks } from "./index.js";
import { ESCALATION_CODE } from "./rules.js";
import { escalateOverdueTask } from "./tasks/escalate-overdue.js";
import { acceptedOffers, escalatedDecisions, overdueCases, sellersOverLimit } from "./tasks/expectations.js";
import { marketplaceTools } from "./tools.js";

let bench: ToolBench;

beforeAll(() => (bench = openToolBench(escalateOverdueTask, marketplaceTools)));
afterAll(() => bench.close());

/** The initial state of the bench's instance (seed 3). */
const initialView = () => bench.build().view;

/** A tool call: the page's HTML (or the error text), its HTTP status and whether it was a tool error. */
type Result = { error: boolean; html: string; status?: number };
async function call(name: string, args: Record<string, unknown>): Promise<Result> {
  const { error, text, body } = await bench.reply(name, args);
  const page = body as { html?: string; status?: number };
  return { error, html: page.html ?? text, status: page.status };
}

const open = (url: string) => call("browser_navigate", { url });
const tokenOf = (html: string, action: string): string =>
  new RegExp(`action="${action}"[^]*?name="csrf_token" value="([^"]+)"`).exec(html)![1]!;

describe("marketplace generator", () => {
  it("writes three policies, the scan reference and nine inbox e-mails", () => {
    const files = listWorkspaceFiles(bench.instance.workspaceDir);
    expect(files.filter((path) => path.startsWith("inbox/"))).toHaveLength(9);
    expect(files.filter((path) => !path.startsWith("inbox/"))).toHaveLength(4);
  });

  it.each([0, 1, 5, 7])("plants the cases the near-misses turn on (seed %i)", (seed) => {
    const state = bench.build({ seed });
    const count = (sql: string): number => (state.view.db.prepare(sql).get() as { n: number }).n;
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
    const ids = bench.db.prepare("SELECT dispute_id FROM disputes").pluck().all() as string[];
    const checked: string[] = [];
    for (const id of ids)
      if ((await open(`/disputes/${id}`)).html.includes("<title>Just a moment...")) checked.push(id);
    expect(checked.length).toBeGreaterThan(0);
    for (const id of checked) expect((await open(`/disputes/${id}`)).html).toContain(`Case ${id}`);
  });

  it("refuses a post with a stale token (403, nothing saved) and a refund over the order total (422)", async () => {
    const [id] = overdueCases(initialView());
    const action = `/disputes/${id}/actions`;
    const token = tokenOf((await open(`/disputes/${id}`)).html, action);
    const actions = () =>
      (bench.db.prepare("SELECT count(*) AS n FROM dispute_actions").get() as { n: number }).n;
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
    const expected = overdueCases(initialView());
    bench.reset();
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
    const final = bench.view();
    const passes = async (answer: string): Promise<boolean> => {
      const context = { initial: initialView(), final, answer, scale: "v0", seed: 3 };
      return (await escalateOverdueTask.verify(context)).every((item) => item.passed);
    };
    expect(await passes(`Escalated ${expected.length} cases`)).toBe(true);
    expect(await passes(`Escalated ${expected.length + 1} cases`)).toBe(false);
    const responded = "SELECT dispute_id FROM disputes WHERE status = 'seller_responded'";
    const extra = bench.db.prepare(responded).pluck().get() as string;
    expect((await escalate(extra)).html).toContain("escalated");
    expect(await passes(`Escalated ${expected.length} cases`)).toBe(false);
  });
});
