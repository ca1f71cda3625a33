import type Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStateView, openToolBench, instanceContents } from "../../envs/index.js";
import type { Instance, ToolBench } from "../../envs/index.js";
import type { ToolCallResult } from "../../runtime/index.js";
import { qualityTasks } from "./index.js";
import { prescribedDisposition, requiredSamples, supplierRating } from "./rules.js";
import { expectedTrace } from "./tasks/complaint-trace.js";
import { lotsToHold } from "./tasks/hold-out-of-tolerance.js";
import { uncalibratedMeasurements } from "./tasks/invalidate-uncalibrated.js";
import { qualityTools } from "./tools.js";

// The complaint task's prepare only rewrites routine emails, so its database is the domain's own.
const task = qualityTasks.find((item) => item.id === "quality.complaint-trace")!;
let bench: ToolBench;
let instance: Instance;
let db: Database.Database;

beforeAll(() => {
  bench = openToolBench(task, qualityTools, { seed: 0 });
  ({ instance, db } = bench);
});

afterAll(() => bench.close());

const call = (name: string, args: Record<string, unknown>): Promise<ToolCallResult> => bench.call(name, args);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ToolJson = any;

const value = (name: string, args: Record<string, unknown>): Promise<ToolJson> => bench.value(name, args);

describe("quality generator", () => {
  it("is deterministic for a seed and scale", () => {
    const contents = instanceContents(bench.instance);
    expect(instanceContents(bench.rebuild())).toEqual(contents);
  });

  it("starts consistent: every gauge in calibration, no open lot out of tolerance, complaints traceable", () => {
    const state = openStateView(instance.dbPath, instance.workspaceDir);
    try {
      expect(instance.stats.fileCount).toBe(13);
      expect(uncalibratedMeasurements(state.view)).toEqual([]);
      expect(lotsToHold(state.view.db)).toEqual([]);
      const trace = expectedTrace(state.view);
      expect(trace.suppliers.length).toBeGreaterThan(0);
      expect(trace.suspect_lots.length).toBeGreaterThanOrEqual(trace.material_lots.length);
    } finally {
      state.close();
    }
  });
});

describe("quality rules", () => {
  it("reads the sampling plan's ranges with both ends included", () => {
    expect(requiredSamples(50)).toBe(3);
    expect(requiredSamples(51)).toBe(5);
    expect(requiredSamples(500)).toBe(8);
    expect(requiredSamples(501)).toBe(13);
    expect(() => requiredSamples(1)).toThrow(/outside the sampling plan/);
  });

  it("dispositions NCRs by the manual's first matching rule", () => {
    const bore = { feature: "internal", lower_limit: 10, upper_limit: 10.02, critical: 0 };
    const shaft = { feature: "external", lower_limit: 20, upper_limit: 20.02, critical: 0 };
    expect(prescribedDisposition("HRD", undefined, null)).toBe("return_to_supplier");
    expect(prescribedDisposition("COS", undefined, null)).toBe("rework");
    expect(prescribedDisposition("DIM", { ...shaft, critical: 1 }, 20.021)).toBe("scrap");
    expect(prescribedDisposition("DIM", shaft, 20.022)).toBe("use_as_is");
    expect(prescribedDisposition("DIM", shaft, 20.03)).toBe("rework");
    expect(prescribedDisposition("DIM", shaft, 19.99)).toBe("scrap");
    expect(prescribedDisposition("DIM", bore, 9.99)).toBe("rework");
    expect(prescribedDisposition("DIM", bore, 10.03)).toBe("scrap");
    expect([0, 1, 2, 3].map(supplierRating)).toEqual(["A", "B", "B", "C"]);
  });
});

describe("quality tools", () => {
  it("paginates listings with the kit's envelope", async () => {
    const first = await value("list_measurements", { per_page: 50 });
    expect(first.measurements).toHaveLength(50);
    expect(first).toMatchObject({ page: 1, per_page: 50, has_more: true });
    expect(typeof first.measurements[0].valid).toBe("boolean");
    const tooMany = await call("list_lots", { per_page: 51 });
    expect(tooMany.isError).toBe(true);
  });

  it("fails get_lot transiently on some lots, then answers the same call", async () => {
    const failing = await call("get_lot", { lot_id: "LOT-00003" });
    expect(failing.isError).toBe(true);
    expect(failing.content[0]?.text).toMatch(/503 Service Unavailable/);
    const retried = await value("get_lot", { lot_id: "LOT-00003" });
    expect(retried.lot.lot_id).toBe("LOT-00003");
    expect((await value("get_lot", { lot_id: "LOT-00001" })).lot.lot_id).toBe("LOT-00001");
  });

  it("returns get_material_lot's first failure as a body without isError", async () => {
    const first = await call("get_material_lot", { material_lot_id: "ML-0002" });
    expect(first.isError).toBeFalsy();
    expect(first.structuredContent).toMatchObject({ status: "error" });
    const second = await value("get_material_lot", { material_lot_id: "ML-0002" });
    expect(second.supplier.supplier_id).toMatch(/^SUP-\d{3}$/);
  });

  it("teaches id formats and refuses to hold a shipped lot", async () => {
    const malformed = await call("get_ncr", { ncr_id: "42" });
    expect(malformed.content[0]?.text).toMatch(/ncr_id must look like NCR-0123/);
    const missing = await call("get_ncr", { ncr_id: "NCR-9999" });
    expect(missing.content[0]?.text).toMatch(/NCR NCR-9999 not found; use list_ncrs/);
    const shipped = (
      db.prepare("SELECT lot_id FROM production_lots WHERE status = 'shipped' LIMIT 1").get() as {
        lot_id: string;
      }
    ).lot_id;
    const refused = await call("place_lot_on_hold", { lot_id: shipped, reason: "test hold" });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]?.text).toMatch(/has shipped/);
  });
});
