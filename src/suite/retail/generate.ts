import type { SeededRandom } from "../../core/index.js";
import type { GenerateContext } from "../../envs/index.js";
import {
  CATEGORIES,
  ELECTRONICS_CATEGORY,
  GIFT_CARDS,
  GIFT_CARD_CATEGORY,
  INTERNAL_SUPPLIER,
  PERSONAL_CARE_CATEGORY,
  STORE_EMAIL_DOMAIN,
  SUPPLIERS,
} from "./catalog.js";
import { addDays, dateTime, daysBetween, previousMonth } from "./dates.js";
import { writeRetailDocuments } from "./documents.js";
import { computePriceMatchCredits } from "./expectations.js";
import type {
  CustomerDraft,
  LineDraft,
  NoticeDraft,
  OrderDraft,
  PriceChangeDraft,
  ProductDraft,
  RefundDraft,
  ReturnDraft,
  WatchListEntry,
} from "./model.js";
import { roundCents } from "./money.js";
import {
  PROMOTIONS,
  RETURN_POLICY,
  SHIPPING,
  decideReturn,
  promotionApplies,
} from "./policy.js";

/** Base sizes at v0; the big tables are multiplied by `factors.rows`. */
const BASE = {
  products: 44,
  customers: 74,
  orders: 134,
  saleOrders: 12,
  requestedReturns: 14,
  historyDays: 92,
  testAccounts: 4,
};

const HIGH_VALUE_LIMIT = RETURN_POLICY.approvalThresholdUsd;

function weightedIndex(random: SeededRandom, weights: readonly number[]): number {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let threshold = random.next() * total;
  for (let index = 0; index < weights.length; index += 1) {
    threshold -= weights[index] ?? 0;
    if (threshold < 0) return index;
  }
  return weights.length - 1;
}

function weightedPick<T>(random: SeededRandom, items: readonly T[], weights: readonly number[]): T {
  return items[weightedIndex(random, weights)] as T;
}

/** Prices end in .99, .95 or .49 like a shop's; never below $4.95. */
function charmPrice(random: SeededRandom, value: number): number {
  const ending = random.pick([0.01, 0.01, 0.05, 0.51]);
  return Math.max(4.95, roundCents(Math.round(value) - ending));
}

function between(random: SeededRandom, low: number, high: number): number {
  return low + random.next() * (high - low);
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "");
}

export interface RetailData {
  today: string;
  products: ProductDraft[];
  customers: CustomerDraft[];
  orders: OrderDraft[];
  priceChanges: PriceChangeDraft[];
  batchDates: string[];
  returns: ReturnDraft[];
  refunds: RefundDraft[];
  watchList: WatchListEntry[];
  notices: NoticeDraft[];
  merchandisers: string[];
}

export function generateRetail(context: GenerateContext): void {
  const { random, faker, factors } = context;
  const today = context.referenceDate.slice(0, 10);
  const closeMonth = previousMonth(today);
  const merchandisers = [0, 1, 2].map(() => `${faker.person.firstName()} ${faker.person.lastName()}`);

  const products = makeProducts(random, factors.rows);
  const productBySku = new Map(products.map((product) => [product.sku, product]));
  const customers = makeCustomers(context);
  const orders = makeOrderSkeletons(random, today, customers, products, closeMonth, factors.rows);
  const { priceChanges, batchDates } = makePriceChanges(random, today, products, orders, factors, merchandisers);
  priceOrders(orders, productBySku, priceChanges);
  assignFulfilment(random, today, orders, closeMonth);

  const returns: ReturnDraft[] = [];
  const refunds: RefundDraft[] = [];
  makeHistoricalReturns(random, today, orders, productBySku, returns, refunds);
  makeGoodwillRefunds(random, today, orders, refunds, factors.rows, closeMonth, testAccountIds(customers));
  const watchList = makeRequestedReturnsAndWatchList(context, orders, customers, productBySku, returns);
  const notices = makeNotices(random, today, orders, products, factors);

  numberReturnsAndRefunds(returns, refunds);
  const data: RetailData = {
    today,
    products,
    customers,
    orders,
    priceChanges,
    batchDates,
    returns,
    refunds,
    watchList,
    notices,
    merchandisers,
  };
  insertRows(context, data);
  plantPriceMatchHistory(context, data);
  refreshPaymentStatuses(context);
  writeRetailDocuments(context, data);
}

function testAccountIds(customers: CustomerDraft[]): Set<number> {
  return new Set(customers.filter((customer) => customer.kind === "test").map((customer) => customer.id));
}

