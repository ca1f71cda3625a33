import type Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  openStateView,
  openToolBench,
  type Instance,
  type ToolBench,
  instanceContents,
} from "../../envs/index.js";
import type { ToolCallResult } from "../../runtime/index.js";
import { computeBalances } from "./billing.js";
import { clinicTasks } from "./index.js";
import { PLANS, patientShare } from "./rules.js";
import { expectedNoShowOutcome } from "./tasks/apply-no-show-policy.js";
import { readPortalMessage } from "./tasks/portal-cancellations.js";
import { roomConflicts } from "./tasks/room-double-bookings.js";
import { clinicTools } from "./tools.js";
import { readCoverage, readLeaveMemo, readRoster } from "./workspace-facts.js";

const task = clinicTasks[0]!;
let bench: ToolBench;
let instance: Instance;
let db: Database.Database;

beforeAll(() => {
  bench = openToolBench(task, clinicTools, { seed: 0 });
  ({ instance, db } = bench);
});

afterAll(() => bench.close());

const call = (name: string, args: Record<string, unknown>): Promise<ToolCallResult> => bench.call(name, args);

// Tool results are JSON documents; the tests read them loosely rather than restating every schema.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ToolJson = any;

const value = (name: string, args: Record<string, unknown>): Promise<ToolJson> => bench.value(name, args);

describe("clinic generator", () => {
  it("is deterministic for a seed and scale", () => {
    const contents = instanceContents(bench.instance);
    expect(instanceContents(bench.rebuild())).toEqual(contents);
  });

  it("writes documents the verifiers can read, consistent with the data", () => {
    const state = openStateView(instance.dbPath, instance.workspaceDir);
    const view = state.view;
    try {
      expect(instance.stats.fileCount).toBe(13);
      const roster = readRoster(view);
      expect(roster.size).toBe((db.prepare("SELECT COUNT(*) AS n FROM providers").get() as { n: number }).n);
      const leaves = readLeaveMemo(view);
      expect(leaves.filter((leave) => leave.approved).length).toBeGreaterThanOrEqual(2);
      expect(leaves.some((leave) => !leave.approved)).toBe(true);
      const coverage = readCoverage(view);
      for (const plan of PLANS) expect(Object.fromEntries(coverage.get(plan.code)!)).toEqual(plan.coverage);
      const outcome = expectedNoShowOutcome(view);
      expect(outcome.fees.size).toBeGreaterThan(0);
      expect(outcome.flagged.size).toBeGreaterThan(0);
      expect(roomConflicts(view, "2000-01-01")).toEqual([]);
    } finally {
      state.close();
    }
  });

  it("computes patient shares as the billing policy describes", () => {
    const blueShield = PLANS.find((plan) => plan.code === "BSC-PPO")!.coverage;
    const aetna = PLANS.find((plan) => plan.code === "AET-HMO")!.coverage;
    expect(patientShare({ category: "office_visit", amount: 145 }, blueShield)).toBe(25);
    expect(patientShare({ category: "procedure", amount: 210 }, blueShield)).toBe(42);
    expect(patientShare({ category: "procedure", amount: 245 }, aetna)).toBe(69.5);
    expect(patientShare({ category: "imaging", amount: 120 }, aetna)).toBe(120);
    expect(patientShare({ category: "lab", amount: 25 }, null)).toBe(17.5);
    expect(patientShare({ category: "admin_fee", amount: 35 }, null)).toBe(35);
    const balances = computeBalances(db, (code) => PLANS.find((plan) => plan.code === code)!.coverage);
    expect(balances.size).toBe(60);
  });
});

