import {
  addDays,
  dateTime,
  daysBetween,
  roundCents,
  weightedPick,
  type GenerateContext,
} from "../../envs/index.js";
import type { SeededRandom } from "../../core/index.js";
import { ELECTRONICS_CATEGORY, GIFT_CARD_CATEGORY, PERSONAL_CARE_CATEGORY } from "./catalog.js";
import type {
  CustomerDraft,
  LineDraft,
  OrderDraft,
  ProductDraft,
  RefundDraft,
  ReturnDraft,
  WatchListEntry,
} from "./model.js";
import { RETURN_POLICY, decideReturn } from "./policy.js";
import { BASE_SIZES } from "./sizes.js";

/** Return history, courtesy credits, and the queue of pending return requests with the fraud watch list. */

const HIGH_VALUE_LIMIT = RETURN_POLICY.approvalThresholdUsd;

function reasonFor(random: SeededRandom, category: string): string {
  if (category === "Apparel")
    return weightedPick(
      random,
      ["wrong_size", "changed_mind", "not_as_described", "defective"],
      [50, 25, 15, 10],
    );
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
  wrong_size: [
    "Runs small, need to return.",
    "Too big in the shoulders.",
    "Ordered the wrong size by mistake.",
  ],
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
  damaged_in_transit: [
    "Box arrived crushed, item cracked.",
    "Arrived with a dent on the side.",
    "Glass shattered in transit.",
  ],
};

/** What a return request is about: the order line, how many units, why, and when it was asked for. */
interface RequestFacts {
  order: OrderDraft;
  line: LineDraft;
  quantity: number;
  reason: string;
  itemCondition: ReturnDraft["itemCondition"];
  requestedDate: string;
}

/** A return request still waiting for a decision, with the customer's comment `commentChance` of the time. */
function returnRequest(random: SeededRandom, facts: RequestFacts, commentChance: number): ReturnDraft {
  const { order, line, quantity, reason, itemCondition, requestedDate } = facts;
  return {
    id: 0,
    orderId: order.id,
    lineId: line.id,
    sku: line.sku,
    quantity,
    reason,
    itemCondition,
    comment: random.chance(commentChance) ? random.pick(COMMENTS[reason] ?? ["-"]) : null,
    requestedAt: dateTime(requestedDate, random.int(7 * 3600, 23 * 3600)),
    status: "requested",
    restockingFee: 0,
    decisionNote: null,
  };
}

/** A refund against one order line, paid back to the order's payment (ids are assigned later). */
function lineRefund(
  order: OrderDraft,
  line: LineDraft,
  refund: Pick<RefundDraft, "kind" | "amount" | "createdAt" | "note" | "source">,
): RefundDraft {
  return { id: 0, orderId: order.id, lineId: line.id, paymentId: order.paymentId, returnId: null, ...refund };
}

export function makeHistoricalReturns(
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
      const draft = returnRequest(
        random,
        { order, line, quantity, reason, itemCondition, requestedDate },
        0.8,
      );
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
          refunds.push(
            lineRefund(order, line, {
              kind: "return",
              amount: roundCents(value - draft.restockingFee),
              createdAt: dateTime(refundDate, random.int(9 * 3600, 18 * 3600)),
              note: `Refund for return of ${quantity} x ${line.sku}`,
              source: draft,
            }),
          );
      }
      returns.push(draft);
    }
  }
}

