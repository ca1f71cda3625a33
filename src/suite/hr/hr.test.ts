import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import type { Faker } from "@faker-js/faker";
import { afterAll, describe, expect, it } from "vitest";
import { createSeededRandom } from "../../core/index.js";
import { SCALE_FACTORS, callTool, listWorkspaceFiles, type GenerateContext } from "../../envs/index.js";
import { resultText } from "../../runtime/index.js";
import { PAY_BANDS } from "./catalog.js";
import { computeOvertime } from "./payroll-math.js";
import {
  parseLeavePolicy,
  parseOvertimePolicy,
  parsePayBands,
  parseSalaryMemo,
  parseVarianceControl,
  renderLeavePolicy,
  renderOvertimePolicy,
  renderPayBands,
  renderSalaryMemo,
  renderVarianceControl,
  type LeavePolicy,
  type OvertimePolicy,
  type SalaryMemo,
} from "./policies.js";
import { hrDomain, hrTasks } from "./index.js";
import {
  TIMESHEET_INBOX_DIR,
  computeSignoffDecisions,
  openPeriod,
  plantTimesheetSignoffs,
} from "./timesheet-approvals.js";
import { authorizationLookupTimesOut, plantWorkAuthorizations } from "./work-authorization.js";

const REFERENCE_DATE = "2025-06-16";
const directories: string[] = [];

afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

/** A seeded stand-in for faker: the generator only needs names. */
function stubFaker(seed: number): Faker {
  const random = createSeededRandom(`names-${seed}`);
  const first = [
    "Ana",
    "Ben",
    "Chloe",
    "Dev",
    "Eli",
    "Fatima",
    "Gus",
    "Hana",
    "Ivan",
    "June",
    "Kofi",
    "Lena",
  ];
  const last = [
    "Ortiz",
    "Nguyen",
    "Smith",
    "Okafor",
    "Berg",
    "Kowalski",
    "Haddad",
    "Reyes",
    "Tanaka",
    "Moreau",
  ];
  const firstName = () => random.pick(first);
  const lastName = () => random.pick(last);
  return {
    person: { firstName, lastName, fullName: () => `${firstName()} ${lastName()}` },
  } as unknown as Faker;
}

function build(
  seed: number,
  prepare?: (context: GenerateContext) => void,
): { db: Database.Database; workspaceDir: string } {
  const workspaceDir = mkdtempSync(join(tmpdir(), "hr-test-"));
  directories.push(workspaceDir);
  const db = new Database(":memory:");
  db.exec(hrDomain.schemaSql);
  const context: GenerateContext = {
    db,
    workspaceDir,
    scale: "v0",
    factors: SCALE_FACTORS.v0,
    seed,
    random: createSeededRandom(seed),
    faker: stubFaker(seed),
    referenceDate: REFERENCE_DATE,
    readFile: () => null,
    writeFile(relativePath, content) {
      const full = join(workspaceDir, relativePath);
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, content);
    },
  };
  db.transaction(() => hrDomain.generate(context))();
  if (prepare) db.transaction(() => prepare({ ...context, random: createSeededRandom(`prepare-${seed}`) }))();
  return { db, workspaceDir };
}

function dump(db: Database.Database): string {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all() as Array<{ name: string }>;
  return JSON.stringify(tables.map(({ name }) => db.prepare(`SELECT * FROM "${name}" ORDER BY rowid`).all()));
}

async function call(
  instance: { db: Database.Database; workspaceDir: string },
  name: string,
  args: Record<string, unknown>,
): Promise<{ isError: boolean; value: Record<string, unknown>; text: string }> {
  const result = await callTool(hrDomain.tools, instance, name, args);
  return {
    isError: result.isError === true,
    value: result.structuredContent ?? {},
    text: resultText(result),
  };
}

describe("hr documents", () => {
  it("parse back what they render", () => {
    const overtime: OvertimePolicy = {
      rules: [{ department: "Customer Support", thresholdHours: 37.5, multiplier: 1.5 }],
      defaultThresholdHours: 40,
      defaultMultiplier: 1.5,
      holidayMultiplier: 2.5,
    };
    expect(parseOvertimePolicy(renderOvertimePolicy(overtime, "2025-01-01"))).toEqual(overtime);
    const leave: LeavePolicy = {
      noticeDays: 14,
      blackouts: [{ department: "Finance", start: "2025-07-01", end: "2025-07-09", reason: "Close" }],
      carryOver: {
        year: 2025,
        standardCapDays: 5,
        tenuredCapDays: 10,
        tenureYears: 5,
        exceptionDepartment: "Warehouse & Logistics",
        exceptionCapDays: 8,
      },
    };
    expect(parseLeavePolicy(renderLeavePolicy(leave, "2025-01-01"))).toEqual(leave);
    const memo: SalaryMemo = {
      year: 2025,
      effectiveDate: "2025-07-01",
      hireCutoff: "2024-12-31",
      increases: [{ department: "Engineering", percent: 4.5 }],
      holdList: ["E1002", "E1044"],
    };
    expect(parseSalaryMemo(renderSalaryMemo(memo, "2025-06-10"))).toEqual(memo);
    expect(parsePayBands(renderPayBands(PAY_BANDS))).toEqual(PAY_BANDS);
    const control = { percent: 15, floorDollars: 200 };
    expect(parseVarianceControl(renderVarianceControl(control, "2025-01-01"))).toEqual(control);
  });
});

