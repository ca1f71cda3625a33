import type { GenerateContext } from "../../envs/index.js";
import { addBusinessDays, addDays, randomDate, roundCents, weightedPick } from "../../envs/index.js";
import { writeMarketplaceDocuments } from "./documents.js";
import { ACCEPTS, CARRIERS, DECLINES, PAGE_SIZE, disputeId, orderId, refundId, sellerId } from "./rules.js";
import type { Reason } from "./rules.js";

type Random = GenerateContext["random"];
type Fate = "delivered" | "locker" | "attempted" | "out_for_delivery" | "in_transit" | "returned";
interface Order {
  id: string;
  seller: string;
  buyer: string;
  price: number;
  shipping: number;
  orderedOn: string;
  shippedOn: string;
  tracking: string;
  fate: Fate;
}
interface Dispute {
  id: string;
  order: Order;
  reason: Reason;
  status: string;
  openedOn: string;
  closedOn: string | null;
}

const STORE_WORDS = "Goods|Outlet|Trading Co.|Supply|Home|Gear|Finds|Market|Depot|Works".split("|");
const ITEMS: Array<[string, number]> = [
  ["Wireless earbuds", 39.99],
  ["Cast-iron skillet 10in", 27.5],
  ["Yoga mat", 19.95],
  ["LED desk lamp", 32.0],
  ["Kids' rain jacket", 24.99],
  ["Bluetooth speaker", 54.9],
  ["Ceramic planter set", 29.0],
  ["Phone case", 12.99],
  ["Running shoes", 74.95],
  ["Coffee grinder", 45.0],
  ["Wool scarf", 22.5],
  ["Board game", 34.99],
  ["Mechanical keyboard", 89.0],
  ["Travel backpack", 59.95],
  ["Stainless water bottle", 17.49],
  ["Smart plug 2-pack", 21.99],
];
const SHIPPING = [0, 0, 4.99, 5.99, 7.5, 9.99];
const CITIES =
  "Columbus OH|Reno NV|Memphis TN|Allentown PA|Joliet IL|Ontario CA|Dallas TX|Atlanta GA|Denver CO".split(
    "|",
  );
const DEFECTS = [
  "the colour is completely different from the photos",
  "it arrived with a cracked casing",
  "it is a smaller size than the listing says",
  "parts are missing from the box",
  "it looks used, not new as listed",
];

/** Sellers and six months of performance; every eight sellers plant the cases the defect-rate rule turns on. */
function generateSellers(context: GenerateContext): string[] {
  const { db, random, faker, factors, referenceDate: today } = context;
  const insert = db.prepare("INSERT INTO sellers VALUES (?, ?, ?, ?, ?, ?)");
  const metric = db.prepare("INSERT INTO seller_metrics VALUES (?, ?, ?, ?, ?)");
  const ids: string[] = [];
  const names = new Set<string>();
  for (let n = 1; n <= 24 * factors.rows; n += 1) {
    const id = sellerId.format(1000 + n * 7);
    let name: string;
    do name = `${faker.person.lastName()} ${random.pick(STORE_WORDS)}`;
    while (names.has(name));
    names.add(name);
    const held = n % 10 === 9;
    const email = `${name.toLowerCase().replace(/[^a-z]+/g, ".")}@sellers.example.com`;
    insert.run(
      id,
      name,
      email,
      randomDate(random, addDays(today, -1500), addDays(today, -200)),
      held ? "on_hold" : "active",
      held ? "DEFECT-RATE" : null,
    );
    ids.push(id);
    for (let back = 5; back >= 0; back -= 1) {
      const month = addDays(`${today.slice(0, 7)}-01`, -back * 28).slice(0, 7);
      const [orders, defects] = monthMetrics(random, n % 8, back);
      metric.run(id, month, orders, defects, Math.round(orders * random.next() * 0.05));
    }
  }
  return ids;
}

/** One month's orders and defects; `back` counts months before the current (0 = month to date). */
function monthMetrics(random: Random, kind: number, back: number): [number, number] {
  const inWindow = back >= 1 && back <= 3;
  const orders = kind === 3 ? random.int(4, 10) : random.int(45, 90);
  if (kind === 1) return [orders, Math.round(orders * (0.04 + random.next() * 0.03))]; // over the limit
  if (kind === 3) return [orders, random.int(1, 2)]; // high rate, too few orders
  if (kind === 5) return inWindow ? [orders, 0] : [12, 6]; // bad only outside the window
  if (kind === 7) return back === 3 ? [8, 2] : inWindow ? [orders + 25, 0] : [orders, 0]; // one bad small month
  return [orders, random.chance(0.4) ? 1 : 0];
}

