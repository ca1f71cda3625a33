/**
 * Par levels and shift counts are written after the stock exists, so that every scale and seed holds the
 * cases the near-misses get wrong: stock exactly at the reorder point or cabinet minimum, a shortfall
 * covered by an open purchase order, usable stock that only looks sufficient when expired or quarantined
 * units are counted, a one-unit schedule II miscount, differences exactly at the threshold both ways, a
 * recount.
 */
import { addDays } from "../../envs/index.js";
import { CENTRAL, addLot, addStock, type DrugDraft, type PharmacyWorld, type StockDraft } from "./world.js";

type Scenario = "needs" | "covered" | "inflated" | "boundary" | "fine";
const CYCLE: Scenario[] = ["needs", "fine", "covered", "inflated", "boundary", "needs", "fine"];
const KINDS = ["expired", "quarantined"] as const;

function usable(world: PharmacyWorld, row: StockDraft): boolean {
  return row.status === "available" && row.lot.expiry >= world.today;
}

function usableUnits(world: PharmacyWorld, location: string, drug: DrugDraft): number {
  return world.stock
    .filter((row) => row.location === location && row.lot.drug === drug && usable(world, row))
    .reduce((sum, row) => sum + row.quantity, 0);
}

/**
 * Units of the drug at the location held back one way (available but expired, or quarantined but not
 * expired), adding a row of that kind when there is none, so counting either kind as stock misleads.
 */
function held(
  world: PharmacyWorld,
  location: string,
  drug: DrugDraft,
  kind: "expired" | "quarantined",
): number {
  const { random, today } = world;
  const test = (row: StockDraft): boolean =>
    row.location === location &&
    row.lot.drug === drug &&
    (kind === "expired"
      ? row.status === "available" && row.lot.expiry < today
      : row.status === "quarantined" && row.lot.expiry >= today);
  if (!world.stock.some(test)) {
    const expiry = addDays(today, kind === "expired" ? -random.int(5, 60) : random.int(150, 600));
    const row = addStock(world, location, addLot(world, drug, expiry), random.int(2, 20));
    if (kind === "quarantined") Object.assign(row, { status: "quarantined", reason: "damaged packaging" });
  }
  return world.stock.filter(test).reduce((sum, row) => sum + row.quantity, 0);
}

export function plantPars(world: PharmacyWorld): void {
  const { random } = world;
  let inflated = 0;
  const recalled = new Set(world.recalls.map((recall) => recall.drug));
  const central = world.drugs.filter(
    (drug) =>
      !recalled.has(drug) &&
      world.stock.some((row) => row.location === CENTRAL && row.lot.drug === drug) &&
      random.chance(0.6),
  );
  const order = (drug: DrugDraft, status: "open" | "received"): void => {
    const created = addDays(world.today, -random.int(1, 6));
    world.purchases.push({ drug, status, packs: random.int(1, 3), created });
  };
  central.forEach((drug, index) => {
    const scenario = CYCLE[index % CYCLE.length]!;
    const onOrder = (): number =>
      world.purchases
        .filter((purchase) => purchase.drug === drug && purchase.status === "open")
        .reduce((sum, purchase) => sum + purchase.packs * drug.packSize, 0);
    // Covered shortfalls have an open order; the first drug to reorder has an open order (which reduces
    // its packs) and a received one (which must not).
    if ((scenario === "covered" || index === 0) && onOrder() === 0) order(drug, "open");
    if (index === 0) order(drug, "received");
    const heldBack = scenario === "inflated" ? held(world, CENTRAL, drug, KINDS[inflated++ % 2]!) : 0;
    const good = usableUnits(world, CENTRAL, drug);
    const covered = good + onOrder();
    const reorderPoint = {
      needs: () => covered + random.int(1, 40),
      covered: () => good + random.int(1, onOrder()),
      inflated: () => covered + random.int(1, heldBack),
      boundary: () => covered,
      fine: () => Math.max(0, covered - random.int(1, 30)),
    }[scenario]();
    world.centralPar.push({ drug, reorderPoint, par: reorderPoint + 5 * random.int(2, 24) });
  });

  let index = 0;
  inflated = 0;
  for (const cabinet of world.cabinets) {
    const drugs = [
      ...new Set(world.stock.filter((row) => row.location === cabinet).map((row) => row.lot.drug)),
    ].filter((drug) => !recalled.has(drug));
    const sheet: Array<{ drug: DrugDraft; min: number; max: number }> = [];
    for (const drug of drugs.sort((a, b) => a.id.localeCompare(b.id))) {
      const scenario = CYCLE[index++ % CYCLE.length]!;
      const heldBack = scenario === "inflated" ? held(world, cabinet, drug, KINDS[inflated++ % 2]!) : 0;
      const good = usableUnits(world, cabinet, drug);
      const min = {
        needs: () => good + random.int(1, 6),
        covered: () => good + random.int(1, 6),
        inflated: () => good + random.int(0, heldBack - 1),
        boundary: () => good,
        fine: () => Math.max(0, good - random.int(1, 6)),
      }[scenario]();
      sheet.push({ drug, min, max: min + random.int(5, 20) });
    }
    world.cabinetPar.set(cabinet, sheet);
  }
}

interface CountPair {
  cabinet: string;
  drug: DrugDraft;
  system: number;
}

export function plantCounts(world: PharmacyWorld): void {
  const { random, rules } = world;
  const threshold = rules.countThreshold;
  const pairs: CountPair[] = [];
  for (const cabinet of world.cabinets) {
    const drugs = [
      ...new Set(
        world.stock
          .filter((row) => row.location === cabinet && row.lot.drug.entry.schedule !== null)
          .map((row) => row.lot.drug),
      ),
    ].sort((a, b) => a.id.localeCompare(b.id));
    for (const drug of drugs) {
      const system = world.stock
        .filter((row) => row.location === cabinet && row.lot.drug === drug)
        .reduce((sum, row) => sum + row.quantity, 0);
      pairs.push({ cabinet, drug, system });
    }
  }
  const plans = new Map<CountPair, { first: number; recount: number | null }>();
  const plant = (pair: CountPair | undefined, first: number, recount: number | null = null): void => {
    if (pair && !plans.has(pair)) plans.set(pair, { first: pair.system + first, recount });
  };
  const free = (test: (pair: CountPair) => boolean): CountPair | undefined =>
    random.shuffle(pairs).find((pair) => !plans.has(pair) && test(pair));
  const isTwo = (pair: CountPair): boolean => pair.drug.entry.schedule === "II";
  const lower = (pair: CountPair): boolean => !isTwo(pair);
  // A one-unit schedule II miss, then schedules III-V exactly at the threshold and one under it, both ways.
  const offsets: Array<[(pair: CountPair) => boolean, number]> = [
    [isTwo, -1],
    [isTwo, 2],
    [lower, -threshold],
    [lower, threshold],
    [lower, threshold - 1],
    [lower, -(threshold - 1)],
  ];
  for (const [test, offset] of offsets) plant(free(test), offset);
  const recounted = free(() => true);
  if (recounted) plant(recounted, -(threshold + 1), recounted.system);
  plant(
    free(() => true),
    -(threshold + 2),
  );
  for (const pair of pairs) {
    const planned = plans.get(pair) ?? {
      first: pair.system + (random.chance(0.2) ? random.pick([-(threshold + 1), threshold + 1]) : 0),
      recount: null,
    };
    const list = world.counts.get(pair.cabinet) ?? [];
    list.push({ drug: pair.drug, first: Math.max(0, planned.first), recount: planned.recount });
    world.counts.set(pair.cabinet, list);
  }
}
