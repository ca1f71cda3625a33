import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  REFERENCE_DATE,
  buildInstance,
  listWorkspaceFiles,
  openStateView,
  openToolBench,
  type ToolBench,
} from "../../envs/index.js";
import { resultText } from "../../runtime/index.js";
import { hotelTasks } from "./index.js";
import * as expect_ from "./tasks/expectations.js";
import { hotelTools } from "./tools.js";

let bench: ToolBench;

beforeAll(() => (bench = openToolBench(hotelTasks[0]!, hotelTools)));
afterAll(() => bench.close());

async function call(name: string, args: Record<string, unknown>): Promise<{ error: boolean; text: string }> {
  const result = await bench.call(name, args);
  return { error: result.isError === true, text: resultText(result) };
}

const open = (url: string) => call("pms_navigate", { url });

describe("hotel", () => {
  it.each([0, 1, 5, 7])("plants what every task turns on (seed %i)", (seed) => {
    const built = buildInstance(hotelTasks[0]!, "v0", seed, bench.dir);
    const state = openStateView(built.dbPath, built.workspaceDir);
    try {
      const { view } = state;
      expect(
        [expect_.unchargedNoShows, expect_.lateCancellations, expect_.cityTaxDue].map((f) => f(view).length),
      ).not.toContain(0);
      expect(expect_.roomMoves(view).size + expect_.groupAttrition(view).size).toBeGreaterThan(6);
      expect(expect_.parityMismatches(view).length + expect_.noShowTotals(view).size).toBeGreaterThan(2);
      expect(listWorkspaceFiles(built.workspaceDir)).toHaveLength(15);
    } finally {
      state.close();
    }
  });

  it("prints each property's dates and columns its own way, and fails like a web app", async () => {
    expect((await open("/properties/MDW/reservations?status=no_show")).text).toMatch(
      /Arrival[^]*\d\d\/\d\d\/2025/,
    );
    expect((await open("/properties/HBR/reservations?page=2")).error).toBe(true);
    expect((await open("/properties/HBR/reservations?page=2")).text).toContain("Rows 11-20");
    expect((await open("/properties/HBR/reservations?page=3")).text).toContain("Something went wrong");
    expect((await open("/reservations/R-000001")).text).toContain("404 Not Found");
    expect((await open("https://example.com/")).error).toBe(true);
    const sql = "SELECT reservation_id, room_no FROM reservations WHERE arrival = ? AND room_no > ''";
    const row = bench.db.prepare(sql).get(REFERENCE_DATE) as Record<string, string>;
    const move = () =>
      call("pms_submit_form", {
        url: `/reservations/${row.reservation_id}/move`,
        fields: { room: row.room_no },
      });
    let moved = await move();
    if (moved.text.includes("Something went wrong")) moved = await move();
    expect(moved.text).toMatch(/alert: \\"Not saved: room \d+ is (not vacant|out of order)/);
  });
});