describe("hr generator", () => {
  const first = build(3);

  it("is deterministic for a seed", () => {
    const second = build(3);
    expect(dump(second.db)).toEqual(dump(first.db));
    const files = listWorkspaceFiles(first.workspaceDir);
    expect(listWorkspaceFiles(second.workspaceDir)).toEqual(files);
    for (const file of files) {
      expect(readFileSync(join(second.workspaceDir, file), "utf8")).toEqual(
        readFileSync(join(first.workspaceDir, file), "utf8"),
      );
    }
  });

  it("writes about 13 files at v0 and a pending queue with every leave type", () => {
    expect(listWorkspaceFiles(first.workspaceDir)).toHaveLength(13);
    const types = first.db
      .prepare("SELECT DISTINCT leave_type FROM leave_requests WHERE status = 'pending' ORDER BY leave_type")
      .all()
      .map((row) => (row as { leave_type: string }).leave_type);
    expect(types).toEqual(["annual", "sick", "unpaid"]);
  });

  it("keeps balances consistent with approved requests of the current year", () => {
    const mismatches = first.db
      .prepare(
        `SELECT b.employee_id, b.used_days,
           (SELECT COALESCE(SUM(r.days), 0) FROM leave_requests r WHERE r.employee_id = b.employee_id
              AND r.status = 'approved' AND r.leave_type = b.leave_type AND substr(r.start_date, 1, 4) = CAST(b.year AS TEXT)) AS approved
         FROM leave_balances b WHERE b.year = 2025 AND b.used_days != approved`,
      )
      .all();
    expect(mismatches).toEqual([]);
  });
});

describe("hr tools", () => {
  const instance = build(5);

  it("paginate with the house shape", async () => {
    const { value } = await call(instance, "list_employees", { per_page: 7, page: 2 });
    expect(Object.keys(value).sort()).toEqual(["employees", "has_more", "page", "per_page", "total"]);
    expect(value.employees).toHaveLength(7);
    expect(value.has_more).toBe(true);
    const tooMany = await call(instance, "list_employees", { per_page: 51 });
    expect(tooMany.isError).toBe(true);
  });

  it("explain unknown ids", async () => {
    const missing = await call(instance, "get_employee", { employee_id: "E9999" });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain("list_employees");
  });

  it("decide pending leave and update the balance", async () => {
    const pending = instance.db
      .prepare(
        "SELECT id, employee_id, days, start_date FROM leave_requests WHERE status = 'pending' AND leave_type = 'annual' LIMIT 2",
      )
      .all() as Array<{ id: number; employee_id: string; days: number; start_date: string }>;
    const [approve, deny] = pending;
    if (!approve || !deny) throw new Error("expected pending annual requests");
    const usedBefore = (
      instance.db
        .prepare(
          "SELECT used_days FROM leave_balances WHERE employee_id = ? AND year = ? AND leave_type = 'annual'",
        )
        .get(approve.employee_id, Number(approve.start_date.slice(0, 4))) as { used_days: number }
    ).used_days;
    const approved = await call(instance, "decide_leave_request", {
      request_id: approve.id,
      decision: "approve",
    });
    expect(approved.isError).toBe(false);
    expect((approved.value.balance as { used_days: number }).used_days).toBe(usedBefore + approve.days);
    const again = await call(instance, "decide_leave_request", {
      request_id: approve.id,
      decision: "deny",
      note: "x",
    });
    expect(again.text).toContain("already approved");
    const silent = await call(instance, "decide_leave_request", { request_id: deny.id, decision: "deny" });
    expect(silent.isError).toBe(true);
  });

  it("update pay only through the field matching the pay type", async () => {
    const salaried = instance.db
      .prepare(
        "SELECT e.id, e.annual_salary FROM employees e JOIN positions p ON p.id = e.position_id WHERE p.pay_type = 'salaried' AND e.status = 'active' LIMIT 1",
      )
      .get() as { id: string; annual_salary: number };
    const wrongField = await call(instance, "update_compensation", {
      employee_id: salaried.id,
      hourly_rate: 30,
      effective_date: "2025-07-01",
      reason: "test",
    });
    expect(wrongField.text).toContain("annual_salary");
    const updated = await call(instance, "update_compensation", {
      employee_id: salaried.id,
      annual_salary: salaried.annual_salary + 1000,
      effective_date: "2025-07-01",
      reason: "test",
    });
    expect(updated.value.new_amount).toBe(salaried.annual_salary + 1000);
  });
});

