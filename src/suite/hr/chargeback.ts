/**
 * Finance's project chargeback: the memo a task plants (period, rate card by pay grade, overhead codes,
 * contractor rule) and the amount each project is charged for the hours logged to it.
 */
import type Database from "better-sqlite3";
import { addDays, allRows, getRow, longDate, type GenerateContext } from "../../envs/index.js";
import { COMPANY_NAME } from "./catalog.js";
import { roundCents } from "./payroll-math.js";

export const CHARGEBACK_MEMO_PATH = "finance/project-chargeback-memo.md";

export interface ChargebackRules {
  start: string;
  end: string;
  rates: Map<string, number>;
  overheadCodes: string[];
}

export interface ChargebackOptions {
  anyStatus?: boolean;
  gradeRateForContractors?: boolean;
  chargeOverhead?: boolean;
}

function renderMemo(rules: ChargebackRules, controller: string, issued: string): string {
  const rows = [...rules.rates]
    .sort(([left], [right]) => left.localeCompare(right, "en", { numeric: true }))
    .map(([grade, rate]) => `| ${grade} | ${rate.toFixed(2)} |`);
  return `# Project chargeback: pay period ${rules.start} to ${rules.end}

From: ${controller}, Finance
To: People Operations
Date: ${longDate(issued)}

${COMPANY_NAME} charges the cost of staff time to the projects it is logged against. Please send the
chargeback for the pay period **${rules.start} to ${rules.end}** (work dates, both included), computed
from the project time ledger.

## Rate card (per hour, by the pay grade of the employee's position)

| Grade | Rate (USD/h) |
|-------|--------------|
${rows.join("\n")}

## Conventions

- Charge **approved** hours only. Entries that were rejected, or are still waiting for approval, are
  not charged.
- Agency contractors are not charged at the rate card: charge their hours at their own contract
  hourly rate, as recorded in their HR record.
- Overhead codes are absorbed centrally and never charged to a project: ${rules.overheadCodes.map((code) => `\`${code}\``).join(" and ")}.
- Round each project's total to cents. Every project code with charged hours appears in the report.
`;
}

export function parseChargebackMemo(text: string): ChargebackRules {
  const period = /pay period \*\*(\d{4}-\d{2}-\d{2}) to (\d{4}-\d{2}-\d{2})\*\*/.exec(text);
  if (!period) throw new Error("chargeback memo states no pay period");
  const rates = new Map<string, number>();
  for (const match of text.matchAll(/^\| (G\d+) \| ([\d.]+) \|$/gm))
    rates.set(match[1] as string, Number(match[2]));
  const overhead = /never charged to a project: (.+)\.$/m.exec(text)?.[1] ?? "";
  return {
    start: period[1] as string,
    end: period[2] as string,
    rates,
    overheadCodes: [...overhead.matchAll(/`([^`]+)`/g)].map((match) => match[1] as string),
  };
}

/** Plants the memo for the last closed pay period, with two overhead codes that carry hours in it. */
export function plantChargebackMemo(context: GenerateContext): void {
  const { db, random } = context;
  const period = getRow<{ period_start: string; period_end: string }>(
    db,
    "SELECT period_start, period_end FROM payroll_runs WHERE status <> 'draft' ORDER BY period_end DESC",
  )!;
  const grades = allRows<{ grade: string }>(db, "SELECT DISTINCT grade FROM positions ORDER BY grade").map(
    (row) => row.grade,
  );
  const rates = new Map(
    grades.map((grade) => [grade, 30 + 11 * Number(grade.slice(1)) + random.int(0, 16) * 0.25]),
  );
  const codes = allRows<{ project_code: string }>(
    db,
    "SELECT project_code, COUNT(*) AS n FROM timesheet_entries WHERE work_date BETWEEN ? AND ? AND status = 'approved' GROUP BY project_code ORDER BY project_code",
    period.period_start,
    period.period_end,
  ).map((row) => row.project_code);
  const overhead = random.shuffle(codes.filter((code) => /-(MAINT|OPS|QA|FLEET)$/.test(code))).slice(0, 2);
  if (overhead.length < 2) throw new Error("no overhead codes carry hours in the chargeback period");
  const controller = `${context.faker.person.firstName()} ${context.faker.person.lastName()}`;
  context.writeFile(
    CHARGEBACK_MEMO_PATH,
    renderMemo(
      { start: period.period_start, end: period.period_end, rates, overheadCodes: overhead.sort() },
      controller,
      addDays(period.period_end, 1),
    ),
  );
}

interface LedgerRow {
  project_code: string;
  hours: number;
  status: string;
  employment_type: string;
  hourly_rate: number | null;
  grade: string;
}

/** The chargeback per project code, rounded to cents (projects with charged hours only). */
export function computeChargeback(
  db: Database.Database,
  rules: ChargebackRules,
  options: ChargebackOptions = {},
): Map<string, number> {
  const rows = allRows<LedgerRow>(
    db,
    `SELECT t.project_code, t.hours, t.status, e.employment_type, e.hourly_rate, p.grade
       FROM timesheet_entries t
       JOIN employees e ON e.id = t.employee_id
       JOIN positions p ON p.id = e.position_id
      WHERE t.work_date BETWEEN ? AND ?`,
    rules.start,
    rules.end,
  );
  const totals = new Map<string, number>();
  for (const row of rows) {
    if (!options.anyStatus && row.status !== "approved") continue;
    if (!options.chargeOverhead && rules.overheadCodes.includes(row.project_code)) continue;
    const contractor = row.employment_type === "contractor" && !options.gradeRateForContractors;
    const rate = contractor ? (row.hourly_rate ?? 0) : (rules.rates.get(row.grade) ?? Number.NaN);
    totals.set(row.project_code, (totals.get(row.project_code) ?? 0) + row.hours * rate);
  }
  return new Map(
    [...totals]
      .sort(([left], [right]) => left.localeCompare(right))
      .map(([code, value]) => [code, roundCents(value)]),
  );
}
