import type { Faker } from "@faker-js/faker";
import type { SeededRandom } from "../../core/index.js";
import {
  addDays,
  between,
  insertDrafts,
  insertRecords,
  personName,
  roundCents,
  toCsv,
  toJsonDocument,
  type GenerateContext,
} from "../../envs/index.js";
import {
  CYCLE_COUNT_DIRECTORY,
  DAMAGE_REPORT_DIRECTORY,
  INVENTORY_SOP_PATH,
  MOVEMENT_LOG_DIRECTORY,
  MOVEMENT_LOG_HEADER,
  OPERATIONS_BULLETIN_PATH,
  RATE_CARD_PATH,
  RATE_CARD_RULES,
  REPLENISHMENT_POLICY_PATH,
  cheapestCarrier,
  renderCountSheet,
  renderDamageReport,
  renderInventorySop,
  renderOperationsBulletin,
  renderReplenishmentPolicy,
  type CarrierRates,
  type CountLine,
  type DamageEntry,
  type Disposition,
  type InventorySop,
  type OperationsBulletin,
  type RateCard,
  type ReplenishmentPolicy,
} from "./documents.js";
import {
  BUYERS,
  CARRIERS,
  CATEGORIES,
  CATEGORY_SUPPLIERS,
  CUSTOMERS,
  DAMAGE_CAUSES,
  DESTINATIONS,
  ORDER_NOTES,
  REGIONS,
  SUPPLIERS,
  WAREHOUSES,
  ZONE_CHART,
  type Region,
} from "./reference-data.js";

/** Base row counts at v0; each is multiplied by `factors.rows`. */
const BASE_PRODUCTS = 60;
const BASE_PURCHASE_ORDERS = 40;
const BASE_SHIPMENTS = 80;
const BASE_PENDING_SHIPMENTS = 10;
/** Scaled workspace files per unit of `factors.files`. */
const COUNT_SHEETS_PER_FACTOR = 4;
const DAMAGE_REPORTS_PER_FACTOR = 2;
const MOVEMENT_LOGS_PER_FACTOR = 3;
const LINES_PER_COUNT_SHEET = 14;

interface Product {
  sku: string;
  name: string;
  category: string;
  unitOfMeasure: string;
  casePack: number;
  unitCost: number;
  unitPrice: number;
  weightKg: number;
  shelfLifeDays: number | null;
  status: "active" | "discontinued";
  createdOn: string;
}

interface Lot {
  lotId: string;
  sku: string;
  warehouseId: string;
  binLocation: string;
  quantity: number;
  receivedOn: string;
  expiresOn: string | null;
  status: "available" | "quarantine";
}

interface PurchaseOrder {
  id: string;
  supplierId: string;
  warehouseId: string;
  status: "draft" | "submitted" | "received" | "cancelled";
  orderedOn: string | null;
  expectedOn: string | null;
  createdBy: string;
  notes: string | null;
  lines: Array<{ sku: string; quantity: number; unitCost: number }>;
}

/** What a shipment's freight price depends on. */
interface ShipmentShape {
  originWarehouseId: string;
  destinationCity: string;
  destinationState: string;
  destinationRegion: Region;
  weightKg: number;
  isHazmat: boolean;
  serviceLevel: "standard" | "expedited";
}

interface Shipment extends ShipmentShape {
  id: string;
  customerName: string;
  status: "pending" | "assigned" | "in_transit" | "delivered" | "cancelled";
  carrierId: string | null;
  freightCost: number | null;
  createdOn: string;
  shipBy: string;
}

/** A person's full name (the address the kit derives with it is not used). */
const fullName = (faker: Faker): string => personName(faker, "northstar-dist.example").fullName;

/** `HH:MM` of a number of minutes after midnight. */
const clockTime = (minutes: number): string =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

const WAREHOUSE_REGION = new Map(WAREHOUSES.map((warehouse) => [warehouse.id, warehouse.region]));

/** Up to `count` items taken off the end of `pool`, last first. */
function popUpTo<Item>(pool: Item[], count: number): Item[] {
  return pool.splice(-count, count).reverse();
}

function roundTo(value: number, step: number): number {
  return Math.round(value / step) * step;
}

/** The supplier the bulletin suspends, the replenishment policy's category levels and the SOP's rules. */
function drawPolicies(random: SeededRandom) {
  const suspendedSupplierId = random.pick(
    CATEGORIES.map((category) => CATEGORY_SUPPLIERS[category.name]?.[0] ?? ""),
  );
  const policy: ReplenishmentPolicy = { categories: {}, overrides: {} };
  for (const category of CATEGORIES) {
    const reorderPoint = roundTo(category.reorderPoint * between(random, 0.85, 1.15), 5);
    const orderUpTo = Math.max(
      reorderPoint + 40,
      roundTo(category.orderUpTo * between(random, 0.85, 1.15), 5),
    );
    const candidates = CATEGORY_SUPPLIERS[category.name] ?? [];
    policy.categories[category.name] = {
      reorderPoint,
      orderUpTo,
      preferredSupplierId: candidates[0] ?? "",
      backupSupplierId: random.pick(candidates.slice(1)),
    };
  }
  const sop: InventorySop = { expiryWindowDays: {}, countToleranceUnits: {}, varianceValueThreshold: 0 };
  for (const category of CATEGORIES) {
    if (category.expiryWindowDays !== null) {
      const base = category.expiryWindowDays;
      sop.expiryWindowDays[category.name] = Math.max(
        2,
        base + random.pick([-1, 0, 0, 1]) * Math.ceil(base / 5),
      );
    }
    sop.countToleranceUnits[category.name] = Math.max(
      1,
      category.countToleranceUnits + random.pick([-1, 0, 0, 1]),
    );
  }
  sop.varianceValueThreshold = random.pick([100, 150, 200]);
  return { suspendedSupplierId, policy, sop };
}

