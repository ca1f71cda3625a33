/**
 * What the hotel tasks expect, computed from an instance's initial state: the database and the policies as
 * the agent reads them in the workspace.
 */
import type { Check, StateView } from "../../../envs/index.js";
import {
  checkAnswerTotal,
  REFERENCE_DATE,
  checkStateDiff,
  allRows,
  daysBetween,
  longDate,
  parseMarkdownTable,
  previousMonth,
  roundCents,
  sumCents,
} from "../../../envs/index.js";
import {
  CANCELLATION,
  CITY_TAX,
  GROUP_BLOCKS,
  RATE_PLANS_DOC,
  RECEIVABLES,
  ROOM_ASSIGNMENT,
} from "../documents.js";
import { DIRECT_BILL } from "../rules.js";

type Row = Record<string, unknown>;
export const TODAY_TEXT = `Today is ${longDate(REFERENCE_DATE)}.`;
export const THIS_MONTH = REFERENCE_DATE.slice(0, 7);
export const LAST_MONTH = previousMonth(REFERENCE_DATE).key;

function doc(state: StateView, path: string): string {
  const text = state.readFile(path);
  if (text === null) throw new Error(`workspace file ${path} is missing`);
  return text;
}

function nonEmpty<T>(items: T[], what: string): T[] {
  if (items.length === 0) throw new Error(`generation produced no ${what}`);
  return items;
}

const properties = (state: StateView): string[] =>
  allRows<{ code: string }>(state.db, "SELECT code FROM properties ORDER BY rowid").map((row) => row.code);

/** Per property code, the sum of each reservation's amount (every property listed, zero when none). */
function byProperty(
  state: StateView,
  items: Array<{ property: string; amount: number }>,
): Map<string, number> {
  const totals = new Map(properties(state).map((code) => [code, 0]));
  for (const item of items) totals.set(item.property, roundCents(totals.get(item.property)! + item.amount));
  return totals;
}

/** The cancellation policy's table: per plan code, days of free cancellation (null: never) and fee percentages. */
export function cancellationTerms(
  state: StateView,
): Map<string, { freeDays: number | null; late: number; noShow: number }> {
  const rows = parseMarkdownTable(doc(state, CANCELLATION), "Terms by rate plan");
  return new Map(
    rows.map(([, code, free, late, noShow]) => [
      code!,
      { freeDays: /^\d+$/.test(free!) ? Number(free) : null, late: Number(late), noShow: Number(noShow) },
    ]),
  );
}

const hasLine = (state: StateView, id: string, code: string): boolean =>
  allRows(state.db, "SELECT 1 FROM folio_lines WHERE reservation_id = ? AND code = ?", id, code).length > 0;

type Fee = { id: string; property: string; amount: number };

/** No-shows arriving in the month with the fee the policy sets (zero-fee plans left out). */
export function noShowFees(state: StateView, month: string): Fee[] {
  const terms = cancellationTerms(state);
  const rows = allRows<Row>(
    state.db,
    "SELECT * FROM reservations WHERE status = 'no_show' AND substr(arrival, 1, 7) = ? ORDER BY reservation_id",
    month,
  );
  return rows
    .map((row) => ({
      id: String(row.reservation_id),
      property: String(row.property),
      amount: roundCents((terms.get(String(row.rate_plan))!.noShow / 100) * Number(row.nightly_rate)),
    }))
    .filter((fee) => fee.amount > 0);
}

export const noShowTotals = (state: StateView): Map<string, number> =>
  byProperty(state, nonEmpty(noShowFees(state, LAST_MONTH), "no-show"));

export const unchargedNoShows = (state: StateView): Fee[] =>
  nonEmpty(
    noShowFees(state, THIS_MONTH).filter((fee) => !hasLine(state, fee.id, "NOSHOW")),
    "uncharged no-show",
  );

/** Cancellations made this month after the plan's free window, with their fee, not yet charged. */
export function lateCancellations(state: StateView): Fee[] {
  const terms = cancellationTerms(state);
  const rows = allRows<Row>(
    state.db,
    "SELECT * FROM reservations WHERE status = 'cancelled' AND substr(cancelled_on, 1, 7) = ? ORDER BY reservation_id",
    THIS_MONTH,
  );
  const fees = rows.flatMap((row) => {
    const term = terms.get(String(row.rate_plan))!;
    const late =
      term.freeDays !== null && daysBetween(String(row.cancelled_on), String(row.arrival)) < term.freeDays;
    const amount = roundCents((term.late / 100) * Number(row.nightly_rate));
    return late && amount > 0 && !hasLine(state, String(row.reservation_id), "LATECXL")
      ? [{ id: String(row.reservation_id), property: String(row.property), amount }]
      : [];
  });
  return nonEmpty(fees, "late cancellation");
}

/** City tax for today's departures whose folio has none yet, by the property's rule in the city-tax policy. */
export function cityTaxDue(state: StateView): Fee[] {
  const rules = new Map(
    parseMarkdownTable(doc(state, CITY_TAX), "Rates by property").map(([, code, basis, rate, cap]) => [
      code!,
      { basis: basis!, rate: Number(rate!.replace(/[€%]/g, "")), cap: Number(cap) },
    ]),
  );
  const rows = allRows<Row>(
    state.db,
    "SELECT * FROM reservations WHERE status = 'in_house' AND departure = ? ORDER BY reservation_id",
    REFERENCE_DATE,
  );
  const due = rows
    .filter((row) => !hasLine(state, String(row.reservation_id), "CTAX"))
    .map((row) => {
      const rule = rules.get(String(row.property))!;
      const nights = daysBetween(String(row.arrival), String(row.departure));
      const amount = rule.basis.startsWith("percent")
        ? roundCents((rule.rate / 100) * Number(row.nightly_rate) * nights)
        : roundCents(rule.rate * Number(row.adults) * Math.min(nights, rule.cap));
      return { id: String(row.reservation_id), property: String(row.property), amount };
    });
  return nonEmpty(due, "departure to tax");
}

