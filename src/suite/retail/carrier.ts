import type Database from "better-sqlite3";
import { addDays, allRows, dateTime, type GenerateContext } from "../../envs/index.js";

/**
 * The carriers' side of shipping: tracking for the orders the store still shows as shipped, planted by the
 * tasks that reconcile with it. The store's status sync broke a few days ago, so orders the carrier has
 * delivered since then still show as shipped.
 */

export interface TrackingEvent {
  at: string;
  code:
    | "LABEL_CREATED"
    | "PICKED_UP"
    | "IN_TRANSIT"
    | "OUT_FOR_DELIVERY"
    | "DELIVERED"
    | "POD_UPLOADED"
    | "EXCEPTION";
  description: string;
}

/** Tracking lookups for these orders time out once (the carrier API's flaky shard), answering as text. */
export function trackingLookupTimesOut(orderId: number): boolean {
  return orderId % 3 === 0;
}

const CARRIERS = [
  { name: "Parcelway", prefix: "PW" },
  { name: "SwiftShip", prefix: "SS" },
];

const DELIVERY_SPOTS = [
  "Delivered, front door",
  "Delivered, handed to resident",
  "Delivered to parcel locker",
];

const EXCEPTIONS = [
  "Delivery attempted, recipient unavailable; will retry next business day",
  "Address could not be located; held at depot, shipper contacted",
  "Package damaged in transit; carrier inspection in progress",
];

function at(date: string, random: GenerateContext["random"], fromHour: number, toHour: number): string {
  return dateTime(date, random.int(fromHour * 3600, toHour * 3600));
}

function scan(at: string, code: TrackingEvent["code"], description: string): TrackingEvent {
  return { at, code, description };
}

/**
 * Reverts the orders delivered since the sync broke to `shipped` (the carrier knows their delivery) and
 * records carrier tracking for every order now shown as shipped: delivered (with a proof-of-delivery scan
 * after the delivery), in transit, out for delivery, or held by an exception.
 */
export function plantCarrierTracking(context: GenerateContext): void {
  const { db, random } = context;
  const today = context.referenceDate.slice(0, 10);
  const delivered = allRows<{ id: number; shipped_at: string; delivered_at: string }>(
    db,
    "SELECT id, shipped_at, delivered_at FROM orders WHERE status = 'delivered' ORDER BY delivered_at, id",
  );
  // The sync broke six days ago, or earlier when needed for one of the flaky lookups to hide a delivery.
  let brokeOn = addDays(today, -6);
  const since = (date: string) => delivered.filter((order) => order.delivered_at.slice(0, 10) >= date);
  while (!since(brokeOn).some((order) => trackingLookupTimesOut(order.id)) && brokeOn > addDays(today, -30))
    brokeOn = addDays(brokeOn, -1);
  const reverted = since(brokeOn);
  const stillShipped = allRows<{ id: number; shipped_at: string }>(
    db,
    "SELECT id, shipped_at FROM orders WHERE status = 'shipped' ORDER BY id",
  );
  const revert = db.prepare("UPDATE orders SET status = 'shipped', delivered_at = NULL WHERE id = ?");
  const insert = db.prepare(
    "INSERT INTO carrier_tracking (order_id, carrier, tracking_number, status, events) VALUES (?, ?, ?, ?, ?)",
  );
  const start = (shippedAt: string): TrackingEvent[] => [
    scan(addMinutes(shippedAt, -random.int(60, 300)), "LABEL_CREATED", "Shipping label created"),
    scan(shippedAt, "PICKED_UP", "Picked up from Larkspur & Co. fulfilment center"),
  ];
  const record = (orderId: number, status: string, events: TrackingEvent[]) => {
    const carrier = random.pick(CARRIERS);
    insert.run(
      orderId,
      carrier.name,
      `${carrier.prefix}${String(random.int(10_000_000, 99_999_999))}${String(random.int(10, 99))}`,
      status,
      JSON.stringify(events),
    );
  };
  for (const order of reverted) {
    revert.run(order.id);
    const day = order.delivered_at.slice(0, 10);
    record(order.id, "delivered", [
      ...start(order.shipped_at),
      scan(at(addDays(order.shipped_at, 1), random, 1, 5), "IN_TRANSIT", "Arrived at regional hub"),
      scan(at(day, random, 6, 8), "OUT_FOR_DELIVERY", "Out for delivery"),
      scan(order.delivered_at, "DELIVERED", random.pick(DELIVERY_SPOTS)),
      scan(
        addMinutes(order.delivered_at, random.int(45, 600)),
        "POD_UPLOADED",
        "Proof-of-delivery photo uploaded",
      ),
    ]);
  }
  // Orders really still on their way: in transit, out for delivery today, or held by an exception.
  const onTheWay = random.shuffle(stillShipped);
  onTheWay.forEach((order, index) => {
    const shipped = order.shipped_at.slice(0, 10);
    const kind =
      index === 0
        ? "out_for_delivery"
        : index === 1
          ? "exception"
          : random.pick(["in_transit", "in_transit", "out_for_delivery", "exception"]);
    const events = start(order.shipped_at);
    if (kind === "out_for_delivery")
      events.push(scan(at(today, random, 6, 9), "OUT_FOR_DELIVERY", "Out for delivery"));
    else if (kind === "exception")
      events.push(scan(at(addDays(shipped, 1), random, 9, 20), "EXCEPTION", random.pick(EXCEPTIONS)));
    else events.push(scan(at(addDays(shipped, 1), random, 0, 6), "IN_TRANSIT", "Departed regional hub"));
    record(
      order.id,
      kind,
      events.sort((left, right) => left.at.localeCompare(right.at)),
    );
  });
  if (stillShipped.length < 2 || reverted.length === 0)
    throw new Error("carrier tracking needs deliveries to sync and shipments still on their way");
}

/** The timestamp (YYYY-MM-DDTHH:MM:SS) `minutes` later. */
export function addMinutes(timestamp: string, minutes: number): string {
  const value = new Date(`${timestamp}Z`).getTime() + minutes * 60_000;
  return new Date(value).toISOString().slice(0, 19);
}

/**
 * What the sync must do: every order shown as shipped that the carrier delivered (order id -> time of the
 * DELIVERED scan), and the exceptions.
 */
export function computeCarrierSync(db: Database.Database): {
  delivered: Map<number, string>;
  exceptions: number[];
} {
  const rows = allRows<{ order_id: number; status: string; events: string }>(
    db,
    `SELECT t.order_id, t.status, t.events FROM carrier_tracking t JOIN orders o ON o.id = t.order_id
      WHERE o.status = 'shipped' ORDER BY t.order_id`,
  );
  const delivered = new Map<number, string>();
  const exceptions: number[] = [];
  for (const row of rows) {
    if (row.status === "exception") exceptions.push(row.order_id);
    if (row.status !== "delivered") continue;
    const scan = (JSON.parse(row.events) as TrackingEvent[]).find((event) => event.code === "DELIVERED");
    if (scan) delivered.set(row.order_id, scan.at);
  }
  return { delivered, exceptions };
}
