import {
  addDays,
  dateTime,
  daysBetween,
  groupBy,
  roundCents,
  weightedIndex,
  weightedPick,
} from "../../envs/index.js";
import type { SeededRandom } from "../../core/index.js";
import { GIFT_CARDS, GIFT_CARD_CATEGORY } from "./catalog.js";
import { priceOn } from "./generate-catalog.js";
import type { CustomerDraft, LineDraft, OrderDraft, PriceChangeDraft, ProductDraft } from "./model.js";
import { PROMOTIONS, SHIPPING, promotionApplies } from "./policy.js";
import { BASE_SIZES } from "./sizes.js";

/** Orders: when they were placed and what they hold, their prices and discounts, and how far they got. */

function pickLines(
  random: SeededRandom,
  products: ProductDraft[],
  weights: number[],
): Array<{ sku: string; quantity: number }> {
  const lineCount = 1 + weightedIndex(random, [45, 30, 17, 8]);
  const chosen = new Map<string, number>();
  let guard = 0;
  while (chosen.size < lineCount && guard < 20) {
    guard += 1;
    const product = weightedPick(random, products, weights);
    if (chosen.has(product.sku)) continue;
    chosen.set(product.sku, 1 + weightedIndex(random, [80, 15, 5]));
  }
  return [...chosen].map(([sku, quantity]) => ({ sku, quantity }));
}

/** An order line before pricing (`priceOrders` fills in the prices from the price history). */
function unpricedLine(
  id: number,
  orderId: number,
  lineNumber: number,
  sku: string,
  quantity: number,
): LineDraft {
  return { id, orderId, lineNumber, sku, quantity, unitPrice: 0, discount: 0, lineTotal: 0 };
}

export function makeOrderSkeletons(
  random: SeededRandom,
  today: string,
  customers: CustomerDraft[],
  products: ProductDraft[],
  closeMonth: { start: string; end: string },
  rows: number,
): OrderDraft[] {
  const shoppers = customers.filter((customer) => customer.kind !== "test");
  const shopperWeights = shoppers.map((customer) => customer.weight);
  const productWeights = products.map((product) => product.popularity);
  const drafts: Array<{ customerId: number; daysAgo: number; seconds: number; pinned: boolean }> = [];
  const draft = (customerId: number, daysAgo: number, seconds: number, pinned = false): void => {
    drafts.push({ customerId, daysAgo, seconds, pinned });
  };
  const shopper = (): number => weightedPick(random, shoppers, shopperWeights).id;
  for (let index = 0; index < BASE_SIZES.orders * rows; index += 1)
    draft(shopper(), random.int(0, BASE_SIZES.historyDays - 1), random.int(6 * 3600, 86_399));
  for (let index = 0; index < BASE_SIZES.saleOrders * rows; index += 1)
    draft(shopper(), random.int(0, 3), random.int(6 * 3600, 86_399));
  // Test accounts must show up in the month being closed, or the finance memo's exclusion would be moot.
  const monthLength = daysBetween(closeMonth.start, closeMonth.end) + 1;
  for (const tester of customers.filter((customer) => customer.kind === "test")) {
    for (let count = 0; count < 2; count += 1)
      draft(
        tester.id,
        daysBetween(addDays(closeMonth.start, random.int(0, monthLength - 1)), today),
        random.int(8 * 3600, 18 * 3600),
        true,
      );
    if (random.chance(0.5))
      draft(tester.id, random.int(0, BASE_SIZES.historyDays - 1), random.int(8 * 3600, 18 * 3600));
  }
  const placed = drafts
    .map((draft) => {
      const placedDate = addDays(today, -draft.daysAgo);
      return { ...draft, placedDate, placedAt: dateTime(placedDate, draft.seconds) };
    })
    .sort((left, right) => left.placedAt.localeCompare(right.placedAt));

  let lineId = 1;
  const orders = placed.map((draft, index): OrderDraft => {
    const id = 200001 + index;
    const lines = pickLines(random, products, productWeights).map((line, lineIndex) =>
      unpricedLine(lineId++, id, lineIndex + 1, line.sku, line.quantity),
    );
    let promoCode: string | null = null;
    if (draft.daysAgo <= 3 && random.chance(0.55)) promoCode = "SALE15";
    else if (draft.daysAgo >= 40 && draft.daysAgo <= 44 && random.chance(0.4)) promoCode = "FLASH20";
    else if (random.chance(0.12)) promoCode = "SAVE10";
    const methodRoll = random.next();
    const paymentMethod =
      methodRoll < 0.68
        ? "card"
        : methodRoll < 0.88
          ? "paypal"
          : methodRoll < 0.96
            ? "apple_pay"
            : "store_credit";
    return {
      id,
      customerId: draft.customerId,
      placedDate: draft.placedDate,
      placedAt: draft.placedAt,
      daysAgo: draft.daysAgo,
      status: "pending",
      channel: random.chance(0.38) ? "mobile_app" : "web",
      promoCode,
      lines,
      subtotal: 0,
      discountTotal: 0,
      shippingFee: 0,
      tax: 0,
      total: 0,
      shippingMethod: random.chance(0.1) ? "expedited" : "standard",
      shippedAt: null,
      deliveredAt: null,
      cancelReason: null,
      paymentId: 500001 + index,
      paymentMethod,
      cardLast4: paymentMethod === "card" ? String(random.int(0, 9999)).padStart(4, "0") : null,
      pinned: draft.pinned,
    };
  });
  // Gift cards must appear in the closed month so that excluding them from revenue matters.
  const monthOrders = orders.filter(
    (order) => order.placedDate >= closeMonth.start && order.placedDate <= closeMonth.end && !order.pinned,
  );
  const hasGiftCard = monthOrders.some((order) => order.lines.some((line) => line.sku.startsWith("GFT-")));
  if (!hasGiftCard && monthOrders.length > 0) {
    const order = random.pick(monthOrders);
    const card = random.pick(GIFT_CARDS);
    if (!order.lines.some((line) => line.sku === card.sku))
      order.lines.push(unpricedLine(lineId++, order.id, order.lines.length + 1, card.sku, 1));
  }
  return orders;
}

