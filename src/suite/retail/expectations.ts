import {
  addDays,
  allRows,
  daysBetween,
  groupBy,
  parseCsv,
  roundCents,
  requireFile,
  sumBy,
  type StateView,
} from "../../envs/index.js";
import type Database from "better-sqlite3";
import { GIFT_CARD_CATEGORY } from "./catalog.js";
import { PRICE_MATCH_POLICY, decideReturn, priceMatchWindowDays } from "./policy.js";
import type { ReturnDecision } from "./policy.js";

/**
 * What each task's answer should be, computed from a database and the workspace documents. Verifiers
 * call these on the initial state; the generator calls some of them to plant data that keeps every
 * rule meaningful.
 */

/** Workspace paths the generator writes and the verifiers read back. */
export const PATHS = {
  returnsPolicy: "policies/returns-and-refunds-policy.md",
  promotionsPolicy: "policies/promotions-and-price-match.md",
  recallProcedure: "ops/supplier-recall-procedure.md",
  closeMemo: "finance/month-end-close-memo.md",
  watchList: "risk/fraud-watch-list.csv",
  pricingDir: "pricing",
  noticesDir: "notices",
  exportsDir: "exports",
  supportDir: "support",
};

type WorkspaceReader = Pick<StateView, "readFile" | "listFiles">;

// ---------------------------------------------------------------- returns

export interface ExpectedReturnDecision extends ReturnDecision {
  returnId: number;
  restockingFee: number;
}

function activeWatchListEmails(csvText: string): Set<string> {
  return new Set(
    parseCsv(csvText, { trim: true })
      .filter((row) => (row.status ?? "").toLowerCase() === "active")
      .map((row) => (row.email ?? "").toLowerCase()),
  );
}

interface PendingReturnRow {
  id: number;
  quantity: number;
  reason: string;
  item_condition: string;
  requested_at: string;
  delivered_at: string;
  line_total: number;
  line_quantity: number;
  category: string;
  email: string;
}

/** The decision the returns policy requires for every return still in status `requested`. */
export function computeReturnDecisions(
  db: Database.Database,
  watchListCsv: string,
): ExpectedReturnDecision[] {
  const watched = activeWatchListEmails(watchListCsv);
  const rows = allRows<PendingReturnRow>(
    db,
    `SELECT r.id, r.quantity, r.reason, r.item_condition, r.requested_at, o.delivered_at,
            l.line_total, l.quantity AS line_quantity, p.category, c.email
       FROM returns r
       JOIN order_lines l ON l.id = r.order_line_id
       JOIN orders o ON o.id = r.order_id
       JOIN products p ON p.sku = r.sku
       JOIN customers c ON c.id = o.customer_id
      WHERE r.status = 'requested'
      ORDER BY r.id`,
  );
  return rows.map((row) => {
    const merchandiseValue = roundCents((row.line_total / row.line_quantity) * row.quantity);
    const decision = decideReturn({
      category: row.category,
      reason: row.reason,
      itemCondition: row.item_condition,
      daysSinceDelivery: daysBetween(row.delivered_at, row.requested_at),
      merchandiseValue,
      customerWatchListed: watched.has(row.email.toLowerCase()),
    });
    return {
      ...decision,
      returnId: row.id,
      restockingFee: roundCents((merchandiseValue * decision.restockingFeePercent) / 100),
    };
  });
}

// ---------------------------------------------------------------- price match

export interface PriceChangeRecord {
  sku: string;
  oldPrice: number;
  newPrice: number;
  effectiveDate: string;
  reason: string;
}

export function parsePriceChangeFiles(state: WorkspaceReader): PriceChangeRecord[] {
  return state
    .listFiles()
    .filter((path) => path.startsWith(`${PATHS.pricingDir}/`) && path.endsWith(".csv"))
    .flatMap((path) =>
      parseCsv(requireFile(state, path), { trim: true }).map((row) => ({
        sku: row.sku ?? "",
        oldPrice: Number(row.old_price),
        newPrice: Number(row.new_price),
        effectiveDate: row.effective_date ?? "",
        reason: row.reason ?? "",
      })),
    );
}

