import type { GenerateContext } from "../../envs/index.js";
import { addDays, insertDrafts, insertRecords, roundCents, sample, weightedPick } from "../../envs/index.js";
import { CATALOG, MANUFACTURERS, NURSING_UNITS } from "./catalog.js";
import { writePharmacyDocuments } from "./documents.js";
import { plantCounts, plantPars } from "./plant-pars.js";
import { CENTRAL, SATELLITE, addLot, addMinutes, addStock, lotNumberFactory, minuteStamp } from "./world.js";
import type { DrugDraft, OrderDraft, PharmacyWorld, StockDraft } from "./world.js";
import { dispenseId, drugId, locationId, mrnFormat, orderId, purchaseOrderId } from "./ids.js";

type Random = GenerateContext["random"];

/** Fills the pharmacy database and writes its workspace documents for one scale. */
export function generatePharmacy(context: GenerateContext): void {
  const { random, faker, factors, referenceDate: today } = context;
  const world: PharmacyWorld = {
    today,
    rules: {
      shortDatedDays: random.pick([60, 90]),
      returnWindowDays: random.pick([90, 180]),
      countThreshold: random.pick([2, 3]),
      overrideMinutes: random.pick([30, 60]),
      auditDays: 14,
    },
    drugs: makeDrugs(random, 30 * factors.rows),
    cabinets: [],
    cabinetUnits: new Map(),
    lots: [],
    stock: [],
    purchases: [],
    recalls: [],
    substitutions: [],
    invoice: [],
    centralPar: [],
    cabinetPar: new Map(),
    counts: new Map(),
    random,
    faker,
    lotNumber: lotNumberFactory(random),
  };
  const units = random.shuffle(NURSING_UNITS);
  for (let n = 0; n < 3 * factors.files; n += 1) {
    const id = locationId.format(n + 3);
    world.cabinets.push(id);
    world.cabinetUnits.set(id, units[n % units.length]! + (n >= units.length ? " B" : ""));
  }
  chooseSubstitutions(world, 3 + factors.rows);
  makeLotsAndStock(world, factors.rows);
  plantRecalls(world, factors.files);
  plantExpiryCases(world, factors.rows);
  const orders = buildOrdersAndDispenses(context, world);
  makePurchases(world, 8 * factors.rows);
  plantInvoice(world);
  plantPars(world);
  plantCounts(world);
  insertCatalog(context, world);
  insertOrders(context, world, orders);
  writePharmacyDocuments(context, world);
}

function makeDrugs(random: Random, count: number): DrugDraft[] {
  const ndcs = new Set<string>();
  const drugs: DrugDraft[] = [];
  for (let index = 0; index < count; index += 1) {
    const entry = CATALOG[index % CATALOG.length]!;
    const variant = Math.floor(index / CATALOG.length);
    const strength = entry.strengths[variant % entry.strengths.length]!;
    let ndc = "";
    do ndc = `${random.int(10000, 79999)}-${random.int(100, 999)}-${random.int(10, 99)}`;
    while (ndcs.has(ndc));
    ndcs.add(ndc);
    const packSize = random.pick([10, 20, 25, 50, 100]);
    drugs.push({
      id: drugId.format(index + 1),
      entry,
      strength,
      name: `${entry.generic} ${strength} ${entry.form}`,
      status: "formulary",
      ndc,
      manufacturer: random.pick(MANUFACTURERS),
      packSize,
      packCost: roundCents(packSize * (0.4 + random.next() * (entry.schedule ? 9 : 14))),
    });
  }
  return drugs;
}

const plain = (drug: DrugDraft): boolean => drug.entry.schedule === null && drug.status === "formulary";

/** Non-formulary products with a formulary alternative of the same class, plus unlisted ones. */
function chooseSubstitutions(world: PharmacyWorld, count: number): void {
  const { random } = world;
  const pool = random.shuffle(world.drugs.filter((drug) => drug.entry.schedule === null));
  const used = new Set<DrugDraft>();
  for (const from of pool) {
    if (world.substitutions.length >= count) break;
    if (used.has(from)) continue;
    const to = pool.find(
      (other) => !used.has(other) && other !== from && other.entry.drugClass === from.entry.drugClass,
    );
    if (!to) continue;
    used.add(from).add(to);
    from.status = "non_formulary";
    world.substitutions.push({
      from,
      to,
      // The first (approved) interchange always changes the dose, so keeping the dose is always wrong.
      factor: random.pick(world.substitutions.length === 0 ? [0.5, 2] : [0.5, 1, 2]),
      decision: world.substitutions.length % 4 === 1 ? "deferred" : "approved",
    });
  }
  for (const drug of pool.filter((candidate) => !used.has(candidate)).slice(0, count - 1))
    drug.status = "non_formulary";
}

