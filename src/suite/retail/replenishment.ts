import type Database from "better-sqlite3";
import { addDays, allRows, longDate, type GenerateContext } from "../../envs/index.js";
import { GIFT_CARD_CATEGORY, STORE_NAME, SUPPLIERS } from "./catalog.js";

/**
 * Weekly replenishment: the policy a task plants (demand window, safety stock, supplier lead times), the
 * merchandising memo of delisted SKUs, the stock levels that make reorders happen, and the purchase
 * quantities the policy calls for.
 */

export const REPLENISHMENT_POLICY_PATH = "ops/replenishment-policy.md";
export const DELISTING_MEMO_PATH = "merchandising/delisted-skus.md";

export interface ReplenishmentRules {
  start: string;
  end: string;
  days: number;
  safetyDays: number;
  coverDays: number;
  leadTimes: Map<string, number>;
  delisted: Set<string>;
}

function renderPolicy(rules: ReplenishmentRules, owner: string): string {
  const rows = [...rules.leadTimes].map(([supplier, days]) => `| ${supplier} | ${days} |`);
  return `# ${STORE_NAME} — Replenishment policy (SOP-OPS-12)

Owner: ${owner}, Inventory Planning

Purchase orders are raised once a week from the sales of the last four weeks.

## This week's run

Demand window: orders placed from **${rules.start}** to **${rules.end}** (${rules.days} days, both included).

## Rules

1. **Demand.** Units sold per SKU in the demand window, from every order line of an order that was not
   cancelled. Daily demand = units sold / ${rules.days}.
2. **Reorder point.** Daily demand × (the supplier's lead time + ${rules.safetyDays} days of safety stock).
   A SKU is reordered when its stock on hand is **below** its reorder point.
3. **Order quantity.** Enough to cover the lead time plus ${rules.coverDays} days of demand:
   daily demand × (lead time + ${rules.coverDays}), rounded **up** to a whole unit, minus the stock on hand.
4. **Never reordered:** SKUs delisted by Merchandising (see \`${DELISTING_MEMO_PATH}\`), digital
   ${GIFT_CARD_CATEGORY.toLowerCase()}, and SKUs with no sales in the window.

## Supplier lead times (calendar days)

| Supplier | Lead time |
|----------|-----------|
${rows.join("\n")}
`;
}

function renderDelisting(skus: Array<{ sku: string; name: string }>, author: string, date: string): string {
  return `# Delisted SKUs

From: ${author}, Merchandising
Date: ${longDate(date)}

We are letting the following lines sell through and dropping them from the range. Do not raise new
purchase orders for them; remaining stock stays on sale.

| SKU | Product |
|-----|---------|
${skus.map((item) => `| ${item.sku} | ${item.name} |`).join("\n")}
`;
}

