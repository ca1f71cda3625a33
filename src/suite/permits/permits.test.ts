import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listWorkspaceFiles, openToolBench, type ToolBench } from "../../envs/index.js";
import { permitsTasks } from "./index.js";
import { NO_REVISIT, reinspectionDate, reinspectionTargets, stopWorkTargets } from "./tasks/expectations.js";
import { stopWorkLapsedLicensesTask } from "./tasks/stop-work-lapsed-licenses.js";
import { permitsTools } from "./tools.js";

let bench: ToolBench;

beforeAll(() => (bench = openToolBench(stopWorkLapsedLicensesTask, permitsTools)));
afterAll(() => bench.close());

/** The initial state of the bench's instance (seed 3). */
const initialView = () => bench.build().view;

/** A tool call: the page (or error text) and whether it was an error. */
async function call(name: string, args: Record<string, unknown>): Promise<{ error: boolean; page: string }> {
  const { error, text, body } = await bench.reply(name, args);
  return { error, page: (body as { snapshot?: string }).snapshot ?? text };
}

const open = (url: string) => call("open_page", { url });

describe("permits generator", () => {
  it("writes the policies, roster, code reference and an inbox with leave and waiver threads", () => {
    const files = listWorkspaceFiles(bench.instance.workspaceDir);
    expect(files.filter((path) => !path.startsWith("inbox/"))).toHaveLength(4);
    const inbox = files
      .filter((path) => path.startsWith("inbox/"))
      .map((path) => initialView().readFile(path));
    expect(inbox).toHaveLength(8);
    expect(inbox.join("\n")).toMatch(/on leave from \w+ \d+, 2025 through/);
    expect(inbox.join("\n")).toMatch(/^From: Renata Solis[^]*Approved in part: waive half of fee #\d+/m);
  });

  it("plants the cases the near-misses turn on: a waived visit, a re-booked failure", () => {
    const rows = initialView()
      .db.prepare(
        `SELECT i.* FROM inspections i JOIN permits p ON p.permit_id = i.permit_id
          WHERE p.status = 'issued' ORDER BY i.scheduled_for, i.inspection_id`,
      )
      .all() as Array<{ permit_id: string; inspection_type: string; result: string; notes: string }>;
    const histories = new Map<string, typeof rows>();
    for (const row of rows) {
      const key = `${row.permit_id}|${row.inspection_type}`;
      histories.set(key, [...(histories.get(key) ?? []), row]);
    }
    const open = [...histories.values()].filter((history) => history.at(-1)!.result === "fail");
    const waived = open.filter((history) => NO_REVISIT.test(history.at(-1)!.notes));
    const rebooked = [...histories.values()].filter(
      (history) => history.at(-1)!.result === "scheduled" && history.at(-2)?.result === "fail",
    );
    expect(waived.length).toBeGreaterThan(0);
    expect(rebooked.length).toBeGreaterThan(0);
    const targets = new Set(
      reinspectionTargets(initialView()).map((t) => `${t.permit_id}|${t.inspection_type}`),
    );
    expect(targets.size).toBe(open.length - waived.length);
    for (const history of [...waived, ...rebooked])
      expect(targets.has(`${history[0]!.permit_id}|${history[0]!.inspection_type}`)).toBe(false);
    expect(reinspectionDate(initialView())).toBe("2025-07-07"); // Monday + 5 business days, July 4 counted
  });

  it("registers nine tasks over the two portal tools", () => {
    expect(permitsTasks).toHaveLength(9);
    for (const task of permitsTasks) expect(task.tools).toEqual(expect.arrayContaining(["open_page"]));
  });
});

describe("the portal", () => {
  it("renders paginated searches with filters, and answers bad addresses like a web server", async () => {
    const first = await open("/permits?status=issued");
    expect(first.page).toMatch(/- text: "Showing 1–10 of \d+"/);
    expect(first.page).toContain('link "Next page" [ref=');
    expect(first.page).toContain('- dialog "Cookie consent"');
    const bad = await open("/permits?colour=red");
    expect(bad.page).toContain("400 Bad Request: /permits has no filter 'colour'");
    expect((await open("/permits/BP-2025-99999")).page).toContain("404 Not Found: no permit BP-2025-99999");
    expect((await open("https://example.com/permits")).error).toBe(true);
    expect((await open("/inspections/INSP-99999/reassign")).page).toContain("404 Not Found");
  });

  it("fails a deep search page once with a 503, and shows some detail pages as 'Session expired' once", async () => {
    const deep = await open("/fees?status=paid&page=3");
    expect(deep.error).toBe(true);
    expect(deep.page).toContain("503 Service Unavailable");
    expect((await open("/fees?status=paid&page=3")).page).toContain("Showing 21–30");
    const ids = bench.db.prepare("SELECT permit_id FROM permits").pluck().all() as string[];
    const expired: string[] = [];
    for (const id of ids)
      if ((await open(`/permits/${id}`)).page.includes('heading "Session expired"')) expired.push(id);
    expect(expired.length).toBeGreaterThan(0);
    for (const id of expired) expect((await open(`/permits/${id}`)).page).toContain(`heading "Permit ${id}"`);
  });

  it("refuses a weekend booking with an alert and saves nothing; books a weekday", async () => {
    const [target] = reinspectionTargets(initialView());
    const url = `/permits/${target!.permit_id}/inspections/new`;
    const count = () => (bench.db.prepare("SELECT count(*) AS n FROM inspections").get() as { n: number }).n;
    const before = count();
    const fields = { inspection_type: target!.inspection_type, inspector: target!.inspector };
    const weekend = await call("submit_form", { url, fields: { ...fields, date: "2025-07-05" } });
    expect(weekend.page).toContain(
      '- alert: "There is a problem with this form: Inspections are not booked on weekends."',
    );
    const invalid = await call("submit_form", { url, fields: { ...fields, date: "2025-06-31" } });
    expect(invalid.page).toContain("Date must be YYYY-MM-DD");
    expect(count()).toBe(before);
    const booked = await call("submit_form", { url, fields: { ...fields, date: "2025-07-07" } });
    expect(booked.page).toMatch(/- status: "Inspection INSP-\d+ booked for Jul 7, 2025/);
    expect(count()).toBe(before + 1);
  });
});

describe("permits.stop-work-lapsed-licenses", () => {
  it("rewards exactly the memo's stop-work orders, posted again after the session-expired page", async () => {
    const expected = stopWorkTargets(initialView());
    bench.reset();
    const post = (id: string) =>
      call("submit_form", { url: `/permits/${id}/stop-work`, fields: { reason_code: "SW-LIC" } });
    for (const id of expected) {
      expect((await post(id)).page).toContain('heading "Session expired"');
      expect((await post(id)).page).toContain("Stop-work order SW-LIC issued.");
    }
    const final = bench.view();
    const passes = async (answer: string): Promise<boolean> => {
      const context = { initial: initialView(), final, answer, scale: "v0", seed: 3 };
      return (await stopWorkLapsedLicensesTask.verify(context)).every((item) => item.passed);
    };
    expect(await passes(`Issued ${expected.length} stop-work orders`)).toBe(true);
    expect(await passes(`Issued ${expected.length + 1} stop-work orders`)).toBe(false);
    // One order too many (a permit the memo leaves alone) fails the state difference.
    const extra = bench.db
      .prepare("SELECT permit_id FROM permits WHERE status = 'issued'")
      .pluck()
      .get() as string;
    await post(extra);
    expect((await post(extra)).page).toContain("Stop-work order SW-LIC issued.");
    expect(await passes(`Issued ${expected.length} stop-work orders`)).toBe(false);
  });
});
