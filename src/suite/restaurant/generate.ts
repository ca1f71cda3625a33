import type { GenerateContext } from "../../envs/index.js";
import { addDays, between, dateRange, personName, roundCents, sample } from "../../envs/index.js";
import {
  AREA_OF,
  AREAS,
  LOCATION_NAMES,
  PRODUCTS,
  RECIPE_CATEGORIES,
  RECIPE_WORDS,
  SUPPLIER_NAMES,
  VARIANTS,
} from "./catalog.js";
import { writeRestaurantDocuments } from "./documents.js";
import { itemId, locationId, recipeId, supplierId, wasteId } from "./ids.js";
import { insertWorld } from "./insert.js";
import { plantCounts, plantPars } from "./plant-counts.js";
import { plantOrders } from "./plant-orders.js";
import type { Item, Random, Recipe, RestaurantWorld } from "./world.js";
import { round, unitCost } from "./world.js";

/** Fills the restaurant group's database and writes its count workbooks and documents for one scale. */
export function generateRestaurant(context: GenerateContext): void {
  const { random, faker, factors, referenceDate: today } = context;
  const suppliers = SUPPLIER_NAMES.slice(0, 4 + 2 * factors.files).map((name, n) => ({
    id: supplierId.format(n + 1),
    name,
    category: random.pick(["broadline", "specialty", "local"]),
  }));
  const items = makeItems(random, suppliers, 60 + 20 * factors.rows);
  const world: RestaurantWorld = {
    today,
    suppliers,
    items,
    locations: [],
    recipes: makeRecipes(random, items, 10 + 3 * factors.rows),
    pos: [],
    deliveries: [],
    agreements: new Map(),
    counts: new Map(),
    pars: new Map(),
    wasteLimits: new Map(),
    credits: [],
    sales: new Map(),
    wasteLogs: [],
    rules: {
      staleDays: random.pick([10, 14]),
      standingDays: 21,
      standingSuppliers: sample(random, suppliers, 2).map((s) => s.id),
      creditWindowDays: 14,
      parFactor: context.seed % 2 === 0 ? 1.5 : 1.25,
      targets: {
        starter: random.pick([26, 28]),
        main: random.pick([30, 32]),
        dessert: random.pick([22, 24]),
      },
    },
  };
  const emails = new Set<string>();
  for (let n = 0; n < 1 + 2 * factors.files; n += 1) {
    const [name, city] = LOCATION_NAMES[n % LOCATION_NAMES.length]!;
    world.locations.push({
      id: locationId.format(n + 1),
      name,
      city,
      manager: personName(faker, "example.com", emails).fullName,
      items: items.filter((item) => item.status === "discontinued" || random.chance(0.88)),
    });
  }
  makeAgreements(world, random);
  priceRecipes(world, random);
  plantOrders(world, random);
  plantSales(world, random);
  plantCounts(world, random);
  plantPars(world, random);
  plantOrders(world, random, { onOrder: true });
  plantWaste(world, random);
  insertWorld(context, world);
  writeRestaurantDocuments(context, world);
}

function makeItems(random: Random, suppliers: RestaurantWorld["suppliers"], count: number): Item[] {
  const items: Item[] = [];
  for (let n = 0; n < count; n += 1) {
    const product = PRODUCTS[n % PRODUCTS.length]!;
    const cycle = Math.floor(n / PRODUCTS.length);
    const variant = VARIANTS[cycle % VARIANTS.length]!;
    const suffix = cycle >= VARIANTS.length ? ` ${Math.floor(cycle / VARIANTS.length) + 1}` : "";
    const area = AREA_OF[product.category]!;
    const areas = random.chance(0.15) ? [area, random.pick(AREAS.filter((a) => a !== area))] : [area];
    items.push({
      id: itemId.format(n + 1),
      name: `${product.name}${variant ? `, ${variant}` : ""}${suffix}`,
      product,
      supplier: random.pick(suppliers).id,
      pack: product.pack,
      price: roundCents(product.price * between(random, 0.85, 1.25)),
      status: n > 4 && random.chance(0.06) ? "discontinued" : "active",
      areas,
    });
  }
  return items;
}

function makeRecipes(random: Random, items: Item[], count: number): Recipe[] {
  const food = items.filter((item) => item.product.batch > 0 && item.status === "active");
  return Array.from({ length: count }, (_, n) => {
    const category = RECIPE_CATEGORIES[n % RECIPE_CATEGORIES.length]!;
    const words = RECIPE_WORDS[category];
    const cycle = Math.floor(n / RECIPE_CATEGORIES.length);
    const name =
      words[cycle % words.length]! +
      (cycle >= words.length ? ` ${Math.floor(cycle / words.length) + 1}` : "");
    const lines = sample(random, food, random.int(3, 6)).map((item) => ({
      item,
      quantity:
        item.product.unit === "ea"
          ? Math.max(1, Math.round(item.product.batch * between(random, 0.6, 1.3)))
          : round(item.product.batch * between(random, 0.6, 1.3), 2),
    }));
    return { id: recipeId.format(n + 1), name, category, menuPrice: 0, portions: random.int(4, 16), lines };
  });
}