export function priceOrders(
  orders: OrderDraft[],
  productBySku: Map<string, ProductDraft>,
  priceChanges: PriceChangeDraft[],
): void {
  const changesBySku = groupBy(priceChanges, (change) => change.sku);
  for (const order of orders) {
    const promotion = PROMOTIONS.find((candidate) => candidate.code === order.promoCode);
    let subtotal = 0;
    let discountTotal = 0;
    let taxable = 0;
    for (const line of order.lines) {
      const product = productBySku.get(line.sku);
      if (!product) throw new Error(`unknown sku ${line.sku}`);
      line.unitPrice = priceOn(line.sku, order.placedDate, product.basePrice, changesBySku);
      const gross = roundCents(line.unitPrice * line.quantity);
      line.discount =
        promotion && promotionApplies(promotion, product.category)
          ? roundCents((gross * promotion.percentOff) / 100)
          : 0;
      line.lineTotal = roundCents(gross - line.discount);
      subtotal += gross;
      discountTotal += line.discount;
      if (product.category !== GIFT_CARD_CATEGORY) taxable += line.lineTotal;
    }
    order.subtotal = roundCents(subtotal);
    order.discountTotal = roundCents(discountTotal);
    const merchandise = roundCents(order.subtotal - order.discountTotal);
    order.shippingFee =
      order.shippingMethod === "expedited"
        ? SHIPPING.expeditedFeeUsd
        : merchandise >= SHIPPING.freeThresholdUsd
          ? 0
          : SHIPPING.standardFeeUsd;
    order.tax = roundCents(taxable * SHIPPING.taxRate);
    order.total = roundCents(merchandise + order.shippingFee + order.tax);
  }
}

export function assignFulfilment(
  random: SeededRandom,
  today: string,
  orders: OrderDraft[],
  closeMonth: { start: string; end: string },
  testAccounts: Set<number>,
): void {
  const shipTime = (date: string): string => dateTime(date, random.int(9 * 3600, 19 * 3600));
  for (const order of orders) {
    const age = order.daysAgo;
    if (!order.pinned && random.chance(0.04)) {
      order.status = "cancelled";
      order.cancelReason = weightedPick(
        random,
        ["customer_request", "payment_failed", "out_of_stock"],
        [60, 25, 15],
      );
      continue;
    }
    if (age <= 1) order.status = "pending";
    else if (age <= 3) {
      if (random.chance(0.65)) order.status = "processing";
      else {
        order.status = "shipped";
        order.shippedAt = shipTime(addDays(order.placedDate, random.int(1, age)));
      }
    } else {
      const shipped = addDays(order.placedDate, random.int(1, 2));
      const delivered = addDays(shipped, random.int(2, 5));
      order.shippedAt = shipTime(shipped);
      if (delivered <= addDays(today, -1)) {
        order.status = "delivered";
        order.deliveredAt = shipTime(delivered);
      } else order.status = "shipped";
    }
  }
  // At least one cancelled order in the closed month keeps "exclude cancelled orders" meaningful.
  const monthOrders = orders.filter(
    (order) =>
      order.placedDate >= closeMonth.start &&
      order.placedDate <= closeMonth.end &&
      !testAccounts.has(order.customerId) &&
      order.lines.some((line) => !line.sku.startsWith("GFT-")),
  );
  if (!monthOrders.some((order) => order.status === "cancelled") && monthOrders.length > 0) {
    const order = random.pick(monthOrders);
    order.status = "cancelled";
    order.cancelReason = "customer_request";
    order.shippedAt = null;
    order.deliveredAt = null;
  }
}
