import { between, dateRange, sumBy } from "../../envs/index.js";
import { onHand } from "./plant-orders.js";
import type { CountEntry, Item, Random, RestaurantWorld } from "./world.js";
import { COUNT_WEEKS, WEEK_END, WEEK_START, round } from "./world.js";

/** Base units each recipe-using item is consumed by the week's sales at a location. */
function theoreticalUsage(world: RestaurantWorld, location: string): Map<string, number> {
  const usage = new Map<string, number>();
  const days = world.sales.get(location)!;
  for (const day of dateRange(WEEK_START, WEEK_END))
    for (const recipe of world.recipes)
      for (const { item, quantity } of recipe.lines) {
        const units = ((days.get(day)?.get(recipe.id) ?? 0) * quantity) / recipe.portions;
        usage.set(item.id, (usage.get(item.id) ?? 0) + units);
      }
  return usage;
}

/** Count entries for an item: its quantity split over its storage areas, each in cases or base units. */
function entriesFor(random: Random, item: Item, quantity: number): CountEntry[] {
  const shares = item.areas.length === 1 ? [1] : [0.6, 0.4];
  return item.areas.map((area, n) => {
    const share = quantity * shares[n]!;
    if (item.pack >= 4 && random.chance(0.45))
      return { item, area, unit: "cs", value: Math.round((share / item.pack) * 2) / 2 };
    const value = item.product.unit === "ea" ? Math.round(share) : round(share, 1);
    return { item, area, unit: item.product.unit, value };
  });
}

/**
 * The two weekly counts per location: last week's closing count, then this one = opening + deliveries in
 * the week - the sales' theoretical usage with some unexplained loss (non-food items just get used).
 */
export function plantCounts(world: RestaurantWorld, random: Random): void {
  for (const location of world.locations) {
    const usage = theoreticalUsage(world, location.id);
    const inWeek = world.deliveries.filter(
      (d) => d.po.location === location && d.day >= WEEK_START && d.day <= WEEK_END,
    );
    const received = sumBy(
      inWeek,
      (d) => d.item.id,
      (d) => d.cases * d.item.pack,
    );
    const opening: CountEntry[] = [];
    const closing: CountEntry[] = [];
    for (const item of location.items) {
      const used = usage.get(item.id) ?? 0;
      const open = Math.max(item.pack * between(random, 0.3, 2.5), used * between(random, 1.1, 1.6));
      const entries = entriesFor(random, item, open);
      opening.push(...entries);
      const counted = entries.reduce((sum, e) => sum + (e.unit === "cs" ? e.value * item.pack : e.value), 0);
      const loss =
        item.product.batch > 0 ? used * between(random, 1, 1.15) : item.pack * between(random, 0, 0.4);
      closing.push(...entriesFor(random, item, Math.max(0, counted + (received.get(item.id) ?? 0) - loss)));
    }
    world.counts.set(
      location.id,
      new Map([
        [COUNT_WEEKS[0].label, opening],
        [COUNT_WEEKS[1].label, closing],
      ]),
    );
  }
}

/** Par levels: about one item in eight per location below par at the latest count, the rest at or above. */
export function plantPars(world: RestaurantWorld, random: Random): void {
  for (const location of world.locations) {
    const close = onHand(world, location.id);
    const pars = new Map<string, number>();
    location.items.forEach((item, n) => {
      const have = close.get(item.id) ?? 0;
      const below = n < 2 || item.status === "discontinued" || random.chance(0.12);
      pars.set(
        item.id,
        below
          ? Math.ceil(have + item.pack * between(random, 0.6, 2.5))
          : Math.floor(have * between(random, 0.5, 0.95)),
      );
    });
    world.pars.set(location.id, pars);
  }
}