export function makeGoodwillRefunds(
  random: SeededRandom,
  today: string,
  orders: OrderDraft[],
  refunds: RefundDraft[],
  rows: number,
  closeMonth: { start: string; end: string },
  testAccounts: Set<number>,
): void {
  const delivered = orders.filter(
    (order) =>
      order.status === "delivered" &&
      order.deliveredAt &&
      order.lines.some((line) => !line.sku.startsWith("GFT-")),
  );
  // The first courtesy credit lands on an order of the month being closed, so refunds always matter there.
  const inMonth = delivered.filter(
    (order) =>
      order.placedDate >= closeMonth.start &&
      order.placedDate <= closeMonth.end &&
      !testAccounts.has(order.customerId),
  );
  for (let index = 0; index < 3 * rows && delivered.length > 0; index += 1) {
    const order = random.pick(index === 0 && inMonth.length > 0 ? inMonth : delivered);
    const line = random.pick(order.lines.filter((candidate) => !candidate.sku.startsWith("GFT-")));
    const proposed = addDays(order.deliveredAt ?? order.placedDate, random.int(1, 6));
    const created = proposed > today ? today : proposed;
    refunds.push(
      lineRefund(order, line, {
        kind: "goodwill",
        amount: roundCents(Math.min(line.lineTotal, random.pick([5, 10, 15, 20]))),
        createdAt: dateTime(created, random.int(9 * 3600, 18 * 3600)),
        note: random.pick([
          "Courtesy credit: late delivery.",
          "Courtesy credit: missing assembly hardware sent separately.",
          "Courtesy credit: packaging damage, customer kept item.",
        ]),
      }),
    );
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
const EVERYDAY_OR_APPAREL = [...EVERYDAY, "Apparel"];
const CHANGED_MIND_OR_MISDESCRIBED = ["changed_mind", "not_as_described"];

function scenario(
  name: string,
  categories: string[],
  reasons: string[],
  condition: Scenario["condition"],
  offset: Scenario["offset"],
  unusual: Partial<Pick<Scenario, "value" | "watch">> = {},
): Scenario {
  return { name, categories, reasons, condition, offset, value: "low", watch: null, ...unusual };
}

/**
 * Each pending request is built to exercise one clause of the returns policy, so that every clause
 * (and each trap next to it) is present at every scale. Columns: name, categories, reasons, item
 * condition, days from delivery to request; the value is low and no watch-list entry unless stated.
 */
const SCENARIOS: Scenario[] = [
  scenario("standard-approve", EVERYDAY, CHANGED_MIND_OR_MISDESCRIBED, "any", [2, 28]),
  scenario("apparel-long-window", ["Apparel"], ["wrong_size"], "unopened", [32, 45]),
  scenario("out-of-window", EVERYDAY, ["changed_mind"], "unopened", [31, 44]),
  scenario("window-boundary", EVERYDAY, ["not_as_described", "changed_mind"], "opened", [30, 30]),
  scenario("electronics-late", [ELECTRONICS_CATEGORY], ["changed_mind"], "unopened", [17, 29]),
  scenario("electronics-opened-fee", [ELECTRONICS_CATEGORY], CHANGED_MIND_OR_MISDESCRIBED, "opened", [2, 15]),
  scenario("electronics-defective", [ELECTRONICS_CATEGORY], ["defective"], "opened", [18, 58]),
  scenario("personal-care-opened", [PERSONAL_CARE_CATEGORY], CHANGED_MIND_OR_MISDESCRIBED, "opened", [2, 20]),
  scenario("personal-care-unopened", [PERSONAL_CARE_CATEGORY], ["changed_mind"], "unopened", [2, 25]),
  scenario("gift-card", [GIFT_CARD_CATEGORY], ["changed_mind"], "unopened", [1, 12]),
  scenario(
    "above-threshold",
    [ELECTRONICS_CATEGORY, "Home & Kitchen", "Sports & Outdoors"],
    ["changed_mind", "not_as_described", "defective"],
    "unopened",
    [2, 14],
    { value: "high" },
  ),
  scenario("watch-listed", EVERYDAY_OR_APPAREL, CHANGED_MIND_OR_MISDESCRIBED, "unopened", [2, 20], {
    watch: "active",
  }),
  scenario("watch-cleared", EVERYDAY_OR_APPAREL, ["changed_mind", "wrong_size"], "unopened", [2, 20], {
    watch: "cleared",
  }),
  scenario("transit-damage-late", EVERYDAY, ["damaged_in_transit"], "damaged", [33, 58]),
];

const FRAUD_REASONS = [
  "Chargeback filed on two prior orders",
  "Multiple accounts sharing one shipping address",
  "Serial returns of high-value items",
  "Card testing pattern flagged by payment processor",
  "Return of counterfeit item reported by warehouse",
];

export function makeRequestedReturnsAndWatchList(
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
    .flatMap((order) =>
      order.lines.map((line) => ({ order, line, product: productBySku.get(line.sku) as ProductDraft })),
    );
  const customerById = new Map(customers.map((customer) => [customer.id, customer]));
  const watchList: WatchListEntry[] = [];
  const fraudAnalysts = [0, 1].map(() => `${faker.person.firstName()} ${faker.person.lastName()}`);

  const addWatch = (customer: CustomerDraft, status: WatchListEntry["status"]): void => {
    const mixedCase = random.chance(0.35);
    const email = mixedCase
      ? customer.email
          .replace(/^([a-z])/, (letter) => letter.toUpperCase())
          .replace(/@(.*)$/, (domain) => domain.toUpperCase())
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

  const total = BASE_SIZES.requestedReturns * factors.rows;
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
      returns.push(
        returnRequest(random, { order, line, quantity, reason, itemCondition, requestedDate }, 0.85),
      );
      returnedLines.add(line.id);
      usedCustomers.add(order.customerId);
      const customer = customerById.get(order.customerId);
      if (scenario.watch && customer) addWatch(customer, scenario.watch);
      break;
    }
  }

  // Other watch-list entries: people with no open request (active) and a few cleared ones.
  const others = random.shuffle(
    customers.filter((customer) => customer.kind === "shopper" && !usedCustomers.has(customer.id)),
  );
  const extraCount = 3 + 2 * factors.rows;
  for (let index = 0; index < extraCount && index < others.length; index += 1)
    addWatch(others[index] as CustomerDraft, random.chance(0.7) ? "active" : "cleared");
  return watchList.sort((left, right) => left.addedOn.localeCompare(right.addedOn));
}

export function numberReturnsAndRefunds(returns: ReturnDraft[], refunds: RefundDraft[]): void {
  returns.sort(
    (left, right) => left.requestedAt.localeCompare(right.requestedAt) || left.lineId - right.lineId,
  );
  returns.forEach((item, index) => {
    item.id = 30001 + index;
  });
  refunds.sort((left, right) => left.createdAt.localeCompare(right.createdAt) || left.lineId - right.lineId);
  refunds.forEach((refund, index) => {
    refund.id = 70001 + index;
    if (refund.source) refund.returnId = refund.source.id;
  });
}