/** Fills the logistics database and writes its workspace documents for one scale. */
export function generateLogistics(context: GenerateContext): void {
  const { random, faker, factors } = context;
  const today = context.referenceDate.slice(0, 10);

  // ------------------------------------------------------------ policies (drawn first: stock is shaped by them)
  const { suspendedSupplierId, policy, sop } = drawPolicies(random);

  // ------------------------------------------------------------ warehouses, suppliers
  const warehouseRows = WAREHOUSES.map((warehouse) => ({ ...warehouse, managerName: fullName(faker) }));
  const supplierRows = SUPPLIERS.map((supplier) => {
    const firstName = faker.person.firstName();
    const lastName = faker.person.lastName();
    const domain = `${supplier.name.toLowerCase().replace(/[^a-z]+/g, "")}.com`;
    return {
      ...supplier,
      contactName: `${firstName} ${lastName}`,
      contactEmail: `${firstName}.${lastName}@${domain}`.toLowerCase().replace(/[^a-z0-9.@-]/g, ""),
      phone: faker.phone.number({ style: "national" }),
      rating: Math.round(between(random, 3.1, 4.9) * 10) / 10,
    };
  });
  const supplierNames = Object.fromEntries(SUPPLIERS.map((supplier) => [supplier.id, supplier.name]));

  // ------------------------------------------------------------ products
  const products: Product[] = [];
  const usedNames = new Set<string>();
  let skuNumber = 10_000 + random.int(0, 400);
  const productCount = BASE_PRODUCTS * factors.rows;
  // Every category gets its share of the catalog, in an order that SKU numbers do not give away.
  const categoryPlan = random.shuffle(
    Array.from({ length: productCount }, (_, index) => CATEGORIES[index % CATEGORIES.length]!),
  );
  for (let index = 0; index < productCount; index += 1) {
    const category = categoryPlan[index]!;
    let name = "";
    for (let attempt = 0; attempt < 50; attempt += 1) {
      name = `${random.pick(category.brands)} ${random.pick(category.items)} ${random.pick(category.sizes)}`;
      if (!usedNames.has(name)) break;
    }
    if (usedNames.has(name)) name = `${name} (${index})`;
    usedNames.add(name);
    skuNumber += random.int(1, 23);
    const unitCost = roundCents(between(random, ...category.unitCost));
    products.push({
      sku: `SKU-${skuNumber}`,
      name,
      category: category.name,
      unitOfMeasure: category.unitOfMeasure,
      casePack: random.pick(category.casePacks),
      unitCost,
      unitPrice: roundCents(unitCost * between(random, 1.25, 1.65)),
      weightKg: Math.round(between(random, ...category.weightKg) * 100) / 100,
      shelfLifeDays: category.shelfLifeDays ? random.int(...category.shelfLifeDays) : null,
      status: random.chance(0.08) ? "discontinued" : "active",
      createdOn: addDays(today, -random.int(120, 1400)),
    });
  }
  const productsInSkuOrder = [...products].sort((left, right) => left.sku.localeCompare(right.sku));
  const productBySku = new Map(products.map((product) => [product.sku, product]));

  const reasons = ["Promoted item, feature ad", "Fast mover", "Seasonal demand", "Key account commitment"];
  for (const product of random.shuffle(products.filter((item) => item.status === "active")).slice(0, 4)) {
    const rule = policy.categories[product.category]!;
    policy.overrides[product.sku] = {
      reorderPoint: roundTo(rule.reorderPoint * between(random, 1.6, 2.2), 5),
      orderUpTo: roundTo(rule.orderUpTo * between(random, 1.6, 2.1), 5),
      reason: random.pick(reasons),
    };
  }
  const levelsFor = (product: Product): { reorderPoint: number; orderUpTo: number } =>
    policy.overrides[product.sku] ?? policy.categories[product.category]!;

  // ------------------------------------------------------------ inventory lots
  const lots: Lot[] = [];
  let lotNumber = 200_000 + random.int(0, 5_000);
  const nextLotId = (): string => {
    lotNumber += random.int(1, 9);
    return `LOT-${lotNumber}`;
  };
  const binFor = (): string =>
    `${String.fromCharCode(65 + random.int(0, 11))}-${String(random.int(1, 40)).padStart(2, "0")}-${random.int(1, 5)}`;
  const makeLot = (product: Product, warehouseId: string, quantity: number, status: Lot["status"]): Lot => {
    const shelfLife = product.shelfLifeDays;
    const age = shelfLife !== null ? random.int(0, Math.floor(shelfLife * 1.04)) : random.int(3, 220);
    const receivedOn = addDays(today, -age);
    const expiresOn = shelfLife !== null ? addDays(receivedOn, shelfLife) : null;
    return {
      lotId: nextLotId(),
      sku: product.sku,
      warehouseId,
      binLocation: binFor(),
      quantity,
      receivedOn,
      expiresOn,
      status,
    };
  };
  const splitQuantity = (total: number, parts: number): number[] => {
    const count = Math.max(1, Math.min(parts, total));
    const cuts = new Set<number>();
    while (cuts.size < count - 1) cuts.add(random.int(1, total - 1));
    const points = [0, ...[...cuts].sort((left, right) => left - right), total];
    return points.slice(1).map((point, index) => point - (points[index] ?? 0));
  };
  const stockPair = (product: Product, warehouseId: string, low: boolean): void => {
    const levels = levelsFor(product);
    const available = low
      ? random.int(Math.max(1, Math.round(levels.reorderPoint * 0.1)), levels.reorderPoint)
      : random.int(levels.reorderPoint + 1, Math.round(levels.orderUpTo * 1.25));
    const parts = product.shelfLifeDays !== null ? random.int(1, 3) : random.int(1, 2);
    for (const quantity of splitQuantity(available, parts))
      lots.push(makeLot(product, warehouseId, quantity, "available"));
    if (random.chance(0.07)) {
      const { reorderPoint } = levels;
      const quantity = random.int(Math.round(reorderPoint * 0.5), Math.round(reorderPoint * 1.5));
      lots.push(makeLot(product, warehouseId, Math.max(1, quantity), "quarantine"));
    }
  };
  /** Removes the lots of one SKU at one warehouse (only those in available status when `availableOnly`). */
  const dropLots = (sku: string, warehouseId: string, availableOnly: boolean): void => {
    const dropped = (lot: Lot): boolean =>
      lot.sku === sku && lot.warehouseId === warehouseId && (!availableOnly || lot.status === "available");
    lots.splice(0, lots.length, ...lots.filter((lot) => !dropped(lot)));
  };
  /** Replaces the available stock of a SKU at a warehouse with one or two new lots holding `available` units. */
  const restock = (product: Product, warehouseId: string, available: number): void => {
    dropLots(product.sku, warehouseId, true);
    for (const quantity of splitQuantity(available, random.int(1, 2)))
      lots.push(makeLot(product, warehouseId, quantity, "available"));
  };
  const lowPairs: Array<{ sku: string; warehouseId: string }> = [];
  const stockedAt = new Map<string, string[]>();
  for (const product of productsInSkuOrder) {
    const sites = random
      .shuffle(WAREHOUSES.map((warehouse) => warehouse.id))
      .slice(0, random.int(2, 4))
      .sort();
    stockedAt.set(product.sku, sites);
    for (const warehouseId of sites) {
      const low = random.chance(0.15);
      if (low) lowPairs.push({ sku: product.sku, warehouseId });
      stockPair(product, warehouseId, low);
    }
  }
  const suspendedCategory = CATEGORIES.find(
    (category) => policy.categories[category.name]?.preferredSupplierId === suspendedSupplierId,
  )!.name;
  const isActiveLow = (pair: { sku: string }): boolean => productBySku.get(pair.sku)?.status === "active";
  // The suspension must matter at every scale: make sure its category has an active SKU to reorder.
  if (
    !lowPairs.some((pair) => isActiveLow(pair) && productBySku.get(pair.sku)?.category === suspendedCategory)
  ) {
    const product = productsInSkuOrder.find(
      (item) => item.category === suspendedCategory && item.status === "active",
    )!;
    const warehouseId = stockedAt.get(product.sku)![0]!;
    dropLots(product.sku, warehouseId, false);
    stockPair(product, warehouseId, true);
    lowPairs.push({ sku: product.sku, warehouseId });
  }

  // ------------------------------------------------------------ purchase orders
  let poNumber = 24_000 + random.int(0, 900);
  const supplierLead = new Map(SUPPLIERS.map((supplier) => [supplier.id, supplier.leadTimeDays]));
  const suppliesCategory = (supplierId: string, category: string): boolean =>
    (CATEGORY_SUPPLIERS[category] ?? []).includes(supplierId);
  // Only the suspended supplier's order may cover this pair, so that honouring the suspension changes the
  // outcome.
  const suspendedLow = lowPairs.find(
    (pair) => isActiveLow(pair) && productBySku.get(pair.sku)?.category === suspendedCategory,
  )!;
  const isSuspendedLow = (warehouseId: string, sku: string): boolean =>
    warehouseId === suspendedLow.warehouseId && sku === suspendedLow.sku;
  const makeOrder = (
    supplierId: string,
    warehouseId: string,
    status: PurchaseOrder["status"],
    forcedLow?: { sku: string },
    exactSkus?: string[],
  ): PurchaseOrder => {
    poNumber += random.int(1, 4);
    let orderedOn: string | null = null;
    if (status === "received") orderedOn = addDays(today, -random.int(15, 150));
    if (status === "cancelled") orderedOn = addDays(today, -random.int(5, 120));
    if (status === "submitted") orderedOn = addDays(today, -random.int(1, 12));
    const expectedOn = orderedOn ? addDays(orderedOn, supplierLead.get(supplierId) ?? 7) : null;
    const open = status === "draft" || status === "submitted";
    const stocked = productsInSkuOrder.filter(
      (product) =>
        suppliesCategory(supplierId, product.category) &&
        (stockedAt.get(product.sku) ?? []).includes(warehouseId) &&
        (status === "received" || status === "cancelled" || product.status === "active") &&
        !(open && isSuspendedLow(warehouseId, product.sku)),
    );
    const lowHere = lowPairs
      .filter(
        (pair) =>
          pair.warehouseId === warehouseId &&
          isActiveLow(pair) &&
          !isSuspendedLow(pair.warehouseId, pair.sku),
      )
      .map((pair) => productBySku.get(pair.sku)!)
      .filter((product) => suppliesCategory(supplierId, product.category));
    const chosen = new Set<string>();
    if (forcedLow) chosen.add(forcedLow.sku);
    for (const sku of exactSkus ?? []) chosen.add(sku);
    const lineCount = exactSkus ? exactSkus.length : random.int(1, 4);
    for (let attempt = 0; chosen.size < lineCount && attempt < 20; attempt += 1) {
      const pool = open && lowHere.length > 0 && random.chance(0.5) ? lowHere : stocked;
      if (pool.length === 0) break;
      chosen.add(random.pick(pool).sku);
    }
    const lines = [...chosen].sort().map((sku) => {
      const product = productBySku.get(sku)!;
      return {
        sku,
        quantity: product.casePack * random.int(2, 12),
        unitCost: roundCents(product.unitCost * between(random, 0.95, 1.03)),
      };
    });
    return {
      id: `PO-${poNumber}`,
      supplierId,
      warehouseId,
      status,
      orderedOn,
      expectedOn,
      createdBy: random.pick(BUYERS),
      notes: random.chance(0.2) ? random.pick(ORDER_NOTES) : null,
      lines,
    };
  };
  // Two open orders are placed deliberately so that stock on order (and the suspension) always matter.
  const otherLow = lowPairs.find(
    (pair) => isActiveLow(pair) && productBySku.get(pair.sku)?.category !== suspendedCategory,
  );
  const orderCount = BASE_PURCHASE_ORDERS * factors.rows;
  const plannedStatuses = Array.from({ length: orderCount }, (): PurchaseOrder["status"] => {
    const roll = random.next();
    return roll < 0.55 ? "received" : roll < 0.65 ? "cancelled" : roll < 0.88 ? "submitted" : "draft";
  });
  const forcedPositions = new Set([random.int(0, orderCount - 1)]);
  let secondPosition = random.int(0, orderCount - 1);
  while (forcedPositions.has(secondPosition)) secondPosition = random.int(0, orderCount - 1);
  forcedPositions.add(secondPosition);
  const [suspendedPosition, otherPosition] = [...forcedPositions];
  const orderAt = (index: number): PurchaseOrder => {
    if (index === suspendedPosition)
      return makeOrder(suspendedSupplierId, suspendedLow.warehouseId, "submitted", suspendedLow);
    if (index === otherPosition && otherLow) {
      const { preferredSupplierId } = policy.categories[productBySku.get(otherLow.sku)!.category]!;
      return makeOrder(
        preferredSupplierId,
        otherLow.warehouseId,
        random.pick(["draft", "submitted"]),
        otherLow,
      );
    }
    return makeOrder(
      random.pick(SUPPLIERS).id,
      random.pick(WAREHOUSES).id,
      plannedStatuses[index] ?? "received",
    );
  };
  const nonEmptyOrders = Array.from({ length: orderCount }, (_, index) => orderAt(index)).filter(
    (order) => order.lines.length > 0,
  );

  // A SKU sitting exactly on its reorder point, with an order quantity that is not a whole number of
  // cases: "at or below" and case-pack rounding then always matter.
  const onOrder = new Set(
    nonEmptyOrders
      .filter((order) => order.status === "draft" || order.status === "submitted")
      .flatMap((order) => order.lines.map((line) => `${order.warehouseId}|${line.sku}`)),
  );
  const lowKeys = new Set(lowPairs.map((pair) => `${pair.warehouseId}|${pair.sku}`));
  const boundaryCandidates = productsInSkuOrder.flatMap((product) => {
    const levels = levelsFor(product);
    if (product.status !== "active" || policy.overrides[product.sku]) return [];
    if ((levels.orderUpTo - levels.reorderPoint) % product.casePack === 0) return [];
    return (stockedAt.get(product.sku) ?? [])
      .filter(
        (warehouseId) =>
          !onOrder.has(`${warehouseId}|${product.sku}`) && !lowKeys.has(`${warehouseId}|${product.sku}`),
      )
      .map((warehouseId) => ({ product, warehouseId }));
  });
  const boundary = random.pick(boundaryCandidates);
  restock(boundary.product, boundary.warehouseId, levelsFor(boundary.product).reorderPoint);

  // Open orders that the weekly review must cancel or keep: one whose lines are all overstocked (one of
  // them exactly at its order-up-to level), one with a single line still needed, and one with the
  // suspended supplier (out of the review's scope). New orders only touch pairs above their reorder point,
  // so the replenishment picture is unchanged.
  const protectedPairs = new Set([`${boundary.warehouseId}|${boundary.product.sku}`]);
  const availableOf = (warehouseId: string, sku: string): number =>
    lots
      .filter((lot) => lot.warehouseId === warehouseId && lot.sku === sku && lot.status === "available")
      .reduce((sum, lot) => sum + lot.quantity, 0);
  const reviewPairs = (
    supplierId: string,
    count: number,
  ): { warehouseId: string; products: Product[] } | null => {
    for (const warehouseId of random.shuffle(WAREHOUSES.map((warehouse) => warehouse.id))) {
      const products = random
        .shuffle(productsInSkuOrder)
        .filter(
          (product) =>
            product.status === "active" &&
            suppliesCategory(supplierId, product.category) &&
            (stockedAt.get(product.sku) ?? []).includes(warehouseId) &&
            !lowKeys.has(`${warehouseId}|${product.sku}`) &&
            !onOrder.has(`${warehouseId}|${product.sku}`) &&
            !protectedPairs.has(`${warehouseId}|${product.sku}`),
        )
        .slice(0, count);
      if (products.length === count) return { warehouseId, products };
    }
    return null;
  };
  const reviewOrder = (supplierId: string, warehouseId: string, skus: Product[]): void => {
    const order = makeOrder(
      supplierId,
      warehouseId,
      random.pick(["draft", "submitted"]),
      undefined,
      skus.map((product) => product.sku),
    );
    for (const product of skus) protectedPairs.add(`${warehouseId}|${product.sku}`);
    nonEmptyOrders.push(order);
  };
  const nonSuspended = random.shuffle(
    SUPPLIERS.map((supplier) => supplier.id).filter((id) => id !== suspendedSupplierId),
  );
  const overstock = (product: Product, warehouseId: string, exact: boolean): void => {
    const orderUpTo = levelsFor(product).orderUpTo;
    restock(product, warehouseId, exact ? orderUpTo : random.int(orderUpTo + 1, Math.round(orderUpTo * 1.3)));
  };
  const surplus = reviewPairs(nonSuspended[0]!, 2);
  if (surplus) {
    surplus.products.forEach((product, index) => overstock(product, surplus.warehouseId, index === 0));
    reviewOrder(nonSuspended[0]!, surplus.warehouseId, surplus.products);
  }
  const mixed = reviewPairs(nonSuspended[1]!, 2);
  if (mixed) {
    const [still, needed] = mixed.products as [Product, Product];
    overstock(still, mixed.warehouseId, false);
    const levels = levelsFor(needed);
    if (availableOf(mixed.warehouseId, needed.sku) >= levels.orderUpTo)
      restock(needed, mixed.warehouseId, random.int(levels.reorderPoint + 1, levels.orderUpTo - 1));
    reviewOrder(nonSuspended[1]!, mixed.warehouseId, mixed.products);
  }
  const settled = reviewPairs(suspendedSupplierId, 1);
  if (settled) {
    overstock(settled.products[0]!, settled.warehouseId, false);
    reviewOrder(suspendedSupplierId, settled.warehouseId, settled.products);
  }

  // Expiry-review edge cases: a lot expiring on the last day of its window (at risk), one that expired the
  // day before the review (not at risk) and a quarantined lot inside its window (excluded).
  const perishable = (lot: Lot): boolean =>
    sop.expiryWindowDays[productBySku.get(lot.sku)!.category] !== undefined;
  const shelfLife = (lot: Lot): number => productBySku.get(lot.sku)!.shelfLifeDays ?? 30;
  const setExpiry = (lot: Lot, expiresOn: string): void => {
    lot.expiresOn = expiresOn;
    lot.receivedOn = addDays(expiresOn, -shelfLife(lot));
  };
  const expiryPlants = new Set<string>();
  const availablePerishables = random.shuffle(
    lots.filter(
      (lot) =>
        lot.status === "available" && perishable(lot) && !protectedPairs.has(`${lot.warehouseId}|${lot.sku}`),
    ),
  );
  const onWindowEdge = availablePerishables[0]!;
  setExpiry(
    onWindowEdge,
    addDays(today, sop.expiryWindowDays[productBySku.get(onWindowEdge.sku)!.category]!),
  );
  const justExpired = availablePerishables[1]!;
  setExpiry(justExpired, addDays(today, -1));
  let quarantined = random.shuffle(lots.filter((lot) => lot.status === "quarantine" && perishable(lot)))[0];
  if (!quarantined) {
    quarantined = availablePerishables[2]!;
    quarantined.status = "quarantine";
  }
  setExpiry(
    quarantined,
    addDays(today, random.int(0, sop.expiryWindowDays[productBySku.get(quarantined.sku)!.category]!)),
  );
  for (const lot of [onWindowEdge, justExpired, quarantined]) expiryPlants.add(lot.lotId);

  // ------------------------------------------------------------ carriers, rate card, shipments
  const { rateCard, shipments, inactiveCarrierId, restrictedCarrierId, restrictedOrigin } = drawFreight(
    random,
    today,
    factors.rows,
  );
  const carrierRows = CARRIERS.map(({ id, name, scac, mode }) => ({
    id,
    name,
    scac,
    mode,
    contactEmail: `dispatch@${name.toLowerCase().replace(/[^a-z]+/g, "")}.com`,
    phone: faker.phone.number({ style: "national" }),
    active: id === inactiveCarrierId ? 0 : 1,
  }));

  // ------------------------------------------------------------ insert
  const { db } = context;
  insertRecords(db, "warehouses", warehouseRows);
  insertRecords(db, "suppliers", supplierRows);
  insertRecords(db, "carriers", carrierRows);
  insertRecords(db, "products", productsInSkuOrder);
  insertRecords(db, "inventory_lots", lots);
  const orderColumns = "id, supplier_id, warehouse_id, status, ordered_on, expected_on, created_by, notes";
  insertDrafts(db, "purchase_orders", orderColumns, nonEmptyOrders);
  insertRecords(
    db,
    "purchase_order_lines",
    nonEmptyOrders.flatMap((order) => order.lines.map((line) => ({ purchaseOrderId: order.id, ...line }))),
  );
  insertRecords(db, "shipments", shipments);

  // ------------------------------------------------------------ fixed documents
  const bulletin: OperationsBulletin = {
    issuedOn: addDays(today, -2),
    suspendedSupplierId,
    suspendedSupplierName: supplierNames[suspendedSupplierId] ?? "",
    suspensionEffectiveOn: addDays(today, -random.int(3, 10)),
    restrictedCarrierId,
    restrictedCarrierName: CARRIERS.find((carrier) => carrier.id === restrictedCarrierId)!.name,
    restrictedOriginWarehouseId: restrictedOrigin,
    expiryReviewAsOf: today,
  };
  context.writeFile(
    REPLENISHMENT_POLICY_PATH,
    renderReplenishmentPolicy(policy, supplierNames, addDays(today, -random.int(30, 90))),
  );
  context.writeFile(OPERATIONS_BULLETIN_PATH, renderOperationsBulletin(bulletin, fullName(faker)));
  context.writeFile(RATE_CARD_PATH, toJsonDocument(rateCard));
  context.writeFile(INVENTORY_SOP_PATH, renderInventorySop(sop, addDays(today, -random.int(60, 200))));

  // ------------------------------------------------------------ scaled documents
  const stock: StockPicture = { today, lots, productBySku, sop };
  writeCycleCounts(context, stock);
  writeDamageReports(context, { ...stock, lots: lots.filter((lot) => !expiryPlants.has(lot.lotId)) });
  writeMovementLogs(context, today, lots, nonEmptyOrders, shipments);
}