function makeProducts(random: SeededRandom, rows: number): ProductDraft[] {
  const products: ProductDraft[] = [];
  const usedSkus = new Set<string>();
  const usedNames = new Set<string>();
  const count = BASE.products * rows;
  for (let index = 0; index < count; index += 1) {
    const category = weightedPick(
      random,
      CATEGORIES,
      CATEGORIES.map((spec) => spec.weight),
    );
    const [item, low, high] = random.pick(category.items);
    let name = `${random.pick(category.brands)} ${item}`;
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
      brand: name.split(" ")[0] ?? category.brands[0] ?? "",
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

function makeCustomers(context: GenerateContext): CustomerDraft[] {
  const { random, faker, factors } = context;
  const today = context.referenceDate.slice(0, 10);
  const count = BASE.customers * factors.rows;
  const testPositions = new Set<number>();
  while (testPositions.size < BASE.testAccounts) testPositions.add(random.int(5, count - 1));
  const employeePositions = new Set<number>();
  while (employeePositions.size < 2) {
    const position = random.int(5, count - 1);
    if (!testPositions.has(position)) employeePositions.add(position);
  }
  const usedEmails = new Set<string>();
  const customers: CustomerDraft[] = [];
  let testNumber = 0;
  const mailDomains = ["gmail.com", "yahoo.com", "outlook.com", "icloud.com", "hotmail.com", "proton.me", "aol.com"];
  for (let index = 0; index < count; index += 1) {
    const firstName = faker.person.firstName();
    const lastName = faker.person.lastName();
    let kind: CustomerDraft["kind"] = "shopper";
    let email: string;
    let first = firstName;
    let last = lastName;
    if (testPositions.has(index)) {
      kind = "test";
      testNumber += 1;
      first = "QA";
      last = `Checkout ${testNumber}`;
      email = `qa-checkout-${testNumber}@${STORE_EMAIL_DOMAIN}`;
    } else if (employeePositions.has(index)) {
      kind = "employee";
      email = `${slug(firstName)}.${slug(lastName)}@${STORE_EMAIL_DOMAIN}`;
    } else {
      const style = random.int(0, 3);
      const base =
        style === 0
          ? `${slug(firstName)}.${slug(lastName)}`
          : style === 1
            ? `${slug(firstName)[0] ?? "x"}${slug(lastName)}`
            : style === 2
              ? `${slug(firstName)}${slug(lastName)}${random.int(1, 99)}`
              : `${slug(lastName)}.${slug(firstName)}${random.int(70, 99)}`;
      email = `${base}@${random.pick(mailDomains)}`;
    }
    while (usedEmails.has(email)) email = email.replace("@", `${random.int(0, 9)}@`);
    usedEmails.add(email);
    const tierRoll = random.next();
    customers.push({
      id: 10001 + index,
      firstName: first,
      lastName: last,
      email,
      phone: faker.phone.number({ style: "national" }),
      city: faker.location.city(),
      state: faker.location.state({ abbreviated: true }),
      postalCode: faker.location.zipCode("#####"),
      loyaltyTier: kind === "test" ? "standard" : tierRoll < 0.13 ? "gold" : tierRoll < 0.38 ? "silver" : "standard",
      marketingOptIn: random.chance(0.55),
      createdAt: dateTime(addDays(today, -random.int(130, 1100)), random.int(0, 86_399)),
      kind,
      weight: kind === "test" ? 0.6 : 0.4 + random.next() ** 3 * 5,
    });
  }
  return customers;
}

function pickLines(random: SeededRandom, products: ProductDraft[], weights: number[]): Array<{ sku: string; quantity: number }> {
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

function makeOrderSkeletons(
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
  for (let index = 0; index < BASE.orders * rows; index += 1)
    drafts.push({
      customerId: weightedPick(random, shoppers, shopperWeights).id,
      daysAgo: random.int(0, BASE.historyDays - 1),
      seconds: random.int(6 * 3600, 86_399),
      pinned: false,
    });
  for (let index = 0; index < BASE.saleOrders * rows; index += 1)
    drafts.push({
      customerId: weightedPick(random, shoppers, shopperWeights).id,
      daysAgo: random.int(0, 3),
      seconds: random.int(6 * 3600, 86_399),
      pinned: false,
    });
  // Test accounts must show up in the month being closed, or the finance memo's exclusion would be moot.
  const monthLength = daysBetween(closeMonth.start, closeMonth.end) + 1;
  for (const tester of customers.filter((customer) => customer.kind === "test")) {
    for (let count = 0; count < 2; count += 1)
      drafts.push({
        customerId: tester.id,
        daysAgo: daysBetween(addDays(closeMonth.start, random.int(0, monthLength - 1)), today),
        seconds: random.int(8 * 3600, 18 * 3600),
        pinned: true,
      });
    if (random.chance(0.5))
      drafts.push({
        customerId: tester.id,
        daysAgo: random.int(0, BASE.historyDays - 1),
        seconds: random.int(8 * 3600, 18 * 3600),
        pinned: false,
      });
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
    const lines: LineDraft[] = pickLines(random, products, productWeights).map((line, lineIndex) => ({
      id: lineId++,
      orderId: id,
      lineNumber: lineIndex + 1,
      sku: line.sku,
      quantity: line.quantity,
      unitPrice: 0,
      discount: 0,
      lineTotal: 0,
    }));
    let promoCode: string | null = null;
    if (draft.daysAgo <= 3 && random.chance(0.55)) promoCode = "SALE15";
    else if (draft.daysAgo >= 40 && draft.daysAgo <= 44 && random.chance(0.4)) promoCode = "FLASH20";
    else if (random.chance(0.12)) promoCode = "SAVE10";
    const methodRoll = random.next();
    const paymentMethod = methodRoll < 0.68 ? "card" : methodRoll < 0.88 ? "paypal" : methodRoll < 0.96 ? "apple_pay" : "store_credit";
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
      order.lines.push({
        id: lineId++,
        orderId: order.id,
        lineNumber: order.lines.length + 1,
        sku: card.sku,
        quantity: 1,
        unitPrice: 0,
        discount: 0,
        lineTotal: 0,
      });
  }
  return orders;
}

function makePriceChanges(
  random: SeededRandom,
  today: string,
  products: ProductDraft[],
  orders: OrderDraft[],
  factors: { rows: number; files: number },
  merchandisers: string[],
): { priceChanges: PriceChangeDraft[]; batchDates: string[] } {
  const batchCount = 3 * factors.files;
  const perBatch = Math.round((8 * factors.rows) / factors.files);
  const firstDaysAgo = BASE.historyDays - 6;
  const lastDaysAgo = 3;
  const batchDates: string[] = [];
  for (let batch = 0; batch < batchCount; batch += 1) {
    const daysAgo = Math.round(firstDaysAgo - (batch * (firstDaysAgo - lastDaysAgo)) / Math.max(1, batchCount - 1));
    batchDates.push(addDays(today, -daysAgo));
  }
  const repriceable = products.filter((product) => product.category !== GIFT_CARD_CATEGORY);
  const current = new Map(repriceable.map((product) => [product.sku, product.basePrice]));
  const lastReason = new Map<string, string>();
  const salesDates = new Map<string, string[]>();
  for (const order of orders)
    for (const line of order.lines) salesDates.set(line.sku, [...(salesDates.get(line.sku) ?? []), order.placedDate]);

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

function priceOrders(
  orders: OrderDraft[],
  productBySku: Map<string, ProductDraft>,
  priceChanges: PriceChangeDraft[],
): void {
  const changesBySku = new Map<string, PriceChangeDraft[]>();
  for (const change of priceChanges) changesBySku.set(change.sku, [...(changesBySku.get(change.sku) ?? []), change]);
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

function assignFulfilment(
  random: SeededRandom,
  today: string,
  orders: OrderDraft[],
  closeMonth: { start: string; end: string },
): void {
  const shipTime = (date: string): string => dateTime(date, random.int(9 * 3600, 19 * 3600));
  for (const order of orders) {
    const age = order.daysAgo;
    if (!order.pinned && random.chance(0.04)) {
      order.status = "cancelled";
      order.cancelReason = weightedPick(random, ["customer_request", "payment_failed", "out_of_stock"], [60, 25, 15]);
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
      !order.pinned &&
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

function reasonFor(random: SeededRandom, category: string): string {
  if (category === "Apparel") return weightedPick(random, ["wrong_size", "changed_mind", "not_as_described", "defective"], [50, 25, 15, 10]);
  return weightedPick(
    random,
    ["changed_mind", "not_as_described", "defective", "damaged_in_transit", "wrong_size"],
    [35, 25, 22, 13, 5],
  );
}

function conditionFor(random: SeededRandom, reason: string): ReturnDraft["itemCondition"] {
  if (reason === "damaged_in_transit") return "damaged";
  if (reason === "defective") return random.chance(0.8) ? "opened" : "damaged";
  return random.chance(0.45) ? "unopened" : "opened";
}

const COMMENTS: Record<string, string[]> = {
  changed_mind: [
    "Decided I don't need it after all.",
    "Bought a different one in store.",
    "Gift recipient already had one.",
    "Not what I expected, would like a refund.",
  ],
  wrong_size: ["Runs small, need to return.", "Too big in the shoulders.", "Ordered the wrong size by mistake."],
  not_as_described: [
    "Color is quite different from the photos.",
    "Listing said it includes a case, it doesn't.",
    "Material feels cheaper than described.",
  ],
  defective: [
    "Stopped working after a week.",
    "Will not power on.",
    "Zipper broke on first use.",
    "Makes a grinding noise.",
  ],
  damaged_in_transit: ["Box arrived crushed, item cracked.", "Arrived with a dent on the side.", "Glass shattered in transit."],
};

function makeHistoricalReturns(
  random: SeededRandom,
  today: string,
  orders: OrderDraft[],
  productBySku: Map<string, ProductDraft>,
  returns: ReturnDraft[],
  refunds: RefundDraft[],
): void {
  for (const order of orders) {
    if (order.status !== "delivered" || !order.deliveredAt) continue;
    for (const line of order.lines) {
      const product = productBySku.get(line.sku);
      if (!product || product.category === GIFT_CARD_CATEGORY || !random.chance(0.065)) continue;
      const requestedDate = addDays(order.deliveredAt, random.int(1, 20));
      if (requestedDate > addDays(today, -13)) continue;
      const reason = reasonFor(random, product.category);
      const itemCondition =
        product.category === PERSONAL_CARE_CATEGORY && !RETURN_POLICY.defectReasons.includes(reason)
          ? "unopened"
          : conditionFor(random, reason);
      const quantity = random.int(1, line.quantity);
      const value = roundCents((line.lineTotal / line.quantity) * quantity);
      const decision = decideReturn({
        category: product.category,
        reason,
        itemCondition,
        daysSinceDelivery: daysBetween(order.deliveredAt, requestedDate),
        merchandiseValue: value,
        customerWatchListed: false,
      });
      const draft: ReturnDraft = {
          id: 0,
        orderId: order.id,
        lineId: line.id,
        sku: line.sku,
        quantity,
        reason,
        itemCondition,
        comment: random.chance(0.8) ? random.pick(COMMENTS[reason] ?? ["-"]) : null,
        requestedAt: dateTime(requestedDate, random.int(7 * 3600, 23 * 3600)),
        status: "requested",
        restockingFee: 0,
        decisionNote: null,
      };
      if (decision.status === "rejected") {
        draft.status = "rejected";
        draft.decisionNote = `Rejected: ${decision.rule}.`;
      } else if (decision.status === "escalated") {
        draft.status = random.chance(0.5) ? "escalated" : "refunded";
        draft.decisionNote =
          draft.status === "escalated"
            ? "Escalated: above approval threshold, awaiting manager."
            : "Manager approved after escalation.";
      } else {
        draft.restockingFee = roundCents((value * decision.restockingFeePercent) / 100);
        draft.status = weightedPick(random, ["refunded", "received", "approved"], [75, 13, 12]);
        draft.decisionNote =
          decision.restockingFeePercent > 0
            ? `Approved with ${decision.restockingFeePercent}% restocking fee (opened).`
            : "Approved per returns policy.";
      }
      if (draft.status === "refunded") {
        const refundDate = addDays(requestedDate, random.int(5, 12));
        if (refundDate > addDays(today, -1)) draft.status = "received";
        else
          refunds.push({
            id: 0,
            orderId: order.id,
            lineId: line.id,
            paymentId: order.paymentId,
            returnId: null,
            kind: "return",
            amount: roundCents(value - draft.restockingFee),
            createdAt: dateTime(refundDate, random.int(9 * 3600, 18 * 3600)),
            note: `Refund for return of ${quantity} x ${line.sku}`,
            source: draft,
          });
      }
      returns.push(draft);
    }
  }
}

function makeGoodwillRefunds(
  random: SeededRandom,
  today: string,
  orders: OrderDraft[],
  refunds: RefundDraft[],
  rows: number,
  closeMonth: { start: string; end: string },
  testAccounts: Set<number>,
): void {
  const delivered = orders.filter(
    (order) => order.status === "delivered" && order.deliveredAt && order.lines.some((line) => !line.sku.startsWith("GFT-")),
  );
  // The first courtesy credit lands on an order of the month being closed, so refunds always matter there.
  const inMonth = delivered.filter(
    (order) =>
      order.placedDate >= closeMonth.start && order.placedDate <= closeMonth.end && !testAccounts.has(order.customerId),
  );
  for (let index = 0; index < 3 * rows && delivered.length > 0; index += 1) {
    const order = random.pick(index === 0 && inMonth.length > 0 ? inMonth : delivered);
    const line = random.pick(order.lines.filter((candidate) => !candidate.sku.startsWith("GFT-")));
    const proposed = addDays(order.deliveredAt ?? order.placedDate, random.int(1, 6));
    const created = proposed > today ? today : proposed;
    refunds.push({
      id: 0,
      orderId: order.id,
      lineId: line.id,
      paymentId: order.paymentId,
      returnId: null,
      kind: "goodwill",
      amount: roundCents(Math.min(line.lineTotal, random.pick([5, 10, 15, 20]))),
      createdAt: dateTime(created, random.int(9 * 3600, 18 * 3600)),
      note: random.pick([
        "Courtesy credit: late delivery.",
        "Courtesy credit: missing assembly hardware sent separately.",
        "Courtesy credit: packaging damage, customer kept item.",
      ]),
    });
  }
}

interface Scenario {
  name: string;
  categories: string[];
  reasons: string[];
  condition: ReturnDraft["itemCondition"] | "any";
  /** Days from delivery to request, inclusive range. */
  offset: [number, number];
  value: "low" | "high";
  watch: "active" | "cleared" | null;
}

const EVERYDAY = ["Home & Kitchen", "Sports & Outdoors", "Toys & Games", "Books"];

/**
 * Each pending request is built to exercise one clause of the returns policy, so that every clause
 * (and each trap next to it) is present at every scale.
 */
const SCENARIOS: Scenario[] = [
  { name: "standard-approve", categories: EVERYDAY, reasons: ["changed_mind", "not_as_described"], condition: "any", offset: [2, 28], value: "low", watch: null },
  { name: "apparel-long-window", categories: ["Apparel"], reasons: ["wrong_size"], condition: "unopened", offset: [32, 45], value: "low", watch: null },
  { name: "out-of-window", categories: EVERYDAY, reasons: ["changed_mind"], condition: "unopened", offset: [31, 44], value: "low", watch: null },
  { name: "window-boundary", categories: EVERYDAY, reasons: ["not_as_described", "changed_mind"], condition: "opened", offset: [30, 30], value: "low", watch: null },
  { name: "electronics-late", categories: [ELECTRONICS_CATEGORY], reasons: ["changed_mind"], condition: "unopened", offset: [17, 29], value: "low", watch: null },
  { name: "electronics-opened-fee", categories: [ELECTRONICS_CATEGORY], reasons: ["changed_mind", "not_as_described"], condition: "opened", offset: [2, 15], value: "low", watch: null },
  { name: "electronics-defective", categories: [ELECTRONICS_CATEGORY], reasons: ["defective"], condition: "opened", offset: [18, 58], value: "low", watch: null },
  { name: "personal-care-opened", categories: [PERSONAL_CARE_CATEGORY], reasons: ["changed_mind", "not_as_described"], condition: "opened", offset: [2, 20], value: "low", watch: null },
  { name: "personal-care-unopened", categories: [PERSONAL_CARE_CATEGORY], reasons: ["changed_mind"], condition: "unopened", offset: [2, 25], value: "low", watch: null },
  { name: "gift-card", categories: [GIFT_CARD_CATEGORY], reasons: ["changed_mind"], condition: "unopened", offset: [1, 12], value: "low", watch: null },
  { name: "above-threshold", categories: [ELECTRONICS_CATEGORY, "Home & Kitchen", "Sports & Outdoors"], reasons: ["changed_mind", "not_as_described", "defective"], condition: "unopened", offset: [2, 14], value: "high", watch: null },
  { name: "watch-listed", categories: EVERYDAY.concat("Apparel"), reasons: ["changed_mind", "not_as_described"], condition: "unopened", offset: [2, 20], value: "low", watch: "active" },
  { name: "watch-cleared", categories: EVERYDAY.concat("Apparel"), reasons: ["changed_mind", "wrong_size"], condition: "unopened", offset: [2, 20], value: "low", watch: "cleared" },
  { name: "transit-damage-late", categories: EVERYDAY, reasons: ["damaged_in_transit"], condition: "damaged", offset: [33, 58], value: "low", watch: null },
];

const FRAUD_REASONS = [
  "Chargeback filed on two prior orders",
  "Multiple accounts sharing one shipping address",
  "Serial returns of high-value items",
  "Card testing pattern flagged by payment processor",
  "Return of counterfeit item reported by warehouse",
];

function makeRequestedReturnsAndWatchList(
  context: GenerateContext,
  orders: OrderDraft[],
  customers: CustomerDraft[],
  productBySku: Map<string, ProductDraft>,
  returns: ReturnDraft[],
): WatchListEntry[] {
  const { random, faker, factors } = context;
  const today = context.referenceDate.slice(0, 10);
  const earliestRequest = addDays(today, -12);
  const returnedLines = new Set(returns.map((item) => item.lineId));
  const usedCustomers = new Set<number>();
  const candidates = orders
    .filter((order) => order.status === "delivered" && order.deliveredAt)
    .flatMap((order) => order.lines.map((line) => ({ order, line, product: productBySku.get(line.sku) as ProductDraft })));
  const customerById = new Map(customers.map((customer) => [customer.id, customer]));
  const watchList: WatchListEntry[] = [];
  const fraudAnalysts = [0, 1].map(() => `${faker.person.firstName()} ${faker.person.lastName()}`);

  const addWatch = (customer: CustomerDraft, status: WatchListEntry["status"]): void => {
    const mixedCase = random.chance(0.35);
    const email = mixedCase
      ? customer.email.replace(/^([a-z])/, (letter) => letter.toUpperCase()).replace(/@(.*)$/, (domain) => domain.toUpperCase())
      : customer.email;
    watchList.push({
      email,
      customerName: `${customer.firstName} ${customer.lastName}`,
      reason: random.pick(FRAUD_REASONS),
      addedOn: addDays(today, -random.int(15, 200)),
      status,
      addedBy: random.pick(fraudAnalysts),
    });
  };

  const total = BASE.requestedReturns * factors.rows;
  for (let index = 0; index < total; index += 1) {
    const scenario = SCENARIOS[index % SCENARIOS.length] as Scenario;
    const pool = random.shuffle(
      candidates.filter(
        ({ order, line, product }) =>
          scenario.categories.includes(product.category) &&
          !returnedLines.has(line.id) &&
          customerById.get(order.customerId)?.kind === "shopper" &&
          (scenario.watch === null || !usedCustomers.has(order.customerId)),
      ),
    );
    for (const { order, line } of pool) {
      const delivered = (order.deliveredAt ?? "").slice(0, 10);
      const low = Math.max(scenario.offset[0], daysBetween(delivered, earliestRequest));
      const high = Math.min(scenario.offset[1], daysBetween(delivered, today));
      if (low > high) continue;
      const unitValue = line.lineTotal / line.quantity;
      let quantity = random.int(1, line.quantity);
      if (scenario.value === "high") {
        quantity = line.quantity;
        if (unitValue * quantity <= HIGH_VALUE_LIMIT + 1) continue;
      } else if (unitValue * quantity > HIGH_VALUE_LIMIT - 1) {
        quantity = 1;
        if (unitValue > HIGH_VALUE_LIMIT - 1) continue;
      }
      const offset = random.int(low, high);
      const requestedDate = addDays(delivered, offset);
      const reason = random.pick(scenario.reasons);
      const itemCondition = scenario.condition === "any" ? conditionFor(random, reason) : scenario.condition;
      returns.push({
        id: 0,
        orderId: order.id,
        lineId: line.id,
        sku: line.sku,
        quantity,
        reason,
        itemCondition,
        comment: random.chance(0.85) ? random.pick(COMMENTS[reason] ?? ["-"]) : null,
        requestedAt: dateTime(requestedDate, random.int(7 * 3600, 23 * 3600)),
        status: "requested",
        restockingFee: 0,
        decisionNote: null,
      });
      returnedLines.add(line.id);
      usedCustomers.add(order.customerId);
      const customer = customerById.get(order.customerId);
      if (scenario.watch && customer) addWatch(customer, scenario.watch);
      break;
    }
  }

  // Other watch-list entries: people with no open request (active) and a few cleared ones.
  const others = random.shuffle(customers.filter((customer) => customer.kind === "shopper" && !usedCustomers.has(customer.id)));
  const extraCount = 3 + 2 * factors.rows;
  for (let index = 0; index < extraCount && index < others.length; index += 1)
    addWatch(others[index] as CustomerDraft, random.chance(0.7) ? "active" : "cleared");
  return watchList.sort((left, right) => left.addedOn.localeCompare(right.addedOn));
}

function makeNotices(
  random: SeededRandom,
  today: string,
  orders: OrderDraft[],
  products: ProductDraft[],
  factors: { rows: number; files: number },
): NoticeDraft[] {
  const open = orders.filter((order) => order.status === "pending" || order.status === "processing");
  const openSkus = new Map<string, OrderDraft[]>();
  for (const order of open)
    for (const line of order.lines) openSkus.set(line.sku, [...(openSkus.get(line.sku) ?? []), order]);
  const shippedSkus = new Set(
    orders
      .filter((order) => order.status === "shipped" || order.status === "delivered")
      .flatMap((order) => order.lines.map((line) => line.sku)),
  );
  const used = new Set<string>();
  const inScope = new Set<string>();
  const bySupplier = (supplier: string): ProductDraft[] =>
    products.filter((product) => product.supplier === supplier && !used.has(product.sku));
  const openCount = (supplier: string): number => bySupplier(supplier).filter((product) => openSkus.has(product.sku)).length;
  const recalledSuppliers = new Set<string>();
  const inProcessing = (sku: string): boolean => (openSkus.get(sku) ?? []).some((order) => order.status === "processing");
  // SKUs that keep a processing order in the recall scope; recall updates never remove them.
  const anchors = new Set<string>();

  const kinds: NoticeDraft["type"][] = [
    "Product recall",
    "Recall update",
    "Packaging change",
    "Product recall",
    "Product discontinuation",
    "Product recall",
    "Wholesale cost change",
    "Recall update",
  ];
  const count = 2 * factors.files;
  // Bigger catalogues mean bigger recalls: more SKUs per notice as the store grows.
  const skusPerRecall = 2 + Math.floor(factors.rows / 2);
  const notices: NoticeDraft[] = [];
  const year = today.slice(0, 4);
  const firstNumber = random.int(20, 60);
  for (let index = 0; index < count; index += 1) {
    const type = kinds[index % kinds.length] as NoticeDraft["type"];
    const issued = addDays(today, -Math.round(12 - (index * 11) / Math.max(1, count - 1)));
    const noticeId = `SN-${year}-${String(firstNumber + index).padStart(3, "0")}`;
    const take = (pool: ProductDraft[], amount: number): string[] => {
      const picked = random.shuffle(pool).slice(0, amount).map((product) => product.sku);
      for (const sku of picked) used.add(sku);
      return picked;
    };
    if (type === "Product recall") {
      const score = (supplier: string): number =>
        openCount(supplier) + (bySupplier(supplier).some((product) => inProcessing(product.sku)) ? 100 : 0);
      const suppliers = random
        .shuffle(SUPPLIERS.filter((supplier) => !recalledSuppliers.has(supplier)))
        .sort((left, right) => score(right) - score(left));
      const supplier = suppliers[0] ?? random.pick(SUPPLIERS);
      recalledSuppliers.add(supplier);
      const pool = bySupplier(supplier);
      const withOpen = pool.filter((product) => openSkus.has(product.sku));
      // Prefer SKUs also in shipped orders (those must be left alone) and in processing orders.
      const rank = (product: ProductDraft): number =>
        Number(shippedSkus.has(product.sku)) + 2 * Number(inProcessing(product.sku));
      withOpen.sort((left, right) => rank(right) - rank(left));
      const openPicked = withOpen.slice(0, skusPerRecall + (index === 0 ? 1 : 0)).map((product) => product.sku);
      const anchor = openPicked.find(inProcessing);
      if (anchor) anchors.add(anchor);
      for (const sku of openPicked) used.add(sku);
      const quiet = take(
        bySupplier(supplier).filter((product) => !openSkus.has(product.sku)),
        1,
      );
      const affected = [...openPicked, ...quiet];
      for (const sku of affected) inScope.add(sku);
      notices.push({ noticeId, supplier, issued, type, amends: null, affected, removed: [], added: [] });
    } else if (type === "Recall update") {
      const target = [...notices].reverse().find((notice) => notice.type === "Product recall");
      if (!target) continue;
      // Remove a SKU that sits in open orders on its own, so wrongly keeping it cancels an extra order.
      const removable = target.affected.filter((sku) => openSkus.has(sku) && !anchors.has(sku));
      const isolated = removable.filter((sku) =>
        (openSkus.get(sku) ?? []).some((order) =>
          order.lines.every((line) => line.sku === sku || !inScope.has(line.sku)),
        ),
      );
      const removed = (isolated.length > 0 ? isolated : removable).slice(0, 1);
      for (const sku of removed) inScope.delete(sku);
      const addPool = bySupplier(target.supplier);
      const addOpen = addPool.filter((product) => openSkus.has(product.sku));
      const added = take(addOpen.length > 0 ? addOpen : addPool, 1);
      for (const sku of added) inScope.add(sku);
      notices.push({
        noticeId,
        supplier: target.supplier,
        issued,
        type,
        amends: target.noticeId,
        affected: [],
        removed,
        added,
      });
    } else {
      const supplier = random.pick(SUPPLIERS);
      const pool = bySupplier(supplier);
      const withOpen = pool.filter((product) => openSkus.has(product.sku));
      const affected = take(withOpen.length >= 2 ? withOpen : pool, random.int(2, 3));
      notices.push({ noticeId, supplier, issued, type, amends: null, affected, removed: [], added: [] });
    }
  }
  ensureUpdatesMatter(notices, open, bySupplier, anchors, used);
  return notices;
}

function draftScope(notices: NoticeDraft[], applyUpdates: boolean): Set<string> {
  const scope = new Set<string>();
  for (const notice of notices) {
    if (notice.type === "Product recall") for (const sku of notice.affected) scope.add(sku);
    if (notice.type === "Recall update" && applyUpdates) {
      for (const sku of notice.removed) scope.delete(sku);
      for (const sku of notice.added) scope.add(sku);
    }
  }
  return scope;
}

/**
 * Someone who reads only the original recalls must end up cancelling a different set of orders;
 * otherwise the recall updates would be decoration. Swap in another removal or addition until they matter.
 */
function ensureUpdatesMatter(
  notices: NoticeDraft[],
  open: OrderDraft[],
  bySupplier: (supplier: string) => ProductDraft[],
  anchors: Set<string>,
  used: Set<string>,
): void {
  const affected = (scope: Set<string>): string =>
    open
      .filter((order) => order.lines.some((line) => scope.has(line.sku)))
      .map((order) => order.id)
      .join(",");
  const differs = (): boolean => affected(draftScope(notices, true)) !== affected(draftScope(notices, false));
  if (differs()) return;
  const openSkus = new Set(open.flatMap((order) => order.lines.map((line) => line.sku)));
  for (const update of notices.filter((notice) => notice.type === "Recall update")) {
    const target = notices.find((notice) => notice.noticeId === update.amends);
    if (!target) continue;
    const original = [...update.removed];
    for (const sku of target.affected.filter((candidate) => !anchors.has(candidate) && openSkus.has(candidate))) {
      update.removed = [sku];
      if (differs()) return;
    }
    update.removed = original;
    for (const product of bySupplier(target.supplier).filter((candidate) => openSkus.has(candidate.sku))) {
      update.added.push(product.sku);
      if (differs()) {
        used.add(product.sku);
        return;
      }
      update.added.pop();
    }
  }
}

function numberReturnsAndRefunds(returns: ReturnDraft[], refunds: RefundDraft[]): void {
  returns.sort((left, right) => left.requestedAt.localeCompare(right.requestedAt) || left.lineId - right.lineId);
  returns.forEach((item, index) => {
    item.id = 30001 + index;
  });
  refunds.sort((left, right) => left.createdAt.localeCompare(right.createdAt) || left.lineId - right.lineId);
  refunds.forEach((refund, index) => {
    refund.id = 70001 + index;
    if (refund.source) refund.returnId = refund.source.id;
  });
}

function insertRows(context: GenerateContext, data: RetailData): void {
  const { db } = context;
  const changesBySku = new Map<string, PriceChangeDraft[]>();
  for (const change of data.priceChanges) changesBySku.set(change.sku, [...(changesBySku.get(change.sku) ?? []), change]);
  const insertCustomer = db.prepare(
    "INSERT INTO customers (id, first_name, last_name, email, phone, city, state, postal_code, loyalty_tier, marketing_opt_in, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  for (const customer of data.customers)
    insertCustomer.run(
      customer.id,
      customer.firstName,
      customer.lastName,
      customer.email,
      customer.phone,
      customer.city,
      customer.state,
      customer.postalCode,
      customer.loyaltyTier,
      customer.marketingOptIn ? 1 : 0,
      customer.createdAt,
    );
  const insertProduct = db.prepare(
    "INSERT INTO products (sku, name, category, brand, supplier, unit_price, unit_cost, stock_on_hand, is_active) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  for (const product of data.products)
    insertProduct.run(
      product.sku,
      product.name,
      product.category,
      product.brand,
      product.supplier,
      priceOn(product.sku, data.today, product.basePrice, changesBySku),
      product.unitCost,
      product.stockOnHand,
      1,
    );
  const insertOrder = db.prepare(
    "INSERT INTO orders (id, customer_id, placed_at, status, channel, promo_code, subtotal, discount_total, shipping_fee, tax, total, shipping_method, shipped_at, delivered_at, cancel_reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const insertLine = db.prepare(
    "INSERT INTO order_lines (id, order_id, line_number, sku, quantity, unit_price, discount, line_total) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const insertPayment = db.prepare(
    "INSERT INTO payments (id, order_id, method, card_last4, amount, status, captured_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  for (const order of data.orders) {
    insertOrder.run(
      order.id,
      order.customerId,
      order.placedAt,
      order.status,
      order.channel,
      order.promoCode,
      order.subtotal,
      order.discountTotal,
      order.shippingFee,
      order.tax,
      order.total,
      order.shippingMethod,
      order.shippedAt,
      order.deliveredAt,
      order.cancelReason,
    );
    for (const line of order.lines)
      insertLine.run(line.id, line.orderId, line.lineNumber, line.sku, line.quantity, line.unitPrice, line.discount, line.lineTotal);
    const paymentStatus =
      order.status === "cancelled" ? "voided" : order.status === "pending" || order.status === "processing" ? "authorized" : "captured";
    insertPayment.run(
      order.paymentId,
      order.id,
      order.paymentMethod,
      order.cardLast4,
      order.total,
      paymentStatus,
      paymentStatus === "captured" ? order.shippedAt : null,
    );
  }
  const insertReturn = db.prepare(
    "INSERT INTO returns (id, order_id, order_line_id, sku, quantity, reason, item_condition, customer_comment, requested_at, status, restocking_fee, decision_note) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  for (const item of data.returns)
    insertReturn.run(
      item.id,
      item.orderId,
      item.lineId,
      item.sku,
      item.quantity,
      item.reason,
      item.itemCondition,
      item.comment,
      item.requestedAt,
      item.status,
      item.restockingFee,
      item.decisionNote,
    );
  const insertRefund = db.prepare(
    "INSERT INTO refunds (id, order_id, order_line_id, payment_id, return_id, kind, amount, created_at, note) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  for (const refund of data.refunds)
    insertRefund.run(
      refund.id,
      refund.orderId,
      refund.lineId,
      refund.paymentId,
      refund.returnId,
      refund.kind,
      refund.amount,
      refund.createdAt,
      refund.note,
    );
}

/**
 * Some customers were already credited for a markdown (those lines are no longer owed anything), and one
 * customer is made gold when needed so that the longer gold window changes the answer at every scale.
 */
function plantPriceMatchHistory(context: GenerateContext, data: RetailData): void {
  const { db, random } = context;
  const owed = computePriceMatchCredits(db, data.priceChanges);
  const creditable = random.shuffle(owed.lines);
  const creditCount = Math.max(1, Math.round(creditable.length * 0.25));
  const credited = creditable.slice(0, creditCount);
  let nextId =
    ((db.prepare("SELECT MAX(id) AS last FROM refunds").get() as { last: number | null }).last ?? 70000) + 1;
  const paymentFor = db.prepare("SELECT id FROM payments WHERE order_id = ?");
  const insertRefund = db.prepare(
    "INSERT INTO refunds (id, order_id, order_line_id, payment_id, return_id, kind, amount, created_at, note) VALUES (?, ?, ?, ?, NULL, 'price_match', ?, ?, ?)",
  );
  for (const line of credited) {
    const proposed = addDays(line.effectiveDate, random.int(1, 4));
    const created = proposed > addDays(data.today, -1) ? addDays(data.today, -1) : proposed;
    const payment = paymentFor.get(line.orderId) as { id: number };
    insertRefund.run(
      nextId++,
      line.orderId,
      line.lineId,
      payment.id,
      line.credit,
      dateTime(created, random.int(9 * 3600, 18 * 3600)),
      `Price match: ${line.sku} reduced to $${line.lowestPrice.toFixed(2)}`,
    );
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
    .all(addDays(batchDate, -13), batchDate, batchDate) as Array<{ id: number; sku: string; unit_price: number }>;
  const usable = candidates.filter(
    (line) => !owedLines.has(line.id) && !data.priceChanges.some((change) => change.sku === line.sku && change.effectiveDate === batchDate),
  );
  if (usable.length === 0) return;
  const line = random.pick(usable);
  const product = data.products.find((candidate) => candidate.sku === line.sku);
  if (!product) return;
  const current = (db.prepare("SELECT unit_price FROM products WHERE sku = ?").get(line.sku) as { unit_price: number }).unit_price;
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

function refreshPaymentStatuses(context: GenerateContext): void {
  context.db.exec(`
    UPDATE payments SET status = CASE
      WHEN (SELECT SUM(amount) FROM refunds WHERE refunds.payment_id = payments.id) >= payments.amount - 0.005 THEN 'refunded'
      ELSE 'partially_refunded' END
    WHERE status = 'captured' AND EXISTS (SELECT 1 FROM refunds WHERE refunds.payment_id = payments.id);
  `);
}