function makeLotsAndStock(world: PharmacyWorld, rows: number): void {
  const { random, today } = world;
  for (const drug of world.drugs) {
    const lotCount = random.chance(0.4) ? 3 : 2;
    for (let k = 0; k < lotCount; k += 1) {
      const expiry = k === 0 ? addDays(today, random.int(150, 720)) : addDays(today, random.int(-260, 720));
      const lot = addLot(world, drug, expiry);
      if (k === 0 || random.chance(0.8)) addStock(world, CENTRAL, lot, random.int(5, 240));
      if (k === 0 && random.chance(0.3)) addStock(world, SATELLITE, lot, random.int(5, 60));
    }
  }
  const controlled = world.drugs.filter((drug) => drug.entry.schedule !== null);
  const scheduleTwo = controlled.filter((drug) => drug.entry.schedule === "II");
  const lower = controlled.filter((drug) => drug.entry.schedule !== "II");
  // The OR satellite always keeps one schedule II product, so its pulls are there to leave out.
  const satelliteLot = world.lots.find((lot) => lot.drug === scheduleTwo[0])!;
  addStock(world, SATELLITE, satelliteLot, random.int(10, 40));
  for (const cabinet of world.cabinets) {
    const stocked = [
      ...sample(random, scheduleTwo, 1 + Math.min(rows, 2)),
      ...sample(random, lower, 2 + Math.min(rows, 2)),
      ...sample(random, world.drugs.filter(plain), 6 + 4 * rows),
    ];
    for (const drug of stocked) {
      const lots = world.lots.filter((lot) => lot.drug === drug);
      const isControlled = drug.entry.schedule !== null;
      addStock(world, cabinet, lots[0]!, random.int(isControlled ? 10 : 4, 40));
      if (lots.length > 1 && random.chance(0.3)) addStock(world, cabinet, lots[1]!, random.int(1, 12));
    }
  }
}

/** Recalls of one drug per notice; the first notice of each cycle gains a lot by e-mail later. */
function plantRecalls(world: PharmacyWorld, cycles: number): void {
  const { random, today } = world;
  const candidates = random.shuffle(
    world.drugs.filter((drug) => plain(drug) && !world.substitutions.some((s) => s.to === drug)),
  );
  let cursor = 0;
  for (let cycle = 0; cycle < cycles; cycle += 1) {
    for (let k = 0; k < 2; k += 1) {
      const drug = candidates[cursor++]!;
      // Two lots named by the notice, one an e-mail may add, and at least one the recall does not touch.
      const lots = world.lots.filter((lot) => lot.drug === drug);
      while (lots.length < 4) lots.push(addLot(world, drug, today));
      for (const lot of lots) lot.expiry = addDays(today, random.int(100, 600));
      for (const lot of lots) {
        addStock(world, CENTRAL, lot, random.int(10, 120));
        addStock(world, random.pick(world.cabinets), lot, random.int(3, 15));
      }
      world.recalls.push({
        notice: `RCL-2025-${String(random.int(100, 999))}${cycle}${k}`,
        drug,
        recallClass: (cycle + k) % 2 === 0 ? "I" : "II",
        issued: addDays(today, -random.int(8, 25)),
        lots: lots.slice(0, 2),
        added: k === 0 ? lots[2]! : null,
      });
    }
  }
  // A lot of another product that happens to carry a recalled lot number.
  const recalledDrugs = new Set(world.recalls.map((recall) => recall.drug));
  for (const recall of world.recalls.filter((_, index) => index % 2 === 0)) {
    const twin = candidates.slice(cursor).find((drug) => !recalledDrugs.has(drug))!;
    cursor += 1;
    const lot = world.lots.find((candidate) => candidate.drug === twin)!;
    lot.lotNumber = recall.lots[0]!.lotNumber;
    addStock(world, random.pick(world.cabinets), lot, random.int(3, 15));
  }
}