/**
 * The freight side of the network: the carriers' rate card, the outbound shipments, and the inactive carrier
 * and restricted (carrier, origin) pair of the bulletin, drawn so that every carrier rule decides a shipment.
 */
function drawFreight(random: SeededRandom, today: string, rows: number) {
  const rateCard: RateCard = {
    title: "Outbound freight rate card",
    effective_from: addDays(today, -random.int(40, 120)),
    currency: "USD",
    pricing_rules: RATE_CARD_RULES,
    zone_chart: ZONE_CHART,
    carriers: CARRIERS.map((carrier): CarrierRates => {
      const zones: CarrierRates["zones"] = {};
      const parcel = carrier.mode === "parcel";
      const baseStart = parcel ? between(random, 7, 11) : between(random, 48, 85);
      const baseStep = parcel ? between(random, 1.6, 2.8) : between(random, 10, 16);
      const perKgStart = parcel ? between(random, 0.85, 1.3) : between(random, 0.11, 0.22);
      const perKgStep = parcel ? between(random, 0.12, 0.22) : between(random, 0.03, 0.06);
      for (const zone of carrier.zones) {
        zones[String(zone)] = {
          base: roundCents(baseStart + baseStep * (zone - 1)),
          per_kg: Math.round((perKgStart + perKgStep * (zone - 1)) * 1000) / 1000,
        };
      }
      return {
        carrier_id: carrier.id,
        carrier_name: carrier.name,
        mode: carrier.mode,
        max_weight_kg: carrier.maxWeightKg,
        hazmat_certified: carrier.hazmatCertified,
        expedited_multiplier: carrier.expeditedMultiplier,
        minimum_charge: carrier.minCharge,
        fuel_surcharge_pct: Math.round(between(random, parcel ? 9 : 14, parcel ? 16 : 24) * 10) / 10,
        zones,
      };
    }),
  };

  const drawShipmentShape = (originWarehouseId?: string): ShipmentShape => {
    const origin = originWarehouseId ?? random.pick(WAREHOUSES).id;
    const originRegion = WAREHOUSE_REGION.get(origin)!;
    const destinationRegion: Region = random.chance(0.35) ? originRegion : random.pick(REGIONS);
    const [destinationCity, destinationState] = random.pick(DESTINATIONS[destinationRegion]);
    const parcelSized = random.chance(0.62);
    const weightKg =
      Math.round((parcelSized ? between(random, 0.6, 66) : between(random, 80, 3600)) * 10) / 10;
    return {
      originWarehouseId: origin,
      destinationCity,
      destinationState,
      destinationRegion,
      weightKg,
      isHazmat: random.chance(0.12),
      serviceLevel: random.chance(0.22) ? "expedited" : "standard",
    };
  };
  const cheapest = (shape: ShipmentShape, excluded: (carrierId: string) => boolean) =>
    cheapestCarrier(
      rateCard,
      {
        origin_region: WAREHOUSE_REGION.get(shape.originWarehouseId)!,
        destination_region: shape.destinationRegion,
        weight_kg: shape.weightKg,
        is_hazmat: shape.isHazmat,
        service_level: shape.serviceLevel,
      },
      excluded,
    );
  // The inactive carrier and the restricted (carrier, origin) pair are drawn among those that can actually
  // be the cheapest for some shipment under this rate card, so that both rules can be made to matter below.
  const canWin = (carrierId: string, excluded: (id: string) => boolean, origin?: string): boolean => {
    for (let attempt = 0; attempt < 400; attempt += 1) {
      if (cheapest(drawShipmentShape(origin), excluded)?.carrierId === carrierId) return true;
    }
    return false;
  };
  const inactiveCarrierId =
    random.shuffle(["CR-03", "CR-04", "CR-05"]).find((id) => canWin(id, () => false)) ?? "CR-04";
  const restrictionOptions = random
    .shuffle(["CR-02", "CR-06"])
    .flatMap((carrierId) =>
      random.shuffle(WAREHOUSES).map((warehouse) => [carrierId, warehouse.id] as const),
    );
  const [restrictedCarrierId, restrictedOrigin] = restrictionOptions.find(([carrierId, origin]) =>
    canWin(carrierId, (id) => id === inactiveCarrierId, origin),
  ) ?? ["CR-02", WAREHOUSES[0]!.id];
  const shipments: Shipment[] = [];
  let shipmentNumber = 500_000 + random.int(0, 20_000);
  const shipmentCount = BASE_SHIPMENTS * rows;
  const pendingCount = BASE_PENDING_SHIPMENTS * rows;
  const pendingPositions = new Set(random.shuffle([...Array(shipmentCount).keys()]).slice(0, pendingCount));
  for (let index = 0; index < shipmentCount; index += 1) {
    shipmentNumber += random.int(1, 40);
    const shape = drawShipmentShape();
    const pending = pendingPositions.has(index);
    let status: Shipment["status"] = "pending";
    if (!pending) {
      const roll = random.next();
      status = roll < 0.7 ? "delivered" : roll < 0.82 ? "in_transit" : roll < 0.9 ? "assigned" : "cancelled";
    }
    const createdOn = pending ? addDays(today, -random.int(0, 2)) : addDays(today, -random.int(4, 150));
    let carrierId: string | null = null;
    let freightCost: number | null = null;
    if (status !== "pending" && status !== "cancelled") {
      const best = cheapest(shape, () => false)!;
      carrierId = best.carrierId;
      freightCost = roundCents(best.cost * between(random, 0.94, 1.04));
    }
    shipments.push({
      ...shape,
      id: `SHP-${shipmentNumber}`,
      customerName: random.pick(CUSTOMERS),
      status,
      carrierId,
      freightCost,
      createdOn,
      shipBy: addDays(createdOn, random.int(1, 5)),
    });
  }
  // Each carrier rule must decide at least one pending shipment at every scale and seed: when none does,
  // redraw a pending shipment (one no other rule depends on) until the rule changes its cheapest carrier.
  const pendingShipments = shipments.filter((shipment) => shipment.status === "pending");
  const excludedFor =
    (shape: ShipmentShape) =>
    (id: string): boolean =>
      id === inactiveCarrierId ||
      (id === restrictedCarrierId && shape.originWarehouseId === restrictedOrigin);
  const rules: Array<{ origin?: string; decides: (shape: ShipmentShape) => boolean }> = [
    {
      origin: restrictedOrigin,
      decides: (shape) =>
        shape.originWarehouseId === restrictedOrigin &&
        cheapest(shape, (id) => id === inactiveCarrierId)?.carrierId === restrictedCarrierId,
    },
    {
      decides: (shape) =>
        cheapest(shape, (id) => id === restrictedCarrierId && shape.originWarehouseId === restrictedOrigin)
          ?.carrierId === inactiveCarrierId,
    },
    {
      decides: (shape) =>
        shape.isHazmat &&
        cheapest({ ...shape, isHazmat: false }, excludedFor(shape))?.carrierId !==
          cheapest(shape, excludedFor(shape))?.carrierId,
    },
  ];
  rules.forEach((rule, index) => {
    if (pendingShipments.some((shipment) => rule.decides(shipment))) return;
    const earlier = rules.slice(0, index);
    const target = pendingShipments.find((shipment) => !earlier.some((other) => other.decides(shipment)));
    if (!target) return;
    for (let attempt = 0; attempt < 5000; attempt += 1) {
      const shape = drawShipmentShape(rule.origin);
      if (rule.decides(shape)) {
        Object.assign(target, shape);
        return;
      }
    }
  });
  return { rateCard, shipments, inactiveCarrierId, restrictedCarrierId, restrictedOrigin };
}

