import Database from "better-sqlite3";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTempDir, type TempDir } from "../../core/index.js";
import { buildInstance, listWorkspaceFiles, openStateView } from "../../envs/index.js";
import type { Instance, StateView } from "../../envs/index.js";
import { bindTool } from "../../runtime/index.js";
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

let cache: TempDir;
const instances = new Map<number, { instance: Instance; view: StateView; close(): void }>();
let db: Database.Database;
const opened: Database.Database[] = [];

function state(seed: number): { instance: Instance; view: StateView } {
  if (!instances.has(seed)) {
    const instance = buildInstance(holdOverdosesTask, "v0", seed, cache.path);
    instances.set(seed, { instance, ...openStateView(instance.dbPath, instance.workspaceDir) });
  }
  return instances.get(seed)!;
}

/** A fresh episode database for seed 3 (tools write to a private copy, as an episode does). */
function episode(name: string): string {
  const path = join(cache.path, `${name}.sqlite`);
  copyFileSync(state(3).instance.dbPath, path);
  db = new Database(path);
  opened.push(db);
  return path;
}

beforeAll(() => {
  cache = createTempDir("vet-test");
  episode("tools");
});

afterAll(() => {
  for (const handle of opened) handle.close();
  for (const entry of instances.values()) entry.close();
  cache.dispose();
});

async function call(name: string, args: Record<string, unknown>): Promise<{ error: boolean; text: string }> {
  const tool = vetTools.find((candidate) => candidate.name === name)!;
  const result = await bindTool(tool, { db, workspaceDir: state(3).instance.workspaceDir }).call(args, {
    signal: AbortSignal.timeout(5_000),
    timeoutMs: 5_000,
  });
  return {
    error: result.isError === true,
    text: result.content.map((part) => ("text" in part ? part.text : "")).join(""),
  };
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
    const completed = db
      .prepare("SELECT rx_id FROM prescriptions WHERE status = 'completed'")
      .pluck()
      .get() as string;
    expect((await call("hold_prescription", { rx_id: completed, reason: "check" })).text).toContain(
      "only active prescriptions",
    );
    const gone = db
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
    const path = episode("holds");
    for (const rx of expected)
      expect((await call("hold_prescription", { rx_id: rx.rx_id, reason: "over limit" })).error).toBe(false);
    const final = openStateView(path, state(3).instance.workspaceDir);
    try {
      const passes = async (answer: string): Promise<boolean> => {
        const context = { initial: state(3).view, final: final.view, answer, scale: "v0", seed: 3 };
        return (await holdOverdosesTask.verify(context)).every((item) => item.passed);
      };
      expect(await passes(`${expected.length}`)).toBe(true);
      expect(await passes(`${expected.length + 1}`)).toBe(false);
      const extra = db
        .prepare("SELECT rx_id FROM prescriptions WHERE status = 'active'")
        .pluck()
        .get() as string;
      await call("hold_prescription", { rx_id: extra, reason: "not needed" });
      expect(await passes(`${expected.length}`)).toBe(false);
    } finally {
      final.close();
    }
  });
});