/** Rows on the boundaries of the short-dated window and the returns window, and held-back stock. */
function plantExpiryCases(world: PharmacyWorld, rows: number): void {
  const { random, today, rules } = world;
  const recalled = new Set(world.recalls.flatMap((recall) => [...recall.lots, recall.added]));
  const pickRow = (test: (row: StockDraft) => boolean): StockDraft | undefined =>
    random
      .shuffle(world.stock)
      .find((row) => !recalled.has(row.lot) && row.status === "available" && test(row));
  const isTwo = (row: StockDraft): boolean => row.lot.drug.entry.schedule === "II";
  const cases: Array<[(row: StockDraft) => boolean, string, boolean]> = [
    [(row) => !isTwo(row), addDays(today, rules.shortDatedDays), false],
    [(row) => !isTwo(row), addDays(today, rules.shortDatedDays + 1), false],
    [(row) => !isTwo(row), today, false],
    [(row) => !isTwo(row), addDays(today, random.int(2, rules.shortDatedDays - 1)), true],
    [isTwo, addDays(today, -random.int(1, rules.returnWindowDays - 1)), false],
    [(row) => !isTwo(row), addDays(today, -rules.returnWindowDays), false],
    [(row) => !isTwo(row), addDays(today, -rules.returnWindowDays - random.int(1, 90)), false],
    [(row) => !isTwo(row), addDays(today, -random.int(1, rules.returnWindowDays - 1)), true],
    // Schedules III-V go back to the wholesaler like any other product.
    [(row) => !isTwo(row) && row.lot.drug.entry.schedule !== null, addDays(today, -random.int(1, 30)), false],
  ];
  for (let round = 0; round < Math.max(1, Math.ceil(rows / 2)); round += 1)
    for (const [test, expiry, quarantine] of cases) {
      const row = pickRow((candidate) => test(candidate) && candidate.lot.expiry > addDays(today, 120));
      if (!row) continue;
      row.lot.expiry = expiry;
      if (quarantine) {
        row.status = "quarantined";
        row.reason = random.pick(["temperature excursion", "damaged packaging"]);
      }
    }
}

/** The wholesaler's latest invoice: every received order, a few cancelled ones billed anyway, planted errors. */
function plantInvoice(world: PharmacyWorld): void {
  const { random } = world;
  const received = world.purchases.filter((purchase) => purchase.status === "received");
  const cancelled = world.purchases.filter((purchase) => purchase.status === "cancelled");
  const plants = ["over", "short", "at_tolerance", "overpriced"] as const;
  received.forEach((purchase, index) => {
    const plant = index < plants.length ? plants[index] : random.chance(0.2) ? random.pick(plants) : "exact";
    if (plant === "short") purchase.packs = Math.max(2, purchase.packs);
    const packs =
      plant === "over"
        ? purchase.packs + random.int(1, 2)
        : plant === "short"
          ? purchase.packs - 1
          : purchase.packs;
    const cents =
      plant === "at_tolerance" ? 50 : plant === "overpriced" ? random.int(51, 300) : -random.int(0, 40);
    world.invoice.push({ purchase, packs, price: roundCents(purchase.drug.packCost + cents / 100) });
  });
  for (const purchase of cancelled.slice(0, 1 + Math.floor(cancelled.length / 3)))
    world.invoice.push({ purchase, packs: purchase.packs, price: purchase.drug.packCost });
}

function makePurchases(world: PharmacyWorld, count: number): void {
  const { random, today } = world;
  for (let n = 0; n < count; n += 1)
    world.purchases.push({
      drug: random.pick(world.drugs),
      status:
        n < 6
          ? (["received", "received", "received", "received", "cancelled", "open"] as const)[n]!
          : weightedPick(random, ["open", "received", "cancelled"] as const, [2, 5, 2]),
      packs: random.int(1, 6),
      created: addDays(today, -random.int(1, 30)),
    });
}

