import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listWorkspaceFiles, openToolBench, type ToolBench } from "../../envs/index.js";
import { resultText } from "../../runtime/index.js";
import { constructionTasks } from "./index.js";
import { weatherDays } from "./logs.js";
import {
  decidedPending,
  ledgerMismatches,
  overdueRfis,
  overdueSubmittals,
  payAppsToHold,
  retainageErrors,
  weatherDayCounts,
} from "./tasks/facts.js";
import { holdUninsuredPayAppsTask } from "./tasks/payments.js";
import { threadOutcome } from "./threads.js";
import { constructionTools } from "./tools.js";

let bench: ToolBench;

beforeAll(() => (bench = openToolBench(holdUninsuredPayAppsTask, constructionTools)));
afterAll(() => bench.close());

/** The instance of seed `seed` (seed 3 is the bench's own) with a view of its initial state. */
const state = (seed: number) => bench.build({ seed });

async function call(name: string, args: Record<string, unknown>): Promise<{ error: boolean; text: string }> {
  const result = await bench.call(name, args);
  return { error: result.isError === true, text: resultText(result) };
}

const PE = "pe@summitridge.com";
const PM = "pm@summitridge.com";
const message = (from_email: string, body: string, attachment_text: string | null = null) => ({
  from_email,
  body,
  attachment_text,
});

describe("construction threads", () => {
  const limits = new Map<string, number | null>([
    [PM, 10_000],
    [PE, 50_000],
  ]);
  it("takes the latest decision in the sender's own text, within the sender's authority", () => {
    const request = message("sub@example.com", "Request attached.\n--\nSub", "TOTAL REQUESTED: $20,000.00");
    const approved = message(PE, "Approved.\nGo ahead.\n--\nPE");
    const quoted = message(
      PM,
      "Noted, thanks.\n--\nPM\n\nOn Mon, 2 Jun 2025 at 09:00, PE wrote:\n> Approved at $30,000.00.",
    );
    expect(threadOutcome([request, approved, quoted], limits)).toEqual({
      status: "approved",
      amount: 20_000,
      decidedBy: PE,
    });
    const revised = message(PE, "Revised approval: $17,000.00.\nReplaces the approval below.\n--\nPE");
    expect(threadOutcome([request, approved, revised], limits).amount).toBe(17_000);
    const overLimit = message(PM, "Approved.\n--\nPM");
    expect(threadOutcome([request, overLimit], limits).status).toBe("pending");
    const rebid = message("sub@example.com", "Revised.\n--\nSub", "TOTAL REQUESTED: $8,000.00");
    expect(threadOutcome([request, rebid, overLimit], limits)).toMatchObject({
      status: "approved",
      amount: 8_000,
    });
    expect(threadOutcome([request, approved, message(PE, "Rejected.\n--\nPE")], limits).status).toBe(
      "rejected",
    );
  });

  it("counts weather days on working days only, when work stopped", () => {
    const log = [
      "Date: Fri 2025-06-27\nWeather: Rain, 60F\nManpower: A 3\nWork performed: x\nDelays: Heavy rain; work stopped at 09:15 and crews sent home.",
      "Date: Sat 2025-06-28\nWeather: Rain, 60F\nManpower: A 3\nWork performed: x\nDelays: Lightning in the area, site shut down for the day.",
      "Date: Thu 2025-06-26\nWeather: Rain, 60F\nManpower: A 3\nWork performed: x\nDelays: Rain all day; interior framing continued, no delay.",
      "Date: Thu 2025-06-19\nWeather: Rain, 60F\nManpower: 0\nWork performed: none, holiday, site closed.\nDelays: none.",
    ].join("\n\n");
    expect(weatherDays(log, new Set(["2025-06-19"]))).toEqual(["2025-06-27"]);
  });
});