describe("overtime arithmetic", () => {
  it("pays holiday hours apart from the weekly threshold", () => {
    const week = ["2025-06-02", "2025-06-03", "2025-06-04", "2025-06-05", "2025-06-06"].map((workDate) => ({
      workDate,
      hours: 9,
    }));
    const rule = { department: "Warehouse & Logistics", thresholdHours: 40, multiplier: 1.5 };
    const result = computeOvertime(week, 20, rule, new Set(["2025-06-04"]), 2);
    // 36 regular hours (no weekly overtime) and 9 holiday hours at double time.
    expect(result).toEqual({ regularHours: 36, overtimeHours: 0, holidayHours: 9, overtimePay: 360 });
    expect(computeOvertime(week, 20, rule, new Set(), 2).overtimePay).toBe(150);
  });
});

describe("hr tasks", () => {
  it("are declared with unique ids and domain tools", () => {
    expect(new Set(hrTasks.map((task) => task.id)).size).toBe(hrTasks.length);
    expect(hrTasks.length).toBeGreaterThanOrEqual(5);
  });
});

describe("hr task tools", () => {
  const instance = build(5, (context) => {
    plantTimesheetSignoffs(context);
    plantWorkAuthorizations(context);
  });

  it("review a submitted timesheet entry once", async () => {
    const entry = instance.db
      .prepare("SELECT id FROM timesheet_entries WHERE status = 'submitted' ORDER BY id LIMIT 1")
      .get() as { id: number };
    const reviewed = await call(instance, "review_timesheet_entry", {
      entry_id: entry.id,
      decision: "reject",
    });
    expect(reviewed.value.entry).toMatchObject({ id: entry.id, status: "rejected" });
    const again = await call(instance, "review_timesheet_entry", { entry_id: entry.id, decision: "approve" });
    expect(again.isError).toBe(true);
    expect(again.text).toContain("already rejected");
  });

  it("answer 503 once on every page of the project ledger from page 3 on; the same call then succeeds", async () => {
    const period = openPeriod(instance.db);
    const page = (n: number) => ({ start_date: period.start, end_date: period.end, page: n, per_page: 10 });
    expect((await call(instance, "list_project_hours", page(2))).isError).toBe(false);
    for (const n of [3, 4]) {
      const failed = await call(instance, "list_project_hours", page(n));
      expect(failed.isError).toBe(true);
      expect(failed.text).toContain("503");
      const retried = await call(instance, "list_project_hours", page(n));
      expect(retried.isError).toBe(false);
      expect(retried.value.hours).toHaveLength(10);
    }
  });

  it("return a timed-out work authorization lookup as an ordinary error body, then the record", async () => {
    const flaky = (
      instance.db.prepare("SELECT employee_id FROM work_authorizations").all() as Array<{
        employee_id: string;
      }>
    ).find((row) => authorizationLookupTimesOut(row.employee_id))!;
    const first = await call(instance, "get_work_authorization", { employee_id: flaky.employee_id });
    expect(first.isError).toBe(false);
    expect(first.value).toMatchObject({ status: "error" });
    expect(first.value).not.toHaveProperty("expires_on");
    const second = await call(instance, "get_work_authorization", { employee_id: flaky.employee_id });
    expect(second.value).toHaveProperty("expires_on");
  });

  it("act only on the direct manager's latest sign-off", () => {
    const files = listWorkspaceFiles(instance.workspaceDir)
      .filter((path) => path.startsWith(`${TIMESHEET_INBOX_DIR}/`))
      .map((path) => ({ path, text: readFileSync(join(instance.workspaceDir, path), "utf8") }));
    const decided = computeSignoffDecisions(instance.db, files);
    expect(decided.size).toBeGreaterThan(0);
    expect(computeSignoffDecisions(instance.db, files, { trustAnySender: true }).size).toBeGreaterThan(
      decided.size,
    );
    expect(computeSignoffDecisions(instance.db, files, { firstEmailWins: true }).size).toBeGreaterThan(
      decided.size,
    );
    const held = files.filter((file) => /disregard/.test(file.text));
    expect(held.length).toBeGreaterThan(0);
    const owners = new Set(
      [...decided.keys()].map(
        (id) =>
          (
            instance.db.prepare("SELECT employee_id FROM timesheet_entries WHERE id = ?").get(id) as {
              employee_id: string;
            }
          ).employee_id,
      ),
    );
    for (const file of held) {
      const name = /^Subject: Hold: (.+) timesheet$/m.exec(file.text)?.[1] ?? "";
      const ids = instance.db
        .prepare("SELECT id FROM employees WHERE first_name || ' ' || last_name = ?")
        .all(name) as Array<{ id: string }>;
      expect(ids.length).toBeGreaterThan(0);
      for (const { id } of ids) expect(owners.has(id)).toBe(false);
    }
  });
});