/** The stock as the scaled documents see it: the lots, their products and the SOP's rules. */
interface StockPicture {
  today: string;
  lots: Lot[];
  productBySku: Map<string, Product>;
  sop: InventorySop;
}

function writeCycleCounts(context: GenerateContext, { today, lots, productBySku, sop }: StockPicture): void {
  const { random, faker } = context;
  const counters = Array.from({ length: 6 }, () => {
    const first = faker.person.firstName();
    const last = faker.person.lastName();
    return `${first[0] ?? "x"}.${last}`.toLowerCase().replace(/[^a-z.]/g, "");
  });
  const sheetCount = COUNT_SHEETS_PER_FACTOR * context.factors.files;
  const unused = random.shuffle(lots);
  const takeLot = (): Lot => unused.pop() ?? random.pick(lots);
  const toleranceOf = (lot: Lot): number => sop.countToleranceUnits[productBySku.get(lot.sku)!.category] ?? 1;
  const beyond: Array<{ lot: Lot; counted: number }> = [];
  const recounted = new Set<string>();
  for (let sheet = 0; sheet < sheetCount; sheet += 1) {
    const countDate = addDays(today, -(sheetCount - sheet));
    const entries: Array<{ lot: Lot; counted: number; status: CountLine["status"] }> = [];
    // Recounts of earlier variances: the first one always resolves, so superseded counts always matter.
    const recountCandidates = beyond.filter((item) => !recounted.has(item.lot.lotId));
    for (const item of recountCandidates.slice(0, sheet === 0 ? 0 : 2)) {
      recounted.add(item.lot.lotId);
      const resolves = recounted.size === 1 || random.chance(0.6);
      entries.push({
        lot: item.lot,
        counted: resolves ? item.lot.quantity : item.counted,
        status: "COUNTED",
      });
    }
    for (let index = 0; index < LINES_PER_COUNT_SHEET - 2; index += 1) {
      const lot = takeLot();
      const tolerance = toleranceOf(lot);
      const sign = random.chance(0.5) ? 1 : -1;
      let counted = lot.quantity;
      const roll = random.next();
      if (index === 0 || (index > 1 && roll < 0.16)) {
        // Within tolerance; the first line sits exactly on it, which is not reportable.
        const size = index === 0 ? tolerance : random.int(1, tolerance);
        counted = lot.quantity + (sign < 0 && lot.quantity >= size ? -size : size);
      } else if (index === 1 || roll < 0.38) {
        const size = tolerance + random.int(1, 10);
        counted = Math.max(0, lot.quantity + sign * size);
        if (counted === lot.quantity) counted = lot.quantity + size;
        beyond.push({ lot, counted });
      }
      entries.push({ lot, counted, status: "COUNTED" });
    }
    const voided = takeLot();
    entries.push({
      lot: voided,
      counted: voided.quantity + toleranceOf(voided) + random.int(3, 9),
      status: "VOID",
    });
    const ordered = random.shuffle(entries);
    let minutes = 6 * 60 + random.int(0, 30);
    const lines: CountLine[] = ordered.map((entry) => {
      minutes += random.int(3, 25);
      return {
        countDate,
        countTime: clockTime(minutes),
        warehouseId: entry.lot.warehouseId,
        binLocation: entry.lot.binLocation,
        lotId: entry.lot.lotId,
        sku: entry.lot.sku,
        countedQuantity: entry.counted,
        counter: random.pick(counters),
        status: entry.status,
      };
    });
    context.writeFile(`${CYCLE_COUNT_DIRECTORY}/cycle-count-${countDate}.csv`, renderCountSheet(lines));
  }
}

