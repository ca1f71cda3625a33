import { addDays, dateTime, getRow, insertRow, roundCents, type GenerateContext } from "../../envs/index.js";
import { computePriceMatchCredits } from "./expectations.js";
import { charmPrice } from "./generate-catalog.js";
import type { RetailData } from "./model.js";

/**
 * Some customers were already credited for a markdown (those lines are no longer owed anything), and one
 * customer is made gold when needed so that the longer gold window changes the answer at every scale.
 */
export function plantPriceMatchHistory(context: GenerateContext, data: RetailData): void {
  const { db, random } = context;
  const owed = computePriceMatchCredits(db, data.priceChanges);
  const creditable = random.shuffle(owed.lines);
  const creditCount = Math.max(1, Math.round(creditable.length * 0.25));
  const credited = creditable.slice(0, creditCount);
  let nextId =
    ((db.prepare("SELECT MAX(id) AS last FROM refunds").get() as { last: number | null }).last ?? 70000) + 1;
  for (const line of credited) {
    const proposed = addDays(line.effectiveDate, random.int(1, 4));
    const created = proposed > addDays(data.today, -1) ? addDays(data.today, -1) : proposed;
    insertRow(db, "refunds", {
      id: nextId++,
      order_id: line.orderId,
      order_line_id: line.lineId,
      payment_id: getRow<{ id: number }>(db, "SELECT id FROM payments WHERE order_id = ?", line.orderId)!.id,
      return_id: null,
      kind: "price_match",
      amount: line.credit,
      created_at: dateTime(created, random.int(9 * 3600, 18 * 3600)),
      note: `Price match: ${line.sku} reduced to $${line.lowestPrice.toFixed(2)}`,
    });
  }
  ensureGoldWindowMatters(context, data);
  ensureClearanceMatters(context, data);
}

function ensureGoldWindowMatters(context: GenerateContext, data: RetailData): void {
  const { db, random } = context;
  const actual = computePriceMatchCredits(db, data.priceChanges);
  const standardOnly = computePriceMatchCredits(db, data.priceChanges, { ignoreGoldWindow: true });
  if (JSON.stringify(actual.byCustomer) !== JSON.stringify(standardOnly.byCustomer)) return;
  // No gold customer benefits from the longer window yet: promote one who would.
  const asIfGold = computePriceMatchCredits(db, data.priceChanges, { everyoneGold: true });
  const promotable = asIfGold.lines.filter(
    (line) =>
      line.daysAfterOrder > 14 &&
      !actual.lines.some((other) => other.lineId === line.lineId) &&
      data.customers.find((customer) => customer.id === line.customerId)?.kind === "shopper",
  );
  if (promotable.length === 0) return;
  const chosen = random.pick(promotable);
  db.prepare("UPDATE customers SET loyalty_tier = 'gold' WHERE id = ?").run(chosen.customerId);
}

/**
 * Clearance markdowns must change the answer if someone wrongly counts them. When none does, the last
 * batch gets one more clearance markdown on a product bought shortly before and not sold since (so no
 * order price has to change).
 */
function ensureClearanceMatters(context: GenerateContext, data: RetailData): void {
  const { db, random } = context;
  const actual = computePriceMatchCredits(db, data.priceChanges);
  const withClearance = computePriceMatchCredits(db, data.priceChanges, { countClearance: true });
  if (JSON.stringify(actual.byCustomer) !== JSON.stringify(withClearance.byCustomer)) return;
  const batchDate = data.batchDates[data.batchDates.length - 1];
  if (!batchDate) return;
  const owedLines = new Set(actual.lines.map((line) => line.lineId));
  const candidates = db
    .prepare(
      `SELECT l.id, l.sku, l.unit_price FROM order_lines l JOIN orders o ON o.id = l.order_id
        WHERE o.status <> 'cancelled' AND l.sku NOT LIKE 'GFT-%'
          AND substr(o.placed_at, 1, 10) >= ? AND substr(o.placed_at, 1, 10) < ?
          AND NOT EXISTS (SELECT 1 FROM returns r WHERE r.order_line_id = l.id AND r.status <> 'rejected')
          AND NOT EXISTS (SELECT 1 FROM refunds f WHERE f.order_line_id = l.id AND f.kind = 'price_match')
          AND NOT EXISTS (SELECT 1 FROM order_lines l2 JOIN orders o2 ON o2.id = l2.order_id
                           WHERE l2.sku = l.sku AND substr(o2.placed_at, 1, 10) >= ?)
        ORDER BY l.id`,
    )
    .all(addDays(batchDate, -13), batchDate, batchDate) as Array<{
    id: number;
    sku: string;
    unit_price: number;
  }>;
  const usable = candidates.filter(
    (line) =>
      !owedLines.has(line.id) &&
      !data.priceChanges.some((change) => change.sku === line.sku && change.effectiveDate === batchDate),
  );
  if (usable.length === 0) return;
  const line = random.pick(usable);
  const product = data.products.find((candidate) => candidate.sku === line.sku);
  if (!product) return;
  const current = (
    db.prepare("SELECT unit_price FROM products WHERE sku = ?").get(line.sku) as { unit_price: number }
  ).unit_price;
  const newPrice = Math.min(charmPrice(random, current * 0.6), roundCents(line.unit_price - 1));
  data.priceChanges.push({
    sku: line.sku,
    productName: product.name,
    oldPrice: current,
    newPrice,
    effectiveDate: batchDate,
    reason: "clearance",
    approvedBy: random.pick(data.merchandisers),
  });
  db.prepare("UPDATE products SET unit_price = ? WHERE sku = ?").run(newPrice, line.sku);
}
