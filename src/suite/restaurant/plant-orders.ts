import { addDays, between, roundCents, sumBy, weightedPick } from "../../envs/index.js";
import { deliveryId, poId } from "./ids.js";
import type { Item, Location, Po, Random, RestaurantWorld } from "./world.js";
import { COUNT_WEEKS } from "./world.js";

type Role = "plain" | "short" | "within" | "breach" | "substitute" | "short-breach";
/** The roles of the history's other orders, drawn 10 : 8 : 8 : 5 : 69. */
const ROLES: Role[] = ["short", "within", "breach", "substitute", "plain"];

/** The agreed case price of an item with its own supplier, or undefined when the agreement does not list it. */
export function agreedPrice(world: RestaurantWorld, item: Item): number | undefined {
  return world.agreements.get(item.supplier)?.prices.get(item.id);
}

function addPo(
  world: RestaurantWorld,
  location: Location,
  item: Item,
  cases: number,
  ordered: string,
  status: Po["status"],
): Po {
  const po: Po = {
    id: poId.format(world.pos.length + 1),
    location,
    item,
    cases,
    price: agreedPrice(world, item) ?? item.price,
    status,
    ordered,
  };
  world.pos.push(po);
  return po;
}

/**
 * Purchase orders. The history (delivered and cancelled orders with their deliveries, some short, some
 * substituted, some invoiced above the agreement); with `onOrder`, the open orders: recent ones for items
 * below par and stale ones the cancellation policy catches (and some it spares).
 */
export function plantOrders(
  world: RestaurantWorld,
  random: Random,
  options: { onOrder?: boolean } = {},
): void {
  if (options.onOrder) {
    for (const location of world.locations) plantOpenOrders(world, random, location);
    return;
  }
  const perLocation = 10 * (world.items.length / 80);
  // Cases every instance has, recent enough for the June and credit-window tasks (one short one too old).
  const forced: Array<[Role, number]> = [
    ["breach", 5],
    ["substitute", 8],
    ["short", 6],
    ["short-breach", 9],
    ["within", 4],
    ["short", 32],
    ["breach", 11],
    ["substitute", 12],
  ];
  for (const location of world.locations) {
    const active = location.items.filter((item) => item.status === "active");
    const agreed = active.filter(
      (item) => agreedPrice(world, item) !== undefined && world.agreements.get(item.supplier)!.tolerance > 0,
    );
    for (let n = 0; n < perLocation; n += 1) {
      const planted = forced.shift();
      const [role, age] = planted ?? [weightedPick(random, ROLES, [10, 8, 8, 5, 69]), random.int(3, 40)];
      const item = random.pick(planted && agreed.length > 0 ? agreed : active);
      const ordered = addDays(world.today, -age);
      if (role === "plain" && random.chance(0.05)) {
        addPo(world, location, item, random.int(1, 5), ordered, "cancelled");
        continue;
      }
      const po = addPo(
        world,
        location,
        item,
        random.int(role.startsWith("short") ? 2 : 1, 6),
        ordered,
        "delivered",
      );
      deliver(world, random, po, role);
    }
  }
  plantCredits(world, random);
}

function deliver(world: RestaurantWorld, random: Random, po: Po, role: Role): void {
  const agreement = world.agreements.get(po.item.supplier)!;
  const agreed = agreement.prices.get(po.item.id);
  const tolerance = agreement.tolerance;
  let item = po.item;
  let price = po.price;
  let cases = po.cases;
  let note: string | null = null;
  const overBy = (percent: number): number => roundCents((agreed ?? po.price) * (1 + percent / 100));
  if (role === "short" || role === "short-breach") {
    cases = po.cases - random.int(1, po.cases - 1);
    note = `short ${po.cases - cases} cs`;
  }
  if ((role === "within" && tolerance > 0) || role === "breach" || role === "short-breach")
    price =
      agreed === undefined
        ? price
        : overBy(
            role === "within" ? tolerance * between(random, 0.3, 0.9) : tolerance + between(random, 2, 9),
          );
  if (role === "substitute") {
    const options = world.items.filter(
      (other) => other.product === po.item.product && other !== po.item && !agreement.prices.has(other.id),
    );
    if (options.length > 0) {
      item = random.pick(options);
      // Overbilled only against an agreed price: an unlisted ordered item is billed at the catalogue
      // price, so an overbilled substitute for it would be a breach the agreements leave undefined.
      const over = overBy(tolerance + between(random, 3, 8));
      if (agreed !== undefined) price = over;
      note = `substituted for ${po.item.id} (out of stock)`;
    }
  }
  let day = addDays(po.ordered, random.int(1, 3));
  if (day >= world.today) day = addDays(world.today, -1);
  world.deliveries.push({
    id: deliveryId.format(world.deliveries.length + 1),
    po,
    item,
    cases,
    price,
    day,
    note,
  });
}

/** Credits already requested: for some of the recent short deliveries (a program must not ask twice). */
function plantCredits(world: RestaurantWorld, random: Random): void {
  const since = addDays(world.today, -world.rules.creditWindowDays);
  const shorts = world.deliveries.filter((d) => d.cases < d.po.cases && d.day >= since);
  for (const delivery of shorts.filter((_, n) => n === 0 || (n > 1 && random.chance(0.2))))
    world.credits.push({
      delivery,
      amount: roundCents((delivery.po.cases - delivery.cases) * delivery.po.price),
      day: addDays(delivery.day, 1),
    });
}

function plantOpenOrders(world: RestaurantWorld, random: Random, location: Location): void {
  const pars = world.pars.get(location.id)!;
  const close = onHand(world, location.id);
  const active = location.items.filter((item) => item.status === "active");
  for (const item of active) {
    const deficit = (pars.get(item.id) ?? 0) - (close.get(item.id) ?? 0);
    if (deficit <= 0 || !random.chance(0.45)) continue;
    const needed = Math.ceil(deficit / item.pack);
    const cases = random.chance(0.5) || needed < 2 ? needed : needed - 1;
    addPo(world, location, item, cases, addDays(world.today, -random.int(1, 3)), "open");
  }
  const { staleDays, standingDays, standingSuppliers } = world.rules;
  const stale = 3 + Math.round(world.items.length / 80);
  for (let n = 0; n < stale + 2; n += 1) {
    const item = random.pick(active);
    const standing = standingSuppliers.includes(item.supplier);
    // The last two are the edges: exactly at the window, and (for a standing order) inside its longer one.
    const age =
      n === stale
        ? staleDays
        : n === stale + 1
          ? random.int(staleDays + 1, standingDays)
          : random.int(staleDays + 1, 30);
    const pool = active.filter((i) => standingSuppliers.includes(i.supplier) === (n === stale + 1));
    const chosen = n >= stale && pool.length > 0 ? random.pick(pool) : item;
    if (n < stale && standing && age <= standingDays) continue;
    addPo(world, location, chosen, random.int(1, 4), addDays(world.today, -age), "open");
  }
}

/** Base units on hand at the latest count, by item. */
export function onHand(world: RestaurantWorld, location: string): Map<string, number> {
  const entries = world.counts.get(location)!.get(COUNT_WEEKS[1].label)!;
  return sumBy(
    entries,
    (e) => e.item.id,
    (e) => (e.unit === "cs" ? e.value * e.item.pack : e.value),
  );
}