function writeDamageReports(
  context: GenerateContext,
  { today, lots, productBySku, sop }: StockPicture,
): void {
  const { random, faker } = context;
  const inspectors = [fullName(faker), fullName(faker)];
  const atRisk = (lot: Lot): boolean => {
    const window = sop.expiryWindowDays[productBySku.get(lot.sku)!.category];
    return (
      lot.status === "available" &&
      window !== undefined &&
      lot.expiresOn !== null &&
      lot.expiresOn >= today &&
      lot.expiresOn <= addDays(today, window)
    );
  };
  const riskPool = random.shuffle(lots.filter(atRisk));
  const otherPool = random.shuffle(lots.filter((lot) => !atRisk(lot)));
  const reportCount = DAMAGE_REPORTS_PER_FACTOR * context.factors.files;
  for (let report = 0; report < reportCount; report += 1) {
    const weekEnding = addDays(today, -1 - 7 * (reportCount - 1 - report));
    const entries: DamageEntry[] = [];
    const picks = [...popUpTo(riskPool, 2), ...popUpTo(otherPool, random.int(1, 2))];
    picks.forEach((lot, index) => {
      // The first two at-risk lots of the first report cover both kinds of disposition.
      let disposition: Disposition;
      if (report === 0 && index === 0) disposition = "Write-off";
      else if (report === 0 && index === 1) disposition = "Released to stock";
      else disposition = random.pick(["Write-off", "Write-off", "Return to vendor", "Released to stock"]);
      entries.push({
        lotId: lot.lotId,
        sku: lot.sku,
        warehouseId: lot.warehouseId,
        quantityAffected: Math.max(1, Math.min(lot.quantity, random.int(2, 40))),
        cause: random.pick(DAMAGE_CAUSES),
        disposition,
      });
    });
    context.writeFile(
      `${DAMAGE_REPORT_DIRECTORY}/damaged-goods-${weekEnding}.md`,
      renderDamageReport(weekEnding, random.pick(inspectors), entries),
    );
  }
}