export function parseReplenishmentRules(policy: string, delisting: string): ReplenishmentRules {
  const window = /from \*\*(\d{4}-\d{2}-\d{2})\*\* to \*\*(\d{4}-\d{2}-\d{2})\*\* \((\d+) days/.exec(policy);
  const safety = /lead time \+ (\d+) days of safety stock/.exec(policy);
  const cover = /lead time plus (\d+) days of demand/.exec(policy);
  if (!window || !safety || !cover) throw new Error("replenishment policy lacks its window or parameters");
  const leadTimes = new Map<string, number>();
  const section = policy.slice(policy.indexOf("## Supplier lead times"));
  for (const match of section.matchAll(/^\| ([^|]+?) \| (\d+) \|$/gm))
    leadTimes.set(match[1] as string, Number(match[2]));
  return {
    start: window[1] as string,
    end: window[2] as string,
    days: Number(window[3]),
    safetyDays: Number(safety[1]),
    coverDays: Number(cover[1]),
    leadTimes,
    delisted: new Set(
      [...delisting.matchAll(/^\| ([A-Z]{3}-\d{4}) \|/gm)].map((match) => match[1] as string),
    ),
  };
}

interface SkuDemand {
  sku: string;
  name: string;
  category: string;
  supplier: string;
  stock: number;
  units: number;
}

function demand(db: Database.Database, start: string, end: string): SkuDemand[] {
  return allRows<SkuDemand>(
    db,
    `SELECT p.sku, p.name, p.category, p.supplier, p.stock_on_hand AS stock,
            COALESCE((SELECT SUM(l.quantity) FROM order_lines l JOIN orders o ON o.id = l.order_id
                       WHERE l.sku = p.sku AND o.status <> 'cancelled'
                         AND substr(o.placed_at, 1, 10) BETWEEN ? AND ?), 0) AS units
       FROM products p ORDER BY p.sku`,
    start,
    end,
  );
}

/** The purchase quantity per SKU the policy calls for (SKUs to reorder only). */
export function computeReorders(db: Database.Database, rules: ReplenishmentRules): Map<string, number> {
  const orders = new Map<string, number>();
  for (const item of demand(db, rules.start, rules.end)) {
    if (item.units === 0 || item.category === GIFT_CARD_CATEGORY || rules.delisted.has(item.sku)) continue;
    const lead = rules.leadTimes.get(item.supplier) ?? Number.NaN;
    // Integer arithmetic: stock < units / days * (lead + safety)  <=>  stock * days < units * (lead + safety).
    if (!(item.stock * rules.days < item.units * (lead + rules.safetyDays))) continue;
    orders.set(item.sku, Math.ceil((item.units * (lead + rules.coverDays)) / rules.days) - item.stock);
  }
  return orders;
}

/**
 * Writes the policy and delisting memo and lowers the stock of about a third of the selling SKUs below
 * their reorder point (stock levels otherwise dwarf a month of demand), two of which are delisted.
 */
export function plantReplenishment(context: GenerateContext): void {
  const { db, random } = context;
  const today = context.referenceDate.slice(0, 10);
  const days = 28;
  const catalogued = allRows<{ supplier: string }>(db, "SELECT DISTINCT supplier FROM products");
  const suppliers = [...new Set([...SUPPLIERS, ...catalogued.map((row) => row.supplier)])].sort();
  const leadTimes = new Map(suppliers.map((supplier) => [supplier, random.pick([5, 7, 10, 12, 18, 21, 25])]));
  const rules: ReplenishmentRules = {
    start: addDays(today, -days),
    end: addDays(today, -1),
    days,
    safetyDays: 7,
    coverDays: 28,
    leadTimes,
    delisted: new Set(),
  };
  const selling = random.shuffle(
    demand(db, rules.start, rules.end).filter(
      (item) => item.units > 0 && item.category !== GIFT_CARD_CATEGORY,
    ),
  );
  const lowered = selling.slice(0, Math.max(5, Math.round(selling.length / 3)));
  if (lowered.length < 5) throw new Error("too few selling SKUs to plan replenishment");
  const setStock = db.prepare("UPDATE products SET stock_on_hand = ? WHERE sku = ?");
  for (const item of lowered) {
    const lead = leadTimes.get(item.supplier) ?? 7;
    const reorderPoint = (item.units * (lead + rules.safetyDays)) / days;
    setStock.run(random.int(0, Math.max(0, Math.ceil(reorderPoint) - 1)), item.sku);
  }
  const delisted = [...lowered.slice(0, 2), ...selling.slice(lowered.length, lowered.length + 1)];
  const owner = `${context.faker.person.firstName()} ${context.faker.person.lastName()}`;
  const author = `${context.faker.person.firstName()} ${context.faker.person.lastName()}`;
  context.writeFile(REPLENISHMENT_POLICY_PATH, renderPolicy(rules, owner));
  context.writeFile(
    DELISTING_MEMO_PATH,
    renderDelisting(
      delisted.map((item) => ({ sku: item.sku, name: item.name })),
      author,
      addDays(today, -random.int(3, 20)),
    ),
  );
}