/** An order line that could be owed a price-match credit, with its order's date and customer. */
interface OpenLineRow {
  id: number;
  order_id: number;
  sku: string;
  quantity: number;
  unit_price: number;
  placed_at: string;
  customer_id: number;
  loyalty_tier: string;
}

export interface PriceMatchOptions {
  /** Near-miss analysis: apply the standard window to gold customers too. */
  ignoreGoldWindow?: boolean;
  /** Generator analysis: what would be owed if every customer were gold. */
  everyoneGold?: boolean;
  /** Near-miss analysis: treat clearance markdowns as qualifying. */
  countClearance?: boolean;
}

/** Credits owed under the price-match guarantee, per line and per customer (customers owed > 0 only). */
export function computePriceMatchCredits(
  db: Database.Database,
  changes: PriceChangeRecord[],
  options: PriceMatchOptions = {},
) {
  const qualifying = changes.filter(
    (change) =>
      !(change.newPrice >= change.oldPrice) &&
      (options.countClearance || !PRICE_MATCH_POLICY.excludedReasons.includes(change.reason)),
  );
  const reductions = groupBy(qualifying, (change) => change.sku);
  const lines = [...reductions].flatMap(([sku, skuReductions]) =>
    allRows<OpenLineRow>(
      db,
      `SELECT l.id, l.order_id, l.sku, l.quantity, l.unit_price, o.placed_at, o.customer_id, c.loyalty_tier
         FROM order_lines l
         JOIN orders o ON o.id = l.order_id
         JOIN customers c ON c.id = o.customer_id
        WHERE l.sku = ? AND o.status <> 'cancelled'
          AND NOT EXISTS (SELECT 1 FROM returns r WHERE r.order_line_id = l.id AND r.status <> 'rejected')
          AND NOT EXISTS (SELECT 1 FROM refunds f WHERE f.order_line_id = l.id AND f.kind = 'price_match')
        ORDER BY l.id`,
      sku,
    ).flatMap((row) => {
      const placed = row.placed_at.slice(0, 10);
      const tier = options.everyoneGold ? "gold" : options.ignoreGoldWindow ? "standard" : row.loyalty_tier;
      const windowEnd = addDays(placed, priceMatchWindowDays(tier));
      const inWindow = skuReductions.filter(
        (change) => change.effectiveDate > placed && change.effectiveDate <= windowEnd,
      );
      if (inWindow.length === 0) return [];
      const lowest = inWindow.reduce((best, change) => (change.newPrice < best.newPrice ? change : best));
      if (lowest.newPrice >= row.unit_price) return [];
      return [
        {
          lineId: row.id,
          orderId: row.order_id,
          customerId: row.customer_id,
          sku: row.sku,
          lowestPrice: lowest.newPrice,
          effectiveDate: lowest.effectiveDate,
          daysAfterOrder: daysBetween(placed, lowest.effectiveDate),
          credit: roundCents((row.unit_price - lowest.newPrice) * row.quantity),
        },
      ];
    }),
  );
  const totals = new Map<number, number>();
  for (const line of lines)
    totals.set(line.customerId, roundCents((totals.get(line.customerId) ?? 0) + line.credit));
  const byCustomer = Object.fromEntries(
    [...totals]
      .sort(([left], [right]) => left - right)
      .map(([customerId, total]) => [String(customerId), total]),
  );
  return { lines, byCustomer };
}

// ---------------------------------------------------------------- net revenue

export interface ClosePeriod {
  start: string;
  end: string;
  testCustomerIds: number[];
}

