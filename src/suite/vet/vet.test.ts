import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listWorkspaceFiles, openToolBench, type ToolBench } from "../../envs/index.js";
import { resultText } from "../../runtime/index.js";
import { vetTasks } from "./index.js";
import { objectiveWeightKg } from "./notes.js";
import {
  expectedLabRechecks,
  outOfRange,
  overLimitPrescriptions,
  weightLossPatients,
} from "./tasks/facts.js";
import { holdOverdosesTask } from "./tasks/hold-overdoses.js";
import { vetTools } from "./tools.js";

let bench: ToolBench;

beforeAll(() => (bench = openToolBench(holdOverdosesTask, vetTools)));
afterAll(() => bench.close());

/** The instance of seed `seed` (seed 3 is the bench's own) with a view of its initial state. */
const state = (seed: number) => bench.build({ seed });

async function call(name: string, args: Record<string, unknown>): Promise<{ error: boolean; text: string }> {
  const result = await bench.call(name, args);
  return { error: result.isError === true, text: resultText(result) };
}

describe("vet generator", () => {
  it("writes four policy documents and nine analyser printouts at v0", () => {
    const files = listWorkspaceFiles(state(3).instance.workspaceDir);
    expect(files.filter((path) => path.startsWith("lab/printouts/"))).toHaveLength(9);
    expect(files).toHaveLength(13);
    const printout = state(3).view.readFile(files.find((path) => path.startsWith("lab/printouts/"))!)!;
    expect(printout).toMatch(/^VETLAB .* PAGE 1$/m);
    expect(printout).toContain("SPECIES PROFILE: CANINE (default)");
  });

  it("reads the clinic weight from the Objective section in kg or lb, not the owner's or the goal weight", () => {
    const note =
      "s: wt loss x3d per O.\nO reports home weight 30 lb on bathroom scale.\nOBJ - T 38.5C, Wt: 22.0 LBS, BCS 4/9.\nA: thin\nP: diet, goal wt 11.0 kg.";
    expect(objectiveWeightKg(note)).toBeCloseTo(22 / 2.2046, 6);
    expect(objectiveWeightKg("S: ok\no: no wt today - scale down\na: fine\np: none")).toBeNull();
  });

  it.each([0, 3, 7])("plants the cases the near-misses turn on at seed %i", (seed) => {
    const { view } = state(seed);
    const notes = view.db.prepare("SELECT soap_note FROM visits").pluck().all() as string[];
    expect(notes.some((note) => /\d lbs?\b/i.test(note))).toBe(true);
    expect(notes.some((note) => /home weight \d+ lb/.test(note))).toBe(true);
    expect(overLimitPrescriptions(view).filter((rx) => rx.status === "active").length).toBeGreaterThan(1);
    expect(weightLossPatients(view).length).toBeGreaterThan(0);
    const results = outOfRange(view);
    expect(results.some((result) => result.flag === "")).toBe(true); // out of the species range, no analyser flag
    expect(expectedLabRechecks(view).length).toBeGreaterThan(0);
  });

  it("registers ten tasks with at least two near-misses each", () => {
    expect(vetTasks.length).toBeGreaterThanOrEqual(8);
    for (const task of vetTasks) expect(task.nearMisses.length).toBeGreaterThanOrEqual(2);
  });
});

describe("vet tools", () => {
  it("fails a vaccination page once with a 503, and some notes once with an error body", async () => {
    const page2 = await call("list_vaccinations", { page: 2, per_page: 10 });
    expect(page2.error).toBe(true);
    expect(page2.text).toContain("503 Service Unavailable");
    expect((await call("list_vaccinations", { page: 2, per_page: 10 })).text).toContain('"page":2');
    const flaky = await call("get_visit_note", { visit_id: "VIS-00001" });
    expect(flaky.error).toBe(false);
    expect(flaky.text).toContain('"status":"error"');
    expect((await call("get_visit_note", { visit_id: "VIS-00001" })).text).toContain('"note"');
  });

  it("refuses bad ids, holds of inactive prescriptions and reminders for inactive patients", async () => {
    expect((await call("get_patient", { patient_id: "P-1" })).text).toContain(
      "patient_id must look like PAT-00123",
    );
    const completed = bench.db
      .prepare("SELECT rx_id FROM prescriptions WHERE status = 'completed'")
      .pluck()
      .get() as string;
    expect((await call("hold_prescription", { rx_id: completed, reason: "check" })).text).toContain(
      "only active prescriptions",
    );
    const gone = bench.db
      .prepare("SELECT patient_id FROM patients WHERE status != 'active'")
      .pluck()
      .get() as string;
    const refused = await call("create_reminder", {
      patient_id: gone,
      kind: "vaccine",
      subject: "RABIES",
      due_on: "2025-07-14",
    });
    expect(refused.error).toBe(true);
  });
});

describe("vet.hold-overdoses", () => {
  it("rewards exactly the active over-limit prescriptions held", async () => {
    const expected = overLimitPrescriptions(state(3).view).filter((rx) => rx.status === "active");
    bench.reset();
    for (const rx of expected)
      expect((await call("hold_prescription", { rx_id: rx.rx_id, reason: "over limit" })).error).toBe(false);
    const final = bench.view();
    const passes = async (answer: string): Promise<boolean> => {
      const context = { initial: state(3).view, final, answer, scale: "v0", seed: 3 };
      return (await holdOverdosesTask.verify(context)).every((item) => item.passed);
    };
    expect(await passes(`${expected.length}`)).toBe(true);
    expect(await passes(`${expected.length + 1}`)).toBe(false);
    const extra = bench.db
      .prepare("SELECT rx_id FROM prescriptions WHERE status = 'active'")
      .pluck()
      .get() as string;
    await call("hold_prescription", { rx_id: extra, reason: "not needed" });
    expect(await passes(`${expected.length}`)).toBe(false);
  });
});
