import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listWorkspaceFiles, openToolBench, type ToolBench } from "../../envs/index.js";
import { parseAvlLine } from "./avl.js";
import { closeStopsTask, expectedMoves } from "./tasks/close-stops.js";
import { expectedReports } from "./tasks/state-reports.js";
import { expectedSwaps } from "./tasks/lift-buses.js";
import { expectedLateRuns } from "./tasks/late-arrivals.js";
import { expectedEpisodes } from "./tasks/speeding-episodes.js";
import { recordLocked, transportTools } from "./tools.js";

let bench: ToolBench;
const SEEDS = [0, 3, 7];

beforeAll(() => (bench = openToolBench(closeStopsTask, transportTools)));
afterAll(() => bench.close());

/** The instance of seed `seed` (seed 3 is the bench's own) with a view of its initial state. */
const state = (seed: number) => bench.build({ seed });

/** A tool call in the current episode: whether it failed and its text. */
async function call(name: string, args: Record<string, unknown>): Promise<{ error: boolean; body: string }> {
  const { error, text } = await bench.reply(name, args);
  return { error, body: text };
}

describe("transport generator", () => {
  it("writes the policy, the closure notice and an inbox with a forwarded copy", () => {
    const files = listWorkspaceFiles(bench.instance.workspaceDir);
    expect(files.filter((path) => !path.startsWith("inbox/"))).toEqual([
      "notices/stop-closures.md",
      "policies/transportation-policy.md",
    ]);
    const inbox = files
      .filter((path) => path.startsWith("inbox/"))
      .map((path) => state(3).view.readFile(path)!);
    expect(inbox).toHaveLength(10);
    expect(inbox.join("\n")).toMatch(/---------- Forwarded message ---------/);
    expect(inbox.join("\n")).toMatch(/No injuries|Nobody was hurt/);
  });

  it.each(SEEDS)("plants the cases the near-misses turn on at seed %i", (seed) => {
    const { view } = state(seed);
    const exports = view.db.prepare("SELECT text FROM avl_exports").all() as Array<{ text: string }>;
    const lines = exports.flatMap((row) => row.text.split("\n"));
    expect(lines.some((line) => /^\S+Z BUS-\d{3} GPS .* spd=[\d.]+kph$/.test(line))).toBe(true);
    expect(
      lines.filter((line) => !line.startsWith("#") && parseAvlLine(line) === null).length,
    ).toBeGreaterThan(5);
    expect(expectedLateRuns(view).size).toBeGreaterThan(0);
    expect(expectedEpisodes(view).size).toBeGreaterThan(0);
    expect(expectedSwaps(view).length).toBeGreaterThan(0);
    const reports = expectedReports(view);
    expect(new Set(reports.map((r) => r.category)).size).toBeGreaterThan(1);
    const driverOf = view.db.prepare("SELECT driver_id FROM routes WHERE route_id = ?").pluck();
    expect(reports.some((r) => r.driver_id !== driverOf.get(r.route_id))).toBe(true);
    const names = view.db.prepare("SELECT name FROM drivers").pluck().all();
    expect(new Set(names).size).toBe(names.length - 2);
    const { closing, moves } = expectedMoves(view);
    expect(closing.length).toBeGreaterThanOrEqual(4);
    expect([...moves.keys()].some(recordLocked)).toBe(true);
  });
});

describe("transport tools", () => {
  it("returns Thursday's second AVL page partial once, then the lines", async () => {
    const db = bench.reset(); // a new episode
    const bus = (db.prepare("SELECT bus_id FROM routes LIMIT 1").get() as { bus_id: string }).bus_id;
    const page2 = async () =>
      JSON.parse((await call("fetch_avl", { bus_id: bus, date: "2025-06-26", page: 2 })).body);
    expect(await page2()).toMatchObject({ status: "partial", lines: [], has_more: false });
    expect((await page2()).lines.length).toBeGreaterThan(0);
    expect((await call("fetch_avl", { bus_id: "BUS-999", date: "2025-06-26" })).body).toMatch(
      /bus BUS-999 not found/,
    );
  });

  it("fails licence lookups with a 503 once and refuses a bus that is not spare", async () => {
    const db = bench.reset(); // a new episode
    expect((await call("get_driver", { driver_id: "DRV-003" })).error).toBe(true);
    expect((await call("get_driver", { driver_id: "DRV-003" })).body).toMatch(/"cdl_class"/);
    const inService = (
      db.prepare("SELECT bus_id FROM buses WHERE status = 'in_service' LIMIT 1").get() as { bus_id: string }
    ).bus_id;
    const refused = await call("assign_bus", { route_id: "RT-101", bus_id: inService });
    expect(refused.error).toBe(true);
    expect(refused.body).toMatch(/not spare/);
  });
});

describe("transport.close-stops", () => {
  it("rewards exactly the policy's moves, the locked records saved on the second try", async () => {
    const { view } = state(3);
    const { closing, moves } = expectedMoves(view);
    const db = bench.reset();
    for (const [student, stop] of moves) {
      const first = await call("assign_student_stop", { student_id: student, stop_id: stop });
      if (recordLocked(student)) {
        expect(first.body).toMatch(/locked by another user/);
        await call("assign_student_stop", { student_id: student, stop_id: stop });
      }
    }
    for (const stop of closing) await call("close_stop", { stop_id: stop });
    const final = bench.view();
    const passes = async (answer: string): Promise<boolean> =>
      (await closeStopsTask.verify({ initial: view, final, answer, scale: "v0", seed: 3 })).every(
        (item) => item.passed,
      );
    expect(await passes(`Moved ${moves.size} students`)).toBe(true);
    expect(await passes(`Moved ${moves.size + 1} students`)).toBe(false);
    db.prepare(
      "UPDATE stops SET status = 'closed' WHERE stop_id = (SELECT MIN(stop_id) FROM stops WHERE status = 'open')",
    ).run();
    expect(await passes(`Moved ${moves.size} students`)).toBe(false);
  });
});