describe("construction generator", () => {
  it("writes three documents and weekly daily logs at v0", () => {
    const files = listWorkspaceFiles(state(3).instance.workspaceDir);
    expect(files).toHaveLength(13);
    expect(files.filter((path) => path.startsWith("daily-logs/"))).toHaveLength(10);
    expect(files).toContain("contracts/general-conditions.md");
  });

  it.each([0, 3, 7])("plants the cases the near-misses turn on at seed %i", (seed) => {
    const { view } = state(seed);
    expect(decidedPending(view).length).toBeGreaterThan(1);
    expect(ledgerMismatches(view).length).toBeGreaterThan(decidedPending(view).length);
    expect(retainageErrors(view).length).toBeGreaterThan(0);
    expect(payAppsToHold(view).length).toBeGreaterThan(0);
    expect([...overdueRfis(view).values()].some((count) => count > 0)).toBe(true);
    // SBM-0003 (sent Friday 2025-06-20) and SBM-0004 (due today once Juneteenth is skipped) are not late yet.
    expect(overdueSubmittals(view)).toEqual(expect.not.arrayContaining(["SBM-0003", "SBM-0004"]));
    const halfCents = view.db
      .prepare(
        "SELECT COUNT(*) FROM (SELECT CAST(ROUND(work_completed_to_date * 100) AS INTEGER) AS c FROM pay_apps) WHERE c % 10 = 5 OR c % 20 = 10",
      )
      .pluck()
      .get();
    expect(halfCents).toBe(0);
    expect([...weatherDayCounts(view).values()].every((count) => count > 0)).toBe(true);
  });

  it("registers eight tasks with at least two near-misses each", () => {
    expect(constructionTasks).toHaveLength(8);
    for (const task of constructionTasks) expect(task.nearMisses.length).toBeGreaterThanOrEqual(2);
  });
});

describe("construction tools", () => {
  it("fails a thread once with an error body and a pay-app page once with a 503", async () => {
    const flaky = await call("get_email_thread", { thread_id: "THR-0001" });
    expect(flaky.error).toBe(false);
    expect(flaky.text).toContain('"status":"error"');
    const thread = await call("get_email_thread", { thread_id: "THR-0001" });
    expect(thread.text).toContain("TOTAL REQUESTED");
    expect((await call("list_pay_apps", {})).text).toContain("503 Service Unavailable");
    expect((await call("list_pay_apps", {})).text).toContain('"pay_apps"');
  });

  it("refuses bad ids, decided change orders and paid pay apps", async () => {
    expect((await call("get_rfi", { rfi_id: "R-1" })).text).toContain("rfi_id must look like RFI-0123");
    const decided = bench.db
      .prepare("SELECT co_id FROM change_orders WHERE status != 'pending'")
      .pluck()
      .get() as string;
    const refused = await call("record_change_order", { co_id: decided, status: "rejected", decided_by: PE });
    expect(refused.text).toContain("only pending change orders");
    const paid = bench.db
      .prepare("SELECT pay_app_id FROM pay_apps WHERE status = 'paid'")
      .pluck()
      .get() as string;
    expect((await call("hold_pay_app", { pay_app_id: paid, reason: "coi" })).text).toContain(
      "only submitted or approved",
    );
  });
});

describe("construction.hold-uninsured-pay-apps", () => {
  it("rewards exactly the blocked subcontractors' unpaid pay apps held", async () => {
    const expected = payAppsToHold(state(3).view);
    bench.reset();
    for (const id of expected)
      expect((await call("hold_pay_app", { pay_app_id: id, reason: "COI" })).error).toBe(false);
    const final = bench.view();
    const passes = async (answer: string): Promise<boolean> => {
      const context = { initial: state(3).view, final, answer, scale: "v0", seed: 3 };
      return (await holdUninsuredPayAppsTask.verify(context)).every((item) => item.passed);
    };
    expect(await passes(`${expected.length}`)).toBe(true);
    expect(await passes(`${expected.length + 1}`)).toBe(false);
    const extra = bench.db
      .prepare("SELECT pay_app_id FROM pay_apps WHERE status IN ('submitted', 'approved')")
      .pluck()
      .get() as string;
    await call("hold_pay_app", { pay_app_id: extra, reason: "not needed" });
    expect(await passes(`${expected.length}`)).toBe(false);
  });
});