function buildOrdersAndDispenses(context: GenerateContext, world: PharmacyWorld) {
  const { db, random, faker, factors } = context;
  const { today, rules } = world;
  const patients = Array.from({ length: 25 * factors.rows }, (_, n) => mrnFormat.format(100 + n * 7));
  insertRecords(
    db,
    "patients",
    patients.map((mrn) => ({
      mrn,
      name: faker.person.fullName(),
      nursingUnit: random.pick(NURSING_UNITS),
      admittedOn: addDays(today, -random.int(1, 40)),
    })),
  );
  const orders: OrderDraft[] = [];
  /** A medication order verified 3 to 45 minutes after it was placed. */
  const newOrder = (
    drug: DrugDraft,
    orderedAt: string,
    status: OrderDraft["status"],
    daw = false,
    mrn = random.pick(patients),
  ): OrderDraft => {
    const order: OrderDraft = {
      id: orderId.format(orders.length + 1),
      mrn,
      drug,
      dose: random.pick(drug.entry.doses),
      status,
      daw,
      orderedAt,
      verifiedAt: addMinutes(orderedAt, random.int(3, 45)),
    };
    orders.push(order);
    return order;
  };
  const dispenses: object[] = [];
  const dispense = (order: OrderDraft, row: StockDraft, dispensedAt: string, override: boolean): void => {
    dispenses.push({
      dispenseId: dispenseId.format(dispenses.length + 1),
      orderId: order.id,
      mrn: order.mrn,
      locationId: row.location,
      lotId: row.lot.id,
      quantity: random.int(1, 2),
      dispensedAt,
      nurse: `${faker.person.firstName()} ${faker.person.lastName()}`,
      override,
    });
  };
  const someTime = (): string => minuteStamp(addDays(today, -random.int(1, 30)), random.int(0, 1380));
  const recalledLots = world.recalls.flatMap((recall) => [...recall.lots, recall.added!].filter(Boolean));
  const twins = world.lots.filter((lot) =>
    recalledLots.some((other) => other !== lot && other.lotNumber === lot.lotNumber),
  );
  const siblings = world.lots.filter(
    (lot) => world.recalls.some((recall) => recall.drug === lot.drug) && !recalledLots.includes(lot),
  );
  const traced = new Set([...recalledLots, ...twins, ...siblings]);
  const cabinetRows = world.stock.filter(
    (row) => row.location !== CENTRAL && plain(row.lot.drug) && !traced.has(row.lot),
  );
  for (let n = 0; n < 130 * factors.rows; n += 1) {
    const row = random.pick(cabinetRows);
    const status = weightedPick(random, ["active", "completed", "discontinued"] as const, [5, 3, 1]);
    const order = newOrder(row.lot.drug, someTime(), status);
    dispense(order, row, addMinutes(order.verifiedAt!, random.int(5, 600)), false);
  }
  // Controlled-substance pulls of the last ten days, today included, from cabinets and the satellite. The
  // first schedule II cabinet row has pulls on each edge of the weekly report (8 and 7 days ago) and today;
  // the satellite's first schedule II row has one inside the report's week.
  const controlledRows = world.stock.filter(
    (candidate) => candidate.location !== CENTRAL && candidate.lot.drug.entry.schedule !== null,
  );
  const firstTwo = (here: boolean): StockDraft | undefined =>
    controlledRows.find(
      (row) => (row.location === SATELLITE) === here && row.lot.drug.entry.schedule === "II",
    );
  const [edge, satellite] = [firstTwo(false), firstTwo(true)];
  for (const row of controlledRows) {
    const days =
      row === edge ? [8, 7, 0] : [row === satellite ? random.int(1, 7) : random.int(0, 9), random.int(0, 9)];
    for (const back of days) {
      const order = newOrder(row.lot.drug, minuteStamp(addDays(today, -back), random.int(0, 1200)), "active");
      dispense(order, row, addMinutes(order.verifiedAt!, random.int(5, 120)), false);
    }
  }
  // Each traced lot (recalled, a twin by lot number, an unrecalled lot of a recalled product) reaches
  // patients of its own, so that a missed or extra lot changes the answer.
  const fresh = random.shuffle(patients);
  for (const lot of traced) {
    for (const row of world.stock.filter(
      (candidate) => candidate.lot === lot && candidate.location !== CENTRAL,
    )) {
      const order = newOrder(lot.drug, someTime(), "completed");
      order.mrn = fresh.pop() ?? order.mrn;
      dispense(order, row, addMinutes(order.verifiedAt!, random.int(5, 300)), false);
    }
  }
  // Override pulls: removed from a cabinet (never the satellite) before a pharmacist verified the order.
  const scenarios = ["exact", "late", "unverified", "quick", "old_late", "late", "quick"] as const;
  const adcRows = cabinetRows.filter((row) => row.location !== SATELLITE);
  for (let n = 0; n < 8 + 4 * factors.rows; n += 1) {
    const scenario = scenarios[n % scenarios.length]!;
    const row = random.pick(adcRows);
    // The first pull before the audit period is on its eve: the last day outside it.
    const back =
      scenario === "old_late"
        ? rules.auditDays + (n < scenarios.length ? 0 : random.int(0, 10))
        : random.int(0, rules.auditDays - 1);
    const pulledAt = minuteStamp(addDays(today, -back), random.int(60, 1200));
    const order = newOrder(row.lot.drug, addMinutes(pulledAt, -random.int(2, 20)), "active");
    const window = rules.overrideMinutes;
    order.verifiedAt =
      scenario === "unverified"
        ? null
        : addMinutes(
            pulledAt,
            scenario === "exact"
              ? window
              : scenario === "quick"
                ? random.int(1, window - 1)
                : window + random.int(1, 90),
          );
    dispense(order, row, pulledAt, true);
  }
  return { orders, dispenses, newOrder };
}

