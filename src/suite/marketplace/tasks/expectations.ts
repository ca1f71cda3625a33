/**
 * What the marketplace tasks expect, computed from an instance's initial state: the database and the
 * workspace policies as the agent reads them.
 */
import type { StateView } from "../../../envs/index.js";
import {
  REFERENCE_DATE,
  addBusinessDays,
  allRows,
  longDate,
  parseMarkdownTable,
  roundCents,
  requireFile,
} from "../../../envs/index.js";
import { DISPUTE_POLICY, PERFORMANCE_POLICY } from "../documents.js";
import { ACCEPT_OPENINGS, REASON_LABEL } from "../rules.js";

type Row = Record<string, unknown>;

/** The desk's date, told in the instructions that turn on it (the back office does not show it). */
export const TODAY_TEXT = `Today is ${longDate(REFERENCE_DATE)}.`;

function nonEmpty<T>(items: T[], what: string): T[] {
  if (items.length === 0) throw new Error(`generation produced no ${what}`);
  return items;
}

/** Cases still awaiting the seller after the last business day of their reason's response window. */
export function overdueCases(state: StateView): string[] {
  const windows = new Map(
    parseMarkdownTable(requireFile(state, DISPUTE_POLICY), "Seller response windows").map(([label, days]) => [
      label!,
      Number(days),
    ]),
  );
  const rows = allRows<{ dispute_id: string; reason: keyof typeof REASON_LABEL; opened_on: string }>(
    state.db,
    "SELECT dispute_id, reason, opened_on FROM disputes WHERE status = 'awaiting_seller' ORDER BY dispute_id",
  );
  const late = rows.filter(
    (row) => addBusinessDays(row.opened_on, windows.get(REASON_LABEL[row.reason])!) < REFERENCE_DATE,
  );
  return nonEmpty(
    late.map((row) => row.dispute_id),
    "overdue case",
  );
}

/** Escalated item-not-received cases and the decision the carrier's latest scan makes for each. */
export function escalatedDecisions(
  state: StateView,
): Array<{ dispute_id: string; order_id: string; refund: number | null }> {
  const cases = allRows<Row>(
    state.db,
    `SELECT d.dispute_id, d.order_id, o.item_price, o.shipping,
       (SELECT status FROM tracking_events e WHERE e.tracking_number = o.tracking_number
         ORDER BY happened_at DESC, event_id DESC LIMIT 1) AS latest
     FROM disputes d JOIN orders o ON o.order_id = d.order_id
     WHERE d.status = 'escalated' AND d.reason = 'not_received' ORDER BY d.dispute_id`,
  );
  const decisions = cases.map((row) => ({
    dispute_id: String(row.dispute_id),
    order_id: String(row.order_id),
    refund: String(row.latest).startsWith("Delivered")
      ? null
      : roundCents(Number(row.item_price) + Number(row.shipping)),
  }));
  if (!decisions.some((item) => item.refund === null) || !decisions.some((item) => item.refund !== null))
    throw new Error("generation produced no escalated case of both outcomes");
  return decisions;
}

/** Not-as-described cases whose buyer accepted the seller's latest partial-refund offer, with that amount. */
export function acceptedOffers(
  state: StateView,
): Array<{ dispute_id: string; order_id: string; amount: number }> {
  const cases = allRows<{ dispute_id: string; order_id: string }>(
    state.db,
    "SELECT dispute_id, order_id FROM disputes WHERE status = 'seller_responded' AND reason = 'not_as_described' ORDER BY dispute_id",
  );
  const accepted = cases.flatMap((item) => {
    const messages = allRows<{ author: string; body: string }>(
      state.db,
      "SELECT author, body FROM dispute_messages WHERE dispute_id = ? ORDER BY sent_at, message_id",
      item.dispute_id,
    );
    const offers = messages.filter((m) => m.author === "seller" && /\$\d/.test(m.body));
    const last = messages.at(-1);
    if (
      offers.length === 0 ||
      last?.author !== "buyer" ||
      !ACCEPT_OPENINGS.some((opening) => last.body.startsWith(opening))
    )
      return [];
    const amount = Number(/\$([\d.]+)/.exec(offers.at(-1)!.body)![1]);
    return [{ ...item, amount }];
  });
  return nonEmpty(accepted, "accepted partial-refund offer");
}

/** Pooled defect rates (percent) over the policy's window, for sellers over the limit with enough orders. */
export function sellersOverLimit(state: StateView): Map<string, { rate: number; status: string }> {
  const policy = requireFile(state, PERFORMANCE_POLICY);
  const limit = Number(/The limit is ([\d.]+)%/.exec(policy)![1]);
  const minimum = Number(/at least (\d+) orders/.exec(policy)![1]);
  const months = allRows<{ month: string }>(
    state.db,
    "SELECT DISTINCT month FROM seller_metrics ORDER BY month DESC",
  ).map((row) => row.month);
  const window = months.slice(1, 4);
  const rows = allRows<{ seller_id: string; status: string; orders: number; defects: number }>(
    state.db,
    `SELECT s.seller_id, s.status, sum(m.orders) AS orders, sum(m.defects) AS defects FROM sellers s
       JOIN seller_metrics m ON m.seller_id = s.seller_id WHERE m.month IN (${window.map(() => "?").join(",")})
      GROUP BY s.seller_id ORDER BY s.seller_id`,
    ...window,
  );
  const over = rows.filter((row) => row.orders >= minimum && (100 * row.defects) / row.orders > limit);
  return new Map(
    nonEmpty(over, "seller over the defect limit").map((row) => [
      row.seller_id,
      { rate: (100 * row.defects) / row.orders, status: row.status },
    ]),
  );
}

/** Issued refunds of a month, totalled by the seller of the order. */
export function refundsBySeller(state: StateView, month: string): Map<string, number> {
  const rows = allRows<{ seller_id: string; total: number }>(
    state.db,
    `SELECT o.seller_id, sum(r.amount) AS total FROM refunds r JOIN orders o ON o.order_id = r.order_id
      WHERE r.status = 'issued' AND substr(r.issued_on, 1, 7) = ? GROUP BY o.seller_id ORDER BY o.seller_id`,
    month,
  );
  return new Map(nonEmpty(rows, "refund in the month").map((row) => [row.seller_id, roundCents(row.total)]));
}

/** Orders whose issued refunds exceed the order total, with the overpayment. */
export function overpaidOrders(state: StateView): Map<string, number> {
  const rows = allRows<{ order_id: string; over: number }>(
    state.db,
    `SELECT o.order_id, sum(r.amount) - (o.item_price + o.shipping) AS over FROM refunds r
       JOIN orders o ON o.order_id = r.order_id WHERE r.status = 'issued'
      GROUP BY o.order_id HAVING over > 0.004 ORDER BY o.order_id`,
  );
  return new Map(nonEmpty(rows, "overpaid order").map((row) => [row.order_id, roundCents(row.over)]));
}