/** Menu prices from the plate cost: about a third of the recipes (always RCP-003) over their target. */
function priceRecipes(world: RestaurantWorld, random: Random): void {
  for (const recipe of world.recipes) {
    const cost =
      recipe.lines.reduce((sum, line) => sum + line.quantity * unitCost(line.item), 0) / recipe.portions;
    const target = world.rules.targets[recipe.category] / 100;
    const over = recipe.id === "RCP-003" || (recipe.id !== "RCP-001" && random.chance(0.3));
    // RCP-003 (a dessert) sits just over its own target, under the mains' one.
    const pct =
      target *
      (recipe.id === "RCP-003"
        ? between(random, 1.1, 1.2)
        : over
          ? between(random, 1.12, 1.5)
          : between(random, 0.6, 0.88));
    // Rounded to the quarter away from the target, so the rounding never moves a recipe across it.
    recipe.menuPrice = (pct > target ? Math.floor : Math.ceil)((cost / pct) * 4) / 4;
  }
}

/** Supplier agreements: most of a supplier's items at an agreed case price below the catalogue's. */
function makeAgreements(world: RestaurantWorld, random: Random): void {
  for (const supplier of world.suppliers) {
    const prices = new Map<string, number>();
    for (const item of world.items)
      if (item.supplier === supplier.id && random.chance(0.85))
        prices.set(item.id, roundCents(item.price * between(random, 0.86, 0.97)));
    world.agreements.set(supplier.id, {
      supplier: supplier.id,
      supplierName: supplier.name,
      tolerance: random.pick([0, 1, 2, 3]),
      effective: addDays(world.today, -random.int(60, 200)),
      prices,
    });
  }
}

const WASTE_REASONS = ["spoiled", "dropped", "overproduction", "expired", "staff meal"];

/** Portions sold per location, day and recipe over the last three weeks. */
function plantSales(world: RestaurantWorld, random: Random): void {
  for (const location of world.locations) {
    const days = new Map<string, Map<string, number>>();
    const base = new Map(world.recipes.map((recipe) => [recipe.id, random.int(2, 14)]));
    const portions = (r: Recipe): number =>
      Math.max(0, Math.round(base.get(r.id)! * between(random, 0.5, 1.5)));
    for (const day of dateRange(addDays(world.today, -21), addDays(world.today, -1)))
      days.set(day, new Map(world.recipes.map((r) => [r.id, portions(r)])));
    world.sales.set(location.id, days);
  }
}

/** Four weeks of waste logs; each location's weekly limit is set against last week's waste. */
function plantWaste(world: RestaurantWorld, random: Random): void {
  const logs = world.wasteLogs;
  const add = (
    locationId: string,
    itemId: string,
    quantity: number,
    reason: string,
    loggedOn: string,
  ): void => {
    logs.push({ wasteId: wasteId.format(logs.length + 1), locationId, itemId, quantity, reason, loggedOn });
  };
  const weekStart = addDays(world.today, -7);
  world.locations.forEach((location, index) => {
    const food = location.items.filter((item) => item.product.batch > 0);
    let week = 0;
    for (const day of dateRange(addDays(world.today, -28), addDays(world.today, -1))) {
      const perDay = day >= addDays(world.today, -14) ? random.int(8, 12) : random.int(1, 3);
      for (let n = 0; n < perDay; n += 1) {
        const item = random.pick(food);
        const quantity = wasteQuantity(item, between(random, 0.03, 0.25));
        const reason = random.chance(0.15) ? "staff meal" : random.pick(WASTE_REASONS.slice(0, 4));
        add(location.id, item.id, quantity, reason, day);
        if (day >= weekStart && reason !== "staff meal") week += quantity * unitCost(item);
      }
    }
    const over = index === 1 || (index !== 0 && random.chance(0.5));
    const limit = over
      ? Math.floor((week * between(random, 0.7, 0.88)) / 5) * 5
      : Math.ceil((week * between(random, 1.08, 1.25)) / 5) * 5;
    world.wasteLimits.set(location.id, limit);
    if (!over) {
      // A staff meal that would tip the week over the limit for a reader who counts it as waste.
      const item = random.pick(food);
      add(
        location.id,
        item.id,
        wasteQuantity(item, ((limit - week) * 1.5) / item.price),
        "staff meal",
        addDays(world.today, -3),
      );
    }
  });
}

function wasteQuantity(item: Item, cases: number): number {
  const quantity = cases * item.pack;
  return item.product.unit === "ea"
    ? Math.max(1, Math.ceil(quantity))
    : Math.max(0.1, Math.ceil(quantity * 10) / 10);
}