describe("clinic tools", () => {
  it("paginates list tools with a stable envelope and caps per_page", async () => {
    const first = await value("list_appointments", { status: "completed", per_page: 50 });
    expect(first.appointments).toHaveLength(50);
    expect(first).toMatchObject({ page: 1, per_page: 50, has_more: true });
    const last = await value("list_appointments", {
      status: "completed",
      per_page: 50,
      page: Math.ceil(first.total / 50),
    });
    expect(last.has_more).toBe(false);
    expect(first.appointments[0].start_time <= first.appointments[49].start_time).toBe(true);
    const tooMany = await call("list_appointments", { per_page: 51 });
    expect(tooMany.isError).toBe(true);
    const unknown = await call("list_appointments", { provider: 1 });
    expect(unknown.content[0]?.text).toContain("unexpected field");
  });

  it("filters appointments by date range and room", async () => {
    const rooms = await value("list_rooms", {});
    const room = rooms.rooms[0];
    const page = await value("list_appointments", {
      room_id: room.id,
      date_from: "2025-06-30",
      date_to: "2025-07-04",
    });
    for (const appointment of page.appointments) {
      expect(appointment.room_id).toBe(room.id);
      expect(appointment.start_time.slice(0, 10) >= "2025-06-30").toBe(true);
      expect(appointment.start_time.slice(0, 10) <= "2025-07-04").toBe(true);
    }
  });

  it("reassigns only scheduled appointments and reports missing records", async () => {
    const scheduled = (await value("list_appointments", { status: "scheduled", per_page: 1 }))
      .appointments[0];
    const other = (await value("list_providers", { per_page: 50 })).providers.find(
      (provider: { id: number }) => provider.id !== scheduled.provider_id,
    );
    const moved = await value("reassign_appointment", {
      appointment_id: scheduled.id,
      provider_id: other.id,
    });
    expect(moved.appointment.provider_id).toBe(other.id);
    const completed = (await value("list_appointments", { status: "completed", per_page: 1 }))
      .appointments[0];
    const refused = await call("reassign_appointment", {
      appointment_id: completed.id,
      provider_id: other.id,
    });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]?.text).toContain("only scheduled appointments");
    const missing = await call("get_appointment", { appointment_id: 999_999 });
    expect(missing.content[0]?.text).toContain("not found");
  });

  it("posts administrative fees as patient-only charges on the appointment's patient", async () => {
    const noShow = (await value("list_appointments", { status: "no_show", per_page: 1 })).appointments[0];
    const posted = await value("post_charge", {
      appointment_id: noShow.id,
      code: "NOSHOW",
      category: "admin_fee",
      amount: 35,
      description: "Missed appointment fee",
    });
    expect(posted.charge).toMatchObject({
      appointment_id: noShow.id,
      patient_id: noShow.patient_id,
      amount: 35,
      claim_status: "patient_only",
      service_date: noShow.start_time.slice(0, 10),
    });
    const listed = await value("list_charges", { appointment_id: noShow.id, code: "NOSHOW" });
    expect(listed.total).toBeGreaterThanOrEqual(1);
  });

  it("updates a patient's scheduling status with its reason", async () => {
    const updated = await value("update_patient_scheduling_status", {
      patient_id: 1,
      scheduling_status: "prepay_required",
      reason: "test",
    });
    expect(updated.patient).toMatchObject({
      id: 1,
      scheduling_status: "prepay_required",
      status_reason: "test",
    });
    const flagged = await value("list_patients", { scheduling_status: "prepay_required", per_page: 50 });
    expect(flagged.patients.map((patient: { id: number }) => patient.id)).toContain(1);
    const selfPay = await value("list_patients", { self_pay: true, per_page: 50 });
    for (const patient of selfPay.patients) expect(patient.insurance_plan_id).toBeNull();
  });

  it("answers eligibility per date of service, failing the first check of some patients with a 503", async () => {
    const insured = db
      .prepare(
        "SELECT patient_id FROM insurance_eligibility WHERE patient_id % 4 = 1 ORDER BY patient_id LIMIT 1",
      )
      .get() as { patient_id: number };
    const first = await call("check_eligibility", {
      patient_id: insured.patient_id,
      service_date: "2025-07-01",
    });
    expect(first.isError).toBe(true);
    expect(first.content[0]?.text).toContain("503");
    const retried = await value("check_eligibility", {
      patient_id: insured.patient_id,
      service_date: "2025-07-01",
    });
    expect(retried.eligibility).toMatchObject({
      patient_id: insured.patient_id,
      active: true,
      coverage_end: null,
    });
    db.prepare("UPDATE insurance_eligibility SET coverage_end = '2025-07-01' WHERE patient_id = ?").run(
      insured.patient_id,
    );
    const lastDay = await value("check_eligibility", {
      patient_id: insured.patient_id,
      service_date: "2025-07-01",
    });
    expect(lastDay.eligibility.active).toBe(true);
    // Another date of service is another call: it fails once too.
    expect(
      (await call("check_eligibility", { patient_id: insured.patient_id, service_date: "2025-07-02" }))
        .isError,
    ).toBe(true);
    const after = await value("check_eligibility", {
      patient_id: insured.patient_id,
      service_date: "2025-07-02",
    });
    expect(after.eligibility.active).toBe(false);
    const selfPay = db
      .prepare("SELECT id FROM patients WHERE insurance_plan_id IS NULL AND id % 4 != 1 LIMIT 1")
      .get() as { id: number };
    const refused = await call("check_eligibility", { patient_id: selfPay.id, service_date: "2025-07-01" });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]?.text).toContain("self-pay");
  });
});

describe("clinic portal messages", () => {
  it("read the sender, the request and the date the patient names", () => {
    const move = readPortalMessage(
      "From: Ana Diaz <ana@example.org>\nSent: 2025-06-30\nSubject: x\n\nHello,\n\nI don't want to cancel, but could we move my appointment on Thursday, July 3 to later that week?\n",
      2025,
    );
    expect(move).toEqual({ email: "ana@example.org", intent: "move", date: "2025-07-03" });
    const cancel = readPortalMessage(
      "From: Ana Diaz <Ana@Example.org>\nSent: 2025-06-30\nSubject: x\n\nHello,\n\nPlease cancel my appointment on July 11th at 2:40 pm.\n",
      2025,
    );
    expect(cancel).toEqual({ email: "ana@example.org", intent: "cancel", date: "2025-07-11" });
  });
});