function writeMovementLogs(
  context: GenerateContext,
  today: string,
  lots: Lot[],
  orders: PurchaseOrder[],
  shipments: Shipment[],
): void {
  const { random } = context;
  const received = orders.filter((order) => order.status === "received");
  const shipped = shipments.filter(
    (shipment) => shipment.status === "delivered" || shipment.status === "in_transit",
  );
  const operators = ["rf-gun-07", "rf-gun-12", "rf-gun-19", "rf-gun-23", "rf-gun-31"];
  const logCount = MOVEMENT_LOGS_PER_FACTOR * context.factors.files;
  for (let day = 0; day < logCount; day += 1) {
    const date = addDays(today, -1 - day);
    const rows: Array<Array<string | number>> = [];
    let minutes = 5 * 60 + random.int(0, 40);
    for (let index = random.int(16, 26); index > 0; index -= 1) {
      minutes += random.int(4, 45);
      const lot = random.pick(lots);
      const roll = random.next();
      let type = "PICK";
      let quantity = -random.int(1, 24);
      let reference = shipped.length > 0 ? random.pick(shipped).id : "SHP-000000";
      if (roll < 0.25) {
        type = "RECEIPT";
        quantity = random.int(12, 240);
        reference = received.length > 0 ? random.pick(received).id : "PO-00000";
      } else if (roll < 0.35) {
        type = "PUTAWAY";
        quantity = random.int(6, 120);
        reference = `TASK-${random.int(10_000, 99_999)}`;
      } else if (roll < 0.4) {
        type = "ADJUSTMENT";
        quantity = random.pick([-3, -2, -1, 1, 2]);
        reference = `ADJ-${random.int(1_000, 9_999)}`;
      }
      // A late shift runs on in the day's last hour rather than into the next day.
      const time = clockTime(Math.min(minutes, 23 * 60 + (minutes % 60)));
      const operator = random.pick(operators);
      rows.push([
        `${date}T${time}:00`,
        lot.warehouseId,
        type,
        lot.sku,
        lot.lotId,
        quantity,
        reference,
        operator,
      ]);
    }
    context.writeFile(
      `${MOVEMENT_LOG_DIRECTORY}/stock-movements-${date}.csv`,
      toCsv(MOVEMENT_LOG_HEADER, rows),
    );
  }
}