function trackingNumber(random: Random, used: Set<string>): string {
  let number: string;
  do number = `${random.pick(Object.keys(CARRIERS))}${String(random.int(1e9, 9999999999))}`;
  while (used.has(number));
  used.add(number);
  return number;
}

function generateOrders(context: GenerateContext, sellers: string[]): Order[] {
  const { random, faker, factors, referenceDate: today } = context;
  const used = new Set<string>();
  const orders: Order[] = [];
  for (let n = 0; n < 160 * factors.rows; n += 1) {
    const [, price] = random.pick(ITEMS);
    const orderedOn = randomDate(random, addDays(today, -120), addDays(today, -6));
    orders.push({
      id: "",
      seller: random.pick(sellers),
      buyer: faker.person.fullName(),
      price,
      shipping: random.pick(SHIPPING),
      orderedOn,
      shippedOn: addDays(orderedOn, random.int(1, 3)),
      tracking: trackingNumber(random, used),
      fate: weightedPick(random, ["delivered", "locker", "in_transit"] as const, [0.86, 0.1, 0.04]),
    });
  }
  orders.sort((a, b) => (a.orderedOn < b.orderedOn ? -1 : a.orderedOn > b.orderedOn ? 1 : 0));
  orders.forEach((order, index) => (order.id = orderId.format(4100000 + index * 13)));
  return orders;
}

const INR_FATES: Fate[] = ["attempted", "delivered", "in_transit", "locker", "returned", "out_for_delivery"];

/** Disputes on about two orders in five, plus the planted response-deadline edge cases. */
function draftDisputes(context: GenerateContext, orders: Order[]): Dispute[] {
  const { random, referenceDate: today } = context;
  const disputes: Dispute[] = [];
  const cycles = new Map<string, number>();
  const add = (order: Order, reason: Reason, status: string, openedOn: string): void => {
    const closed = status === "refunded" || status === "closed" ? addDays(openedOn, random.int(3, 9)) : null;
    // Each status's item-not-received cases cycle through the tracking fates, so every one occurs among the escalated.
    // An escalated order always paid shipping, so refunding the item price alone is visibly short.
    if (status === "escalated" && order.shipping === 0) order.shipping = 6.49;
    if (reason === "not_received") {
      const turn = cycles.get(status) ?? 0;
      cycles.set(status, turn + 1);
      order.fate = INR_FATES[turn % INR_FATES.length]!;
    }
    disputes.push({
      id: "",
      order,
      reason,
      status,
      openedOn,
      closedOn: closed && closed > today ? today : closed,
    });
  };
  // Deadline edge cases (due today, due tomorrow, a day late, not yet due) and enough offer threads to cover every plan.
  const planted: Array<[Reason, number, string]> = [
    ["not_received", -3, "awaiting_seller"],
    ["not_as_described", -4, "awaiting_seller"],
    ["not_received", -6, "awaiting_seller"],
    ["not_received", -1, "awaiting_seller"],
    ["not_as_described", -2, "awaiting_seller"],
    ...[-5, -6, -7, -8].map((back): [Reason, number, string] => [
      "not_as_described",
      back,
      "seller_responded",
    ]),
  ];
  const free = orders.filter((order) => order.orderedOn < addDays(today, -20));
  for (const [reason, back, status] of planted)
    add(free.splice(random.int(0, free.length - 1), 1)[0]!, reason, status, addBusinessDays(today, back));
  for (const order of free) {
    if (!random.chance(0.42)) continue;
    const reason: Reason = random.chance(0.55) ? "not_received" : "not_as_described";
    const openedOn = addDays(order.orderedOn, random.int(8, 30));
    if (openedOn > today) continue;
    const recent = openedOn > addDays(today, -10);
    const status = recent
      ? weightedPick(random, ["awaiting_seller", "seller_responded"], [0.55, 0.45])
      : weightedPick(
          random,
          ["refunded", "closed", "escalated", "seller_responded", "awaiting_seller"],
          [0.25, 0.15, 0.2, 0.15, 0.25],
        );
    add(order, reason, status, openedOn);
  }
  disputes.sort(
    (a, b) =>
      (a.openedOn < b.openedOn ? -1 : a.openedOn > b.openedOn ? 1 : 0) || (a.order.id < b.order.id ? -1 : 1),
  );
  disputes.forEach((dispute, index) => (dispute.id = disputeId.format(20000 + index * 3)));
  return disputes;
}