/** Today's arrivals in out-of-order rooms and the room the assignment policy moves each to. */
export function roomMoves(state: StateView): Map<string, string> {
  if (!doc(state, ROOM_ASSIGNMENT).includes("Inspected")) throw new Error("room-assignment policy changed");
  const moves = new Map<string, string>();
  const arrivals = allRows<Row>(
    state.db,
    `SELECT r.reservation_id, r.property, r.room_type FROM reservations r JOIN rooms m ON m.property = r.property AND m.room_no = r.room_no
      WHERE r.status = 'booked' AND r.arrival = ? AND m.hk_status = 'out_of_order' ORDER BY r.reservation_id`,
    REFERENCE_DATE,
  );
  const taken = new Set(
    allRows<Row>(
      state.db,
      "SELECT property, room_no FROM reservations WHERE room_no IS NOT NULL AND (status = 'in_house' OR (status = 'booked' AND arrival = ?))",
      REFERENCE_DATE,
    ).map((row) => `${String(row.property)}|${String(row.room_no)}`),
  );
  for (const row of arrivals) {
    const rooms = allRows<{ room_no: string }>(
      state.db,
      "SELECT room_no FROM rooms WHERE property = ? AND room_type = ? AND hk_status = 'inspected' ORDER BY CAST(room_no AS INTEGER)",
      row.property,
      row.room_type,
    );
    const target = rooms.find((room) => !taken.has(`${String(row.property)}|${room.room_no}`));
    if (!target) throw new Error(`no inspected room for ${String(row.reservation_id)}`);
    taken.add(`${String(row.property)}|${target.room_no}`);
    moves.set(String(row.reservation_id), target.room_no);
  }
  return new Map(nonEmpty([...moves], "arrival in an out-of-order room"));
}

/** Attrition owed by group blocks whose cutoff has passed (groups owing nothing left out). */
export function groupAttrition(state: StateView): Map<string, number> {
  const pct = Number(/fewer than (\d+)%/.exec(doc(state, GROUP_BLOCKS))![1]);
  const groups = allRows<Row>(
    state.db,
    `SELECT g.*, (SELECT count(*) FROM reservations r WHERE r.group_code = g.group_code AND r.status <> 'cancelled') AS picked
       FROM group_blocks g WHERE g.cutoff < ? ORDER BY g.group_code`,
    REFERENCE_DATE,
  );
  const owed = groups.flatMap((group) => {
    const shortfall = Math.ceil((Number(group.rooms_blocked) * pct) / 100) - Number(group.picked);
    const nights = daysBetween(String(group.arrival), String(group.departure));
    return shortfall > 0
      ? [[String(group.group_code), roundCents(shortfall * Number(group.group_rate) * nights)] as const]
      : [];
  });
  return new Map(nonEmpty(owed, "group owing attrition"));
}

/** Upcoming confirmed online bookings whose channel amount disagrees with the PMS rate. */
export function parityMismatches(state: StateView): string[] {
  const commission = Number(/less its (\d+)% commission/.exec(doc(state, RATE_PLANS_DOC))![1]);
  const rows = allRows<Row>(
    state.db,
    `SELECT c.reservation_id, c.channel, c.amount, r.nightly_rate, r.arrival, r.departure FROM channel_bookings c
       JOIN reservations r ON r.reservation_id = c.reservation_id WHERE c.status = 'confirmed' AND c.arrival >= ? ORDER BY c.reservation_id`,
    REFERENCE_DATE,
  );
  const wrong = rows.filter((row) => {
    const gross = Number(row.nightly_rate) * daysBetween(String(row.arrival), String(row.departure));
    const expected = roundCents(row.channel === "Expedia" ? gross * (1 - commission / 100) : gross);
    return Math.abs(expected - Number(row.amount)) > 0.005;
  });
  return nonEmpty(wrong, "rate mismatch").map((row) => String(row.reservation_id));
}

/** Balances guests still owe on last month's departures, by property, as the receivables policy counts them. */
export function openBalances(state: StateView): Map<string, number> {
  const policy = doc(state, RECEIVABLES);
  const floor = Number(/Balances below €([\d.]+)/.exec(policy)![1]);
  if (!policy.includes(DIRECT_BILL)) throw new Error("receivables policy changed");
  const rows = allRows<{ property: string; balance: number }>(
    state.db,
    `SELECT r.property, (SELECT sum(amount) FROM folio_lines f WHERE f.reservation_id = r.reservation_id) AS balance FROM reservations r
      WHERE r.status = 'checked_out' AND substr(r.departure, 1, 7) = ? AND r.payment <> ? ORDER BY r.reservation_id`,
    LAST_MONTH,
    DIRECT_BILL,
  );
  const owed = rows.filter((row) => roundCents(row.balance) >= floor);
  return byProperty(
    state,
    nonEmpty(owed, "open balance").map((row) => ({ property: row.property, amount: row.balance })),
  );
}

/** A charging task's checks: exactly these folio lines added (nothing else changed) and their total in the reply. */
export function checkPostedFees(
  initial: StateView,
  final: StateView,
  answer: string,
  code: string,
  fees: Fee[],
): Check[] {
  const added = fees.map((fee) => ({ reservation_id: fee.id, code, amount: fee.amount }));
  return [
    ...checkStateDiff(initial.db, final.db, [{ table: "folio_lines", key: "line_id", added }]),
    checkAnswerTotal(answer, sumCents(fees.map((fee) => fee.amount)), "€"),
  ];
}