/** Orders of each non-formulary drug (three active, the second dispense as written, one discontinued), then
 * every order and dispense into the database. */
function insertOrders(
  context: GenerateContext,
  world: PharmacyWorld,
  { orders, dispenses, newOrder }: ReturnType<typeof buildOrdersAndDispenses>,
): void {
  const { random } = world;
  for (const drug of world.drugs.filter((candidate) => candidate.status === "non_formulary"))
    for (let k = 0; k < 4; k += 1) {
      const orderedAt = minuteStamp(addDays(world.today, -random.int(0, 10)), random.int(0, 1380));
      newOrder(drug, orderedAt, k === 3 ? "discontinued" : "active", k === 1, random.pick(orders).mrn);
    }
  insertDrafts(
    context.db,
    "medication_orders",
    "order_id, mrn, drug_id, dose, dose_unit, frequency, status, dispense_as_written, prescriber, ordered_at, verified_at, substituted_from",
    orders,
    (order) => ({
      order_id: order.id,
      drug_id: order.drug.id,
      dose_unit: order.drug.entry.doseUnit,
      frequency: random.pick(["daily", "BID", "q6h", "q8h", "q4h PRN", "once"]),
      dispense_as_written: order.daw,
      prescriber: `Dr. ${context.faker.person.lastName()}`,
      substituted_from: null,
    }),
  );
  insertRecords(context.db, "dispenses", dispenses);
}

function insertCatalog(context: GenerateContext, world: PharmacyWorld): void {
  const { db } = context;
  insertDrafts(
    db,
    "drugs",
    "drug_id, name, generic_name, strength, form, therapeutic_class, schedule, formulary_status, ndc, manufacturer, pack_size, pack_cost",
    world.drugs,
    (drug) => ({
      drug_id: drug.id,
      generic_name: drug.entry.generic,
      form: drug.entry.form,
      therapeutic_class: drug.entry.drugClass,
      schedule: drug.entry.schedule,
      formulary_status: drug.status,
    }),
  );
  const pharmacies = [
    { locationId: CENTRAL, name: "Central Pharmacy", kind: "pharmacy", nursingUnit: null },
    { locationId: SATELLITE, name: "OR Satellite Pharmacy", kind: "pharmacy", nursingUnit: "Main OR" },
  ];
  const cabinets = world.cabinets.map((cabinet) => {
    const unit = world.cabinetUnits.get(cabinet)!;
    return { locationId: cabinet, name: `ADC ${unit}`, kind: "cabinet", nursingUnit: unit };
  });
  insertRecords(db, "locations", [...pharmacies, ...cabinets]);
  insertDrafts(db, "lots", "lot_id, drug_id, lot_number, expiry_date, received_on", world.lots, (lot) => ({
    lot_id: lot.id,
    drug_id: lot.drug.id,
    expiry_date: lot.expiry,
    received_on: lot.received,
  }));
  insertDrafts(
    db,
    "inventory",
    "stock_id, location_id, lot_id, quantity, status, quarantine_reason",
    world.stock,
    (row) => ({
      stock_id: row.id,
      location_id: row.location,
      lot_id: row.lot.id,
      quarantine_reason: row.reason,
    }),
  );
  insertRecords(
    db,
    "purchase_orders",
    world.purchases.map((purchase, index) => ({
      poId: purchaseOrderId.format(index + 1),
      wholesaler: "Cardinal Health",
      status: purchase.status,
      createdOn: purchase.created,
      drugId: purchase.drug.id,
      packs: purchase.packs,
      packSize: purchase.drug.packSize,
    })),
  );
}