const SCANS: Record<Fate, string[]> = {
  delivered: ["In transit", "Out for delivery", "Delivered"],
  locker: ["In transit", "Arrived at facility", "Delivered to parcel locker"],
  attempted: ["In transit", "Out for delivery", "Delivery attempted"],
  out_for_delivery: ["In transit", "Arrived at facility", "Out for delivery"],
  in_transit: ["In transit", "Arrived at facility"],
  returned: ["In transit", "Out for delivery", "Delivery attempted", "Returned to sender"],
};

/** An hour after `at` ("YYYY-MM-DDTHH:MM"), on the same day (at 23:MM a tie, which keeps insertion order). */
const laterTime = (at: string): string =>
  `${at.slice(0, 11)}${String(Math.min(Number(at.slice(11, 13)) + 1, 23)).padStart(2, "0")}${at.slice(13)}`;

function insertOrders(context: GenerateContext, orders: Order[]): void {
  const { db, random, referenceDate: today } = context;
  const insert = db.prepare("INSERT INTO orders VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  const scan = db.prepare(
    "INSERT INTO tracking_events (tracking_number, happened_at, status, location) VALUES (?, ?, ?, ?)",
  );
  for (const order of orders) {
    const carrier = CARRIERS[order.tracking.slice(0, 2) as keyof typeof CARRIERS];
    insert.run(
      order.id,
      order.seller,
      order.buyer,
      ITEMS.find(([, price]) => price === order.price)![0],
      order.price,
      order.shipping,
      order.orderedOn,
      order.shippedOn,
      carrier,
      order.tracking,
    );
    let day = order.shippedOn;
    let previous = "";
    const destination = random.pick(CITIES);
    for (const [index, status] of ["Label created", ...SCANS[order.fate]].entries()) {
      const drawn = `${day}T${String(random.int(6, 21)).padStart(2, "0")}:${String(random.int(0, 59)).padStart(2, "0")}`;
      // A later scan on the same day never carries an earlier time than the one before it.
      const at = drawn > previous ? drawn : laterTime(previous);
      previous = at;
      scan.run(order.tracking, at, status, index < 2 ? random.pick(CITIES) : destination);
      const next = addDays(day, status === "Delivery attempted" ? random.int(2, 4) : random.int(0, 2));
      day = next > today ? today : next;
    }
  }
}

function thread(random: Random, dispute: Dispute, offers: number): Array<[string, number, string]> {
  const messages: Array<[string, number, string]> = [];
  const say = (author: string, days: number, body: string): void => void messages.push([author, days, body]);
  say(
    "buyer",
    0,
    dispute.reason === "not_received"
      ? "My order still hasn't arrived and the tracking hasn't moved in days. Please help."
      : `The item is not as described: ${random.pick(DEFECTS)}.`,
  );
  if (dispute.status === "awaiting_seller") return messages;
  const price = dispute.order.price;
  if (dispute.reason === "not_as_described" && offers > 0) {
    const first = roundCents(price * (0.15 + random.next() * 0.15));
    say(
      "seller",
      1,
      `Sorry about that. I can offer a partial refund of $${first.toFixed(2)} and you keep the item.`,
    );
    if (offers > 1)
      say(
        "seller",
        2,
        `Following up: I can go up to $${roundCents(first + price * 0.1).toFixed(2)} if that helps.`,
      );
  } else
    say(
      "seller",
      1,
      dispute.reason === "not_received"
        ? "It was shipped on time; please check with your neighbours."
        : "Please send it back with the prepaid label and I will refund you.",
    );
  return messages;
}

/** Partial-offer threads on open not-as-described cases cycle through these: offers made, then the buyer's answer. */
const OFFER_PLANS: Array<[number, "accept" | "decline" | "none"]> = [
  [1, "accept"],
  [2, "accept"],
  [1, "decline"],
  [2, "decline"],
  [0, "none"],
  [1, "none"],
];