export function parseCloseMemo(text: string): ClosePeriod {
  const period = text.match(/Closing period:\s*\**\s*(\d{4}-\d{2}-\d{2})\s*to\s*(\d{4}-\d{2}-\d{2})/);
  if (!period) throw new Error("close memo has no 'Closing period' line");
  return {
    start: period[1] as string,
    end: period[2] as string,
    // Test accounts are listed as "customer #10042".
    testCustomerIds: [...new Set([...text.matchAll(/#(\d{5})\b/g)].map((match) => Number(match[1])))].sort(
      (left, right) => left - right,
    ),
  };
}

/** Net merchandise revenue per category for orders placed in the period, per the close memo's conventions. */
export function computeNetRevenue(db: Database.Database, period: ClosePeriod): Record<string, number> {
  const lines = allRows<{
    id: number;
    line_total: number;
    category: string;
    customer_id: number;
    status: string;
  }>(
    db,
    `SELECT l.id, l.line_total, p.category, o.customer_id, o.status
       FROM order_lines l
       JOIN orders o ON o.id = l.order_id
       JOIN products p ON p.sku = l.sku
      WHERE substr(o.placed_at, 1, 10) BETWEEN ? AND ?`,
    period.start,
    period.end,
  );
  const refunds = allRows<{ order_line_id: number; amount: number }>(
    db,
    "SELECT order_line_id, amount FROM refunds",
  );
  const refundsByLine = sumBy(
    refunds,
    (refund) => refund.order_line_id,
    (refund) => refund.amount,
  );
  const tests = new Set(period.testCustomerIds);
  const counted = lines.filter(
    (line) =>
      line.status !== "cancelled" && !tests.has(line.customer_id) && line.category !== GIFT_CARD_CATEGORY,
  );
  const totals = sumBy(
    counted,
    (line) => line.category,
    (line) => line.line_total - (refundsByLine.get(line.id) ?? 0),
  );
  return Object.fromEntries(
    [...totals]
      .sort(([left], [right]) => left.localeCompare(right))
      .map(([category, value]) => [category, roundCents(value)]),
  );
}

// ---------------------------------------------------------------- recalls

export interface ParsedNotice {
  path: string;
  noticeId: string;
  issued: string;
  type: string;
  /** SKUs listed per `## ` section title (lower-cased). */
  sections: Record<string, string[]>;
}

function parseNotice(path: string, text: string): ParsedNotice {
  const sections: Record<string, string[]> = {};
  let current = "";
  for (const line of text.split("\n")) {
    const heading = line.match(/^##\s+(.*)$/);
    if (heading) {
      current = (heading[1] ?? "").trim().toLowerCase();
      continue;
    }
    if (current && line.trim().startsWith("|")) {
      const sku = line.match(/\b[A-Z]{3}-\d{4}\b/);
      if (sku) sections[current] = [...(sections[current] ?? []), sku[0]];
    }
  }
  return {
    path,
    noticeId: text.match(/SN-\d{4}-\d{3}/)?.[0] ?? path,
    issued: text.match(/Issued:\s*(\d{4}-\d{2}-\d{2})/)?.[1] ?? "",
    type: (text.match(/Notice type:\s*(.+)/)?.[1] ?? "").trim(),
    sections,
  };
}

export function readNotices(state: WorkspaceReader): ParsedNotice[] {
  return state
    .listFiles()
    .filter((path) => path.startsWith(`${PATHS.noticesDir}/`) && path.endsWith(".md"))
    .map((path) => parseNotice(path, requireFile(state, path)))
    .sort(
      (left, right) => left.issued.localeCompare(right.issued) || left.noticeId.localeCompare(right.noticeId),
    );
}

/** The SKUs currently under recall: recalls add their products, updates remove and add. */
export function recallScope(notices: ParsedNotice[]): Set<string> {
  const scope = new Set<string>();
  for (const notice of notices) {
    if (notice.type === "Product recall")
      for (const sku of notice.sections["affected products"] ?? []) scope.add(sku);
    else if (notice.type.startsWith("Recall update")) {
      for (const sku of notice.sections["removed from recall scope"] ?? []) scope.delete(sku);
      for (const sku of notice.sections["added to recall scope"] ?? []) scope.add(sku);
    }
  }
  return scope;
}

/** Open (pending or processing) orders holding at least one recalled SKU, sorted. */
export function computeRecallCancellations(db: Database.Database, scope: Set<string>): number[] {
  const rows = allRows<{ id: number; sku: string; status: string }>(
    db,
    `SELECT DISTINCT o.id, l.sku, o.status FROM orders o JOIN order_lines l ON l.order_id = o.id ORDER BY o.id`,
  );
  const open = rows.filter(
    (row) => (row.status === "pending" || row.status === "processing") && scope.has(row.sku),
  );
  return [...new Set(open.map((row) => row.id))].sort((left, right) => left - right);
}
