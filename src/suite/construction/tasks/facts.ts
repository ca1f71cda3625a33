import {
  REFERENCE_DATE,
  addBusinessDays,
  allRows,
  longDate,
  parseMarkdownTable,
  roundCents,
  weekdayName,
  type StateView,
  requireFile,
} from "../../../envs/index.js";
import { weatherDays } from "../logs.js";
import { PATHS } from "../rules.js";
import { threadOutcome, type Outcome } from "../threads.js";

/** Opens the instructions whose answers depend on today's date. */
export const TODAY_TEXT = `Today is ${weekdayName(REFERENCE_DATE)}, ${longDate(REFERENCE_DATE)}.`;

const usd = (text: string): number => Number(text.replace(/[$,]/g, ""));
const table = (state: StateView, path: string, heading: string): string[][] =>
  parseMarkdownTable(requireFile(state, path), heading);

/** E-mail address -> change-order approval limit (null: no limit), from the directory and the authority table. */
export function authority(state: StateView): Map<string, number | null> {
  const limits = new Map(
    table(state, PATHS.conditions, "Change-order approval authority").map(([role, limit]) => [
      role!,
      limit === "no limit" ? null : usd(limit!),
    ]),
  );
  const directory = parseMarkdownTable(requireFile(state, PATHS.directory), "Project directory");
  return new Map(
    directory.filter((row) => limits.has(row[2]!)).map((row) => [row[1]!, limits.get(row[2]!)!]),
  );
}

export interface LedgerRow {
  co_id: string;
  sub_id: string;
  status: string;
  approved_amount: number | null;
  decided_by: string | null;
  thread_id: string;
}

/** Every change order with its log entry and what its thread decided. */
export function changeOrders(state: StateView): Array<LedgerRow & { outcome: Outcome }> {
  const limits = authority(state);
  const rows = allRows<LedgerRow>(
    state.db,
    "SELECT co.*, c.sub_id FROM change_orders co JOIN contracts c USING (contract_id) ORDER BY co_id",
  );
  return rows.map((row) => ({
    ...row,
    outcome: threadOutcome(
      allRows(
        state.db,
        "SELECT * FROM email_messages WHERE thread_id = ? ORDER BY message_id",
        row.thread_id,
      ),
      limits,
    ),
  }));
}

/** Approved change-order totals per subcontractor as the threads decide them. */
export function approvedTotals(state: StateView): Map<string, number> {
  const totals = new Map<string, number>();
  for (const co of changeOrders(state))
    totals.set(
      co.sub_id,
      roundCents((totals.get(co.sub_id) ?? 0) + (co.outcome.status === "approved" ? co.outcome.amount! : 0)),
    );
  return totals;
}

const agrees = (co: LedgerRow & { outcome: Outcome }): boolean =>
  co.status === co.outcome.status &&
  (co.status !== "approved" || Math.abs(co.approved_amount! - co.outcome.amount!) < 0.005);

export const ledgerMismatches = (state: StateView): string[] =>
  changeOrders(state)
    .filter((co) => !agrees(co))
    .map((co) => co.co_id);

/** Pending log entries whose thread has a decision. */
export const decidedPending = (state: StateView): Array<LedgerRow & { outcome: Outcome }> =>
  changeOrders(state).filter((co) => co.status === "pending" && co.outcome.status !== "pending");

function documentNumber(text: string, pattern: RegExp): number {
  const found = pattern.exec(text)?.[1];
  if (found === undefined) throw new Error(`a document no longer states ${pattern.source}`);
  return Number(found);
}

/** Submitted pay applications whose retainage held differs from the general conditions' rule. */
export function retainageErrors(state: StateView): string[] {
  const text = requireFile(state, PATHS.conditions);
  const before = documentNumber(text, /The rate is (\d+)% while/);
  const after = documentNumber(text, /and (\d+)% once/);
  const threshold = documentNumber(text, /less than (\d+)% of the adjusted contract sum/);
  const rows = allRows<{ pay_app_id: string; work: number; held: number; adjusted: number }>(
    state.db,
    `SELECT p.pay_app_id, p.work_completed_to_date AS work, p.retainage_held AS held,
       c.original_sum + COALESCE((SELECT SUM(approved_amount) FROM change_orders co WHERE co.contract_id = c.contract_id AND co.status = 'approved'), 0) AS adjusted
     FROM pay_apps p JOIN contracts c USING (contract_id) WHERE p.status = 'submitted' ORDER BY p.pay_app_id`,
  );
  return rows
    .filter((row) => {
      const rate = row.work >= (row.adjusted * threshold) / 100 ? after : before;
      return Math.abs(roundCents((row.work * rate) / 100) - row.held) >= 0.005;
    })
    .map((row) => row.pay_app_id);
}