function insertDisputes(context: GenerateContext, disputes: Dispute[]): void {
  const { db, random } = context;
  const insert = db.prepare("INSERT INTO disputes VALUES (?, ?, ?, ?, ?, ?)");
  const message = db.prepare(
    "INSERT INTO dispute_messages (dispute_id, author, sent_at, body) VALUES (?, ?, ?, ?)",
  );
  let plan = 0;
  for (const dispute of disputes) {
    insert.run(
      dispute.id,
      dispute.order.id,
      dispute.reason,
      dispute.status,
      dispute.openedOn,
      dispute.closedOn,
    );
    const offering = dispute.reason === "not_as_described" && dispute.status === "seller_responded";
    const [offers, answer] = offering ? OFFER_PLANS[plan++ % OFFER_PLANS.length]! : [0, "none"];
    const messages = thread(random, dispute, offers);
    if (answer !== "none") messages.push(["buyer", 3, random.pick(answer === "accept" ? ACCEPTS : DECLINES)]);
    if (dispute.status === "escalated")
      messages.push(["support", 4, "Escalated to the disputes desk: the buyer and seller could not agree."]);
    for (const [author, days, body] of messages) {
      const at = addDays(dispute.openedOn, days);
      message.run(
        dispute.id,
        author,
        `${at > context.referenceDate ? context.referenceDate : at}T${String(8 + days * 2).padStart(2, "0")}:${String(random.int(10, 59))}`,
        body,
      );
    }
  }
}

/** Refunds: the closed cases', order cancellations, some reversed, a few paid twice. */
function insertRefunds(context: GenerateContext, orders: Order[], disputes: Dispute[]): void {
  const { db, random, referenceDate: today } = context;
  const drafts: Array<{ order: Order; dispute: string | null; amount: number; status: string; on: string }> =
    [];
  const total = (order: Order): number => roundCents(order.price + order.shipping);
  for (const dispute of disputes.filter((item) => item.status === "refunded")) {
    const amount =
      dispute.reason === "not_received" ? total(dispute.order) : roundCents(dispute.order.price * 0.3);
    drafts.push({
      order: dispute.order,
      dispute: dispute.id,
      amount,
      status: "issued",
      on: dispute.closedOn!,
    });
  }
  const disputed = new Set(disputes.map((item) => item.order));
  for (const order of orders.filter((item) => !disputed.has(item) && random.chance(0.38)))
    drafts.push({
      order,
      dispute: null,
      amount: total(order),
      status: random.chance(0.15) ? "reversed" : "issued",
      on: addDays(order.orderedOn, random.int(1, 20)),
    });
  // Last month's ledger always runs past one page: cancellations of last month's orders fill it up.
  const month = addDays(`${today.slice(0, 7)}-01`, -1).slice(0, 7);
  const refunded = new Set(drafts.map((draft) => draft.order));
  for (const order of orders.filter((item) => !disputed.has(item) && !refunded.has(item))) {
    if (drafts.filter((draft) => draft.on.slice(0, 7) === month).length > PAGE_SIZE) break;
    if (order.orderedOn.slice(0, 7) !== month) continue;
    const next = addDays(order.orderedOn, 1);
    const on = next.slice(0, 7) === month ? next : order.orderedOn;
    drafts.push({ order, dispute: null, amount: total(order), status: "issued", on });
  }
  // Every month's first cancellation refund was reversed, so each month's ledger holds a reversal.
  const firsts = new Map<string, (typeof drafts)[number]>();
  for (const draft of drafts.filter((item) => item.dispute === null && item.on <= today)) {
    const first = firsts.get(draft.on.slice(0, 7));
    if (!first || draft.on < first.on) firsts.set(draft.on.slice(0, 7), draft);
  }
  for (const draft of firsts.values()) draft.status = "reversed";
  // Paid twice: every seventh refund is issued again a day or two later; every third of those was reversed.
  const doubles = drafts
    .filter((_, index) => index % 7 === 3)
    .map((draft, index) => ({
      ...draft,
      status: index % 3 === 2 ? "reversed" : "issued",
      on: addDays(draft.on, random.int(1, 2)),
    }));
  const insert = db.prepare("INSERT INTO refunds VALUES (?, ?, ?, ?, ?, ?)");
  [...drafts, ...doubles]
    .map((draft) => ({ ...draft, on: draft.on > today ? today : draft.on }))
    .sort((a, b) => (a.on < b.on ? -1 : a.on > b.on ? 1 : 0) || (a.order.id < b.order.id ? -1 : 1))
    .forEach((draft, index) =>
      insert.run(
        refundId.format(300000 + index * 2),
        draft.order.id,
        draft.dispute,
        draft.amount,
        draft.status,
        draft.on,
      ),
    );
}

/** Sellers, orders with their tracking, disputes with their threads, refunds and the desk's workspace. */
export function generateMarketplace(context: GenerateContext): void {
  const sellers = generateSellers(context);
  const orders = generateOrders(context, sellers);
  const disputes = draftDisputes(context, orders);
  insertOrders(context, orders);
  insertDisputes(context, disputes);
  insertRefunds(context, orders, disputes);
  writeMarketplaceDocuments(context);
}
