import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildInstance,
  openStateView,
  openToolBench,
  type ToolBench,
  instanceContents,
} from "../../envs/index.js";
import type { ToolCallResult } from "../../runtime/index.js";
import { airlineTasks } from "./index.js";
import { crewRosterCheckTask, expectedFailures } from "./tasks/crew-roster-check.js";
import { delayCompensationTask, expectedCompensation } from "./tasks/delay-compensation.js";
import { expectedRebooking } from "./tasks/rebook-cancelled-flights.js";
import { isUnaccompaniedMinor } from "./tasks/shared.js";
import { airlineTools } from "./tools.js";

const task = airlineTasks[0]!;
let bench: ToolBench;
let db: Database.Database;

beforeAll(() => {
  bench = openToolBench(task, airlineTools);
  db = bench.db;
});

afterAll(() => bench.close());

const call = (name: string, args: Record<string, unknown>): Promise<ToolCallResult> => bench.call(name, args);
const value = (name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> =>
  bench.value(name, args);

const errorText = (result: ToolCallResult): string => bench.errorText(result);

describe("airline tools", () => {
  it("pages the schedule with the suite's envelope and no overlap", async () => {
    const first = await value("list_flights", { date: "2025-06-29", per_page: 5 });
    const second = await value("list_flights", { date: "2025-06-29", per_page: 5, page: 2 });
    const total = (
      db.prepare("SELECT COUNT(*) AS n FROM flights WHERE flight_date = '2025-06-29'").get() as { n: number }
    ).n;
    expect(Object.keys(first)).toEqual(["flights", "page", "per_page", "total", "has_more"]);
    expect(first.total).toBe(total);
    const ids = [
      ...(first.flights as Array<{ flight_id: string }>),
      ...(second.flights as Array<{ flight_id: string }>),
    ].map((f) => f.flight_id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("fails page 3 of the schedule once with a 503, then answers", async () => {
    const args = { date_from: "2025-06-01", date_to: "2025-06-29", page: 3, per_page: 10 };
    expect(errorText(await call("list_flights", args))).toContain("503 Service Unavailable");
    expect(((await value("list_flights", args)).flights as unknown[]).length).toBe(10);
  });

  it("answers the ops feed for a delayed flight first with an error body, then with the data", async () => {
    const delayed = db
      .prepare("SELECT flight_id FROM flights WHERE delay_code IS NOT NULL LIMIT 1")
      .get() as { flight_id: string };
    const first = await value("get_flight_status", { flight_id: delayed.flight_id });
    expect(first.status).toBe("error");
    expect(first).not.toHaveProperty("actual_arrival");
    const again = await value("get_flight_status", { flight_id: delayed.flight_id });
    expect(typeof again.arrival_delay_minutes).toBe("number");
  });

  it("teaches the id format and names the listing tool for unknown ids", async () => {
    expect(errorText(await call("get_flight", { flight_id: "42" }))).toContain(
      "flight_id must look like FL-00123",
    );
    expect(errorText(await call("get_flight", { flight_id: "FL-99999" }))).toContain("use list_flights");
  });

  it("rebooks onto a flight with a free seat and refuses a full one", async () => {
    const booking = db
      .prepare(
        "SELECT b.booking_id, f.route_id FROM bookings b JOIN flights f ON f.flight_id = b.flight_id WHERE b.status = 'confirmed' AND f.status = 'cancelled' LIMIT 1",
      )
      .get() as { booking_id: string; route_id: string };
    const target = db
      .prepare(
        "SELECT flight_id FROM flights WHERE route_id = ? AND status = 'scheduled' ORDER BY scheduled_departure DESC LIMIT 1",
      )
      .get(booking.route_id) as { flight_id: string };
    const before = (await value("get_flight", { flight_id: target.flight_id })) as {
      seats: number;
      seats_free: number;
    };
    expect(before.seats_free).toBeGreaterThan(0);
    const moved = (await value("rebook_booking", {
      booking_id: booking.booking_id,
      flight_id: target.flight_id,
    })) as {
      booking: { rebooked_from: string; status: string };
    };
    expect(moved.booking).toMatchObject({ rebooked_from: booking.booking_id, status: "confirmed" });
    expect(
      errorText(
        await call("rebook_booking", { booking_id: booking.booking_id, flight_id: target.flight_id }),
      ),
    ).toContain("only confirmed bookings");
    // Fill the flight, then one more is refused.
    const others = db
      .prepare("SELECT booking_id FROM bookings WHERE status = 'confirmed' AND flight_id <> ? LIMIT ?")
      .all(target.flight_id, before.seats_free + 1) as Array<{ booking_id: string }>;
    for (const other of others.slice(0, before.seats_free - 1))
      await value("rebook_booking", { booking_id: other.booking_id, flight_id: target.flight_id });
    const last = others[before.seats_free - 1]!;
    expect(
      errorText(await call("rebook_booking", { booking_id: last.booking_id, flight_id: target.flight_id })),
    ).toContain("is full");
  });
});

describe("airline generator and rules", () => {
  it("is deterministic per seed and differs across seeds", () => {
    const contents = instanceContents(bench.instance);
    expect(instanceContents(bench.rebuild())).toEqual(contents);
    expect(instanceContents(bench.rebuild({ seed: 4 })).tables).not.toEqual(contents.tables);
  });

  it("plants cancelled flights whose rebooking leaves someone without a seat", () => {
    const fresh = new Database(bench.instance.dbPath, { readonly: true });
    try {
      const plan = expectedRebooking(fresh);
      expect(plan.moves.size).toBeGreaterThan(0);
      expect(plan.unplaced.length).toBeGreaterThan(0);
    } finally {
      fresh.close();
    }
  });

  it("reads the UMNR service from notes, not declined services or accompanied children", () => {
    expect(isUnaccompaniedMinor("UMNR age 9 - escort form on file")).toBe(true);
    expect(isUnaccompaniedMinor("Minor travelling alone - UMNR, age 13")).toBe(true);
    expect(isUnaccompaniedMinor("UM service declined - travelling with father")).toBe(false);
    expect(isUnaccompaniedMinor("Child (8) travelling with grandmother; no UM service")).toBe(false);
    expect(isUnaccompaniedMinor(null)).toBe(false);
  });

  it("plants a crew member whose rest before tomorrow's duty is below the minimum (from v1)", () => {
    for (const seed of [0, 7]) {
      const built = buildInstance(crewRosterCheckTask, "v1", seed, bench.dir);
      const state = openStateView(built.dbPath, built.workspaceDir);
      try {
        const failing = [...expectedFailures(state.view).values()];
        expect(failing.some((checks) => checks.includes("rest"))).toBe(true);
      } finally {
        state.close();
      }
    }
  });
});

describe("airline verifiers", () => {
  it("accept compensation answers written the way people write flight numbers and amounts", async () => {
    const built = buildInstance(delayCompensationTask, "v0", 3, bench.dir);
    const state = openStateView(built.dbPath, built.workspaceDir);
    try {
      const owed = expectedCompensation(state.view);
      expect(owed.byFlight.size).toBeGreaterThan(0);
      const flights = Object.fromEntries(
        [...owed.byFlight].map(([number, amount]) => [
          number.replace(" ", "").toLowerCase(),
          `$${amount}.00`,
        ]),
      );
      const answer = JSON.stringify({
        flights,
        passengers: String(owed.passengers),
        total_usd: `$${owed.total}`,
      });
      const checks = await delayCompensationTask.verify({
        initial: state.view,
        final: state.view,
        answer,
        scale: "v0",
        seed: 3,
      });
      expect(checks.filter((item) => !item.passed)).toEqual([]);
      const wrong = await delayCompensationTask.verify({
        initial: state.view,
        final: state.view,
        answer: JSON.stringify({ flights, passengers: owed.passengers + 1, total_usd: owed.total }),
        scale: "v0",
        seed: 3,
      });
      expect(wrong.find((item) => item.id === "passengers-owed")?.passed).toBe(false);
    } finally {
      state.close();
    }
  });
});
