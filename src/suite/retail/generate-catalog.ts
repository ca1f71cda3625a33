import { addDays, between, groupBy, roundCents, weightedPick } from "../../envs/index.js";
import type { SeededRandom } from "../../core/index.js";
import { CATEGORIES, GIFT_CARDS, GIFT_CARD_CATEGORY, INTERNAL_SUPPLIER } from "./catalog.js";
import type { OrderDraft, PriceChangeDraft, ProductDraft } from "./model.js";
import { BASE_SIZES } from "./sizes.js";

/** Prices end in .99, .95 or .49 like a shop's; never below $4.95. */
export function charmPrice(random: SeededRandom, value: number): number {
  const ending = random.pick([0.01, 0.01, 0.05, 0.51]);
  return Math.max(4.95, roundCents(Math.round(value) - ending));
}

export function makeProducts(random: SeededRandom, rows: number): ProductDraft[] {
  const products: ProductDraft[] = [];
  const usedSkus = new Set<string>();
  const usedNames = new Set<string>();
  const count = BASE_SIZES.products * rows;
  for (let index = 0; index < count; index += 1) {
    const category = weightedPick(
      random,
      CATEGORIES,
      CATEGORIES.map((spec) => spec.weight),
    );
    const [item, low, high] = random.pick(category.items);
    const brand = random.pick(category.brands);
    let name = `${brand} ${item}`;
    if (usedNames.has(name)) name = `${name} - ${random.pick(category.variants)}`;
    if (usedNames.has(name)) name = `${name} ${random.int(2, 9)}`;
    usedNames.add(name);
    let sku = "";
    do sku = `${category.skuPrefix}-${random.int(1000, 9999)}`;
    while (usedSkus.has(sku));
    usedSkus.add(sku);
    const basePrice = charmPrice(random, between(random, low, high));
    products.push({
      sku,
      name,
      category: category.name,
      brand,
      supplier: random.pick(category.suppliers),
      basePrice,
      unitCost: roundCents(basePrice * between(random, 0.42, 0.66)),
      stockOnHand: random.int(0, 240),
      popularity: 0.3 + random.next() ** 2 * 4,
    });
  }
  for (const card of GIFT_CARDS) {
    products.push({
      sku: card.sku,
      name: card.name,
      category: GIFT_CARD_CATEGORY,
      brand: "Larkspur",
      supplier: INTERNAL_SUPPLIER,
      basePrice: card.price,
      unitCost: card.price,
      stockOnHand: 9999,
      popularity: 0.9,
    });
  }
  return products.sort((left, right) => left.sku.localeCompare(right.sku));
}

export function makePriceChanges(
  random: SeededRandom,
  today: string,
  products: ProductDraft[],
  orders: OrderDraft[],
  factors: { rows: number; files: number },
  merchandisers: string[],
): { priceChanges: PriceChangeDraft[]; batchDates: string[] } {
  const batchCount = 3 * factors.files;
  const perBatch = Math.round((8 * factors.rows) / factors.files);
  const firstDaysAgo = BASE_SIZES.historyDays - 6;
  const lastDaysAgo = 3;
  const batchDates: string[] = [];
  for (let batch = 0; batch < batchCount; batch += 1) {
    const daysAgo = Math.round(
      firstDaysAgo - (batch * (firstDaysAgo - lastDaysAgo)) / Math.max(1, batchCount - 1),
    );
    batchDates.push(addDays(today, -daysAgo));
  }
  const repriceable = products.filter((product) => product.category !== GIFT_CARD_CATEGORY);
  const current = new Map(repriceable.map((product) => [product.sku, product.basePrice]));
  const lastReason = new Map<string, string>();
  const sales = orders.flatMap((order) =>
    order.lines.map((line) => ({ sku: line.sku, date: order.placedDate })),
  );
  const salesDates = groupBy(
    sales,
    (sale) => sale.sku,
    (sale) => sale.date,
  );

  const reasons = ["promotion", "competitor_match", "clearance", "cost_increase", "promotion_ended"];
  const reasonWeights = [30, 25, 16, 19, 10];
  const priceChanges: PriceChangeDraft[] = [];
  for (const date of batchDates) {
    const used = new Set<string>();
    const recentlySold = repriceable.filter((product) =>
      (salesDates.get(product.sku) ?? []).some((sold) => sold < date && sold >= addDays(date, -30)),
    );
    for (let index = 0; index < perBatch; index += 1) {
      let reason = weightedPick(random, reasons, reasonWeights);
      let candidates = repriceable;
      if (reason === "promotion_ended") {
        candidates = repriceable.filter((product) => lastReason.get(product.sku) === "promotion");
        if (candidates.length === 0) {
          reason = "cost_increase";
          candidates = repriceable;
        }
      } else if (reason !== "cost_increase" && random.chance(0.8) && recentlySold.length > 0) {
        // Markdowns mostly hit products people bought recently, which is what makes price matching matter.
        candidates = recentlySold;
      }
      const available = candidates.filter((product) => !used.has(product.sku));
      if (available.length === 0) continue;
      const product = random.pick(available);
      used.add(product.sku);
      const oldPrice = current.get(product.sku) ?? product.basePrice;
      let newPrice: number;
      if (reason === "cost_increase" || reason === "promotion_ended") {
        newPrice = charmPrice(random, oldPrice * between(random, 1.05, 1.18));
        if (newPrice <= oldPrice) newPrice = roundCents(oldPrice + 1);
      } else {
        const depth = reason === "clearance" ? between(random, 0.55, 0.75) : between(random, 0.72, 0.93);
        newPrice = charmPrice(random, oldPrice * depth);
        if (newPrice >= oldPrice) newPrice = roundCents(oldPrice - 1);
      }
      current.set(product.sku, newPrice);
      lastReason.set(product.sku, reason);
      priceChanges.push({
        sku: product.sku,
        productName: product.name,
        oldPrice,
        newPrice,
        effectiveDate: date,
        reason,
        approvedBy: random.pick(merchandisers),
      });
    }
  }
  return { priceChanges, batchDates };
}

/** The list price in effect on a date: changes apply from their effective date on. */
export function priceOn(
  sku: string,
  date: string,
  basePrice: number,
  changesBySku: Map<string, PriceChangeDraft[]>,
): number {
  let price = basePrice;
  for (const change of changesBySku.get(sku) ?? []) if (change.effectiveDate <= date) price = change.newPrice;
  return price;
}