/** Subcontractors failing the COI requirements today. */
export function blockedSubs(state: StateView): Set<string> {
  const minimums = new Map(
    table(state, PATHS.coi, "Required coverage").map(([code, , minimum]) => [code!, usd(minimum!)]),
  );
  const latest = new Map<string, { expires_on: string; each_occurrence: number }>();
  for (const cert of allRows<{
    sub_id: string;
    coverage: string;
    expires_on: string;
    each_occurrence: number;
  }>(state.db, "SELECT * FROM certificates ORDER BY expires_on, certificate_id"))
    latest.set(`${cert.sub_id}|${cert.coverage}`, cert);
  const subs = allRows<{ sub_id: string }>(state.db, "SELECT sub_id FROM subcontractors").map(
    (r) => r.sub_id,
  );
  return new Set(
    subs.filter((sub) =>
      [...minimums].some(([code, minimum]) => {
        const cert = latest.get(`${sub}|${code}`);
        return !cert || cert.expires_on < REFERENCE_DATE || cert.each_occurrence < minimum;
      }),
    ),
  );
}

export function payAppsToHold(state: StateView): string[] {
  const blocked = blockedSubs(state);
  return allRows<{ pay_app_id: string; sub_id: string }>(
    state.db,
    "SELECT p.pay_app_id, c.sub_id FROM pay_apps p JOIN contracts c USING (contract_id) WHERE p.status IN ('submitted', 'approved') ORDER BY pay_app_id",
  )
    .filter((row) => blocked.has(row.sub_id))
    .map((row) => row.pay_app_id);
}

export const holidays = (state: StateView): Set<string> =>
  new Set(table(state, PATHS.conditions, "Working days and holidays").map((row) => row[0]!));
const periods = (state: StateView, heading: string): Map<string, number> =>
  new Map(table(state, PATHS.conditions, heading).map(([key, days]) => [key!, Number(days)]));

/** Open RFIs past their response due date, counted per project (every project present). */
export function overdueRfis(state: StateView): Map<string, number> {
  const days = periods(state, "RFI response times");
  const off = holidays(state);
  const counts = new Map(
    allRows<{ project_id: string }>(state.db, "SELECT project_id FROM projects").map((p) => [
      p.project_id,
      0,
    ]),
  );
  for (const rfi of allRows<{ project_id: string; priority: string; sent_on: string }>(
    state.db,
    "SELECT * FROM rfis WHERE status = 'open'",
  ))
    if (REFERENCE_DATE > addBusinessDays(rfi.sent_on, days.get(rfi.priority)!, off))
      counts.set(rfi.project_id, counts.get(rfi.project_id)! + 1);
  return counts;
}

/** Submittals under review past the review period of their latest revision. */
export function overdueSubmittals(state: StateView): string[] {
  const days = periods(state, "Submittal review periods");
  const off = holidays(state);
  return allRows<{ submittal_id: string; type: string; submitted_on: string }>(
    state.db,
    `SELECT s.submittal_id, s.type, r.submitted_on FROM submittals s JOIN submittal_revisions r USING (submittal_id)
      WHERE s.status = 'under_review' AND r.revision = (SELECT MAX(revision) FROM submittal_revisions x WHERE x.submittal_id = s.submittal_id)
      ORDER BY s.submittal_id`,
  )
    .filter((row) => REFERENCE_DATE > addBusinessDays(row.submitted_on, days.get(row.type)!, off))
    .map((row) => row.submittal_id);
}

/** Weather days per project in the daily-log files. */
export function weatherDayCounts(state: StateView): Map<string, number> {
  const off = holidays(state);
  const counts = new Map(
    allRows<{ project_id: string }>(state.db, "SELECT project_id FROM projects").map((p) => [
      p.project_id,
      0,
    ]),
  );
  for (const path of state.listFiles().filter((file) => file.startsWith(`${PATHS.logs}/`))) {
    const project = /PRJ-\d\d/.exec(requireFile(state, path))![0];
    counts.set(project, counts.get(project)! + weatherDays(requireFile(state, path), off).length);
  }
  return counts;
}
