import type { GenerateContext } from "../../envs/index.js";
import {
  addDays,
  allRows,
  earlierDate,
  insertDrafts,
  laterDate,
  personName,
  randomDate,
  roundCents,
  sample,
  weightedPick,
} from "../../envs/index.js";
import { writePropertyDocuments } from "./documents.js";
import { buildingId, inspectionId, leaseId, tenantId, unitId, vendorId, workOrderId } from "./ids.js";
import {
  LATE_FEE_MAX,
  LATE_FEE_MIN,
  LATE_FEE_PCT,
  PRIORITIES,
  SLA_DAYS,
  TRADES,
  graceEnd,
  lateFeeFor,
  ledgerPeriods,
  periodEnd,
  periodStart,
} from "./rules.js";
import type { Priority, Trade } from "./rules.js";

type Random = GenerateContext["random"];

export interface BuildingDraft {
  id: string;
  name: string;
  renewalCap: number;
}

export interface UnitDraft {
  id: string;
  buildingId: string;
  marketRent: number;
  offline: boolean;
}

export interface LeaseDraft {
  id: string;
  unitId: string;
  tenantId: string;
  tenantName: string;
  tenantEmail: string;
  status: "signed" | "active" | "ended";
  start: string;
  end: string;
  moveOut: string | null;
  rent: number;
  deposit: number;
  escalation: number;
  /** Set by a due-day addendum; 1 otherwise. */
  dueDay: number;
  /** Set by a renewal addendum: the most the rent may rise at renewal, in percent. */
  renewalLimit: number | null;
}

export interface VendorDraft {
  id: string;
  name: string;
  trade: Trade;
  insuranceExpires: string;
  active: boolean;
  hourlyRate: number;
  calloutFee: number;
}

export interface BankLine {
  id: string;
  date: string;
  amount: number;
  description: string;
}

/** Everything the documents are written from. */
export interface PropertyWorld {
  graceDays: number;
  buildings: BuildingDraft[];
  leases: LeaseDraft[];
  vendors: VendorDraft[];
  addenda: Array<{ lease: LeaseDraft; kind: (typeof ADDENDUM_KINDS)[number] }>;
  hardship: Array<{ lease: LeaseDraft; approved: boolean }>;
  noiseNotes: number;
  bank: BankLine[];
}

const ADDENDUM_KINDS = ["due_day", "renewal_limit", "pets", "parking"] as const;

const STREETS = ["Maple", "Harbor", "Linden", "Quarry", "Orchard", "Summit", "Willow", "Canal", "Juniper"];
const BUILDING_NAMES = [
  "The Linden",
  "Harbor View",
  "Maple Court",
  "Orchard Lofts",
  "Summit Terrace",
  "Canal House",
  "Willow Commons",
  "Quarry Flats",
  "Juniper Place",
  "Stonebridge",
  "Riverside Gardens",
  "Elm Row",
];
const INSPECTORS = ["Dana Whitfield", "Marcus Oyelaran", "Priya Raman", "Tom Kessler"];
const WORK_SUMMARIES: Record<Trade, string[]> = {
  plumbing: [
    "Leaking kitchen faucet",
    "Clogged bathroom drain",
    "Running toilet",
    "No hot water",
    "Burst pipe under sink",
  ],
  electrical: [
    "Outlet not working",
    "Breaker keeps tripping",
    "Flickering hallway light",
    "Smoke detector chirping",
  ],
  hvac: ["No heat", "AC not cooling", "Thermostat unresponsive", "Noisy air handler"],
  appliance: ["Dishwasher not draining", "Refrigerator warm", "Oven igniter failed", "Washer leaking"],
  pest_control: ["Mice in kitchen", "Cockroaches reported", "Ants near window", "Bed bug inspection"],
  general: [
    "Door lock sticking",
    "Window won't latch",
    "Drywall hole",
    "Cabinet hinge broken",
    "Loose stair railing",
  ],
};
const INSPECTION_FINDINGS: Array<[string, string, "normal_wear" | "damage" | "cleaning", number, number]> = [
  ["living room", "Minor scuffs on walls", "normal_wear", 80, 160],
  ["bedroom", "Carpet worn in traffic areas", "normal_wear", 120, 260],
  ["kitchen", "Faded cabinet finish", "normal_wear", 60, 140],
  ["bathroom", "Cracked sink basin", "damage", 180, 320],
  ["living room", "Hole in drywall", "damage", 90, 240],
  ["bedroom", "Broken closet door", "damage", 110, 210],
  ["kitchen", "Burn mark on countertop", "damage", 150, 400],
  ["kitchen", "Grease build-up on range hood and oven", "cleaning", 60, 120],
  ["whole unit", "Trash and furniture left behind", "cleaning", 90, 220],
  ["bathroom", "Heavy soap scum and mildew", "cleaning", 45, 95],
];

function phone(random: Random): string {
  return `(${random.int(201, 989)}) ${random.int(201, 989)}-${String(random.int(0, 9999)).padStart(4, "0")}`;
}

function roundTo(value: number, step: number): number {
  return Math.round(value / step) * step;
}

/** Orders by the first of the keys, then by the next on a tie (as text: ISO dates and ids of one shape sort as written). */
function byKeys<Item>(keys: (item: Item) => string[]): (a: Item, b: Item) => number {
  return (a, b) => {
    const right = keys(b);
    return keys(a).reduce((order, key, index) => order || key.localeCompare(right[index]!), 0);
  };
}

/** Fills the property database and writes its workspace documents for one scale. */
export function generateProperty(context: GenerateContext): void {
  const { db, random, faker, factors, referenceDate: today } = context;
  const rows = factors.rows;
  const periods = ledgerPeriods(today);
  const currentPeriod = periods[periods.length - 1]!;
  const graceDays = random.pick([3, 4, 5]);

  // Buildings and units.
  const buildingCount = 3 + rows;
  const buildings: BuildingDraft[] = [];
  const insertBuilding = db.prepare(
    "INSERT INTO buildings (building_id, name, street, city, year_built, manager_name) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const names = random.shuffle(BUILDING_NAMES);
  const city = faker.location.city();
  for (let n = 1; n <= buildingCount; n += 1) {
    const id = buildingId.format(n);
    const name = names[(n - 1) % names.length]! + (n > names.length ? ` ${Math.ceil(n / names.length)}` : "");
    buildings.push({ id, name, renewalCap: random.pick([2.5, 3, 3.5, 4]) });
    insertBuilding.run(
      id,
      name,
      `${random.int(10, 980)} ${random.pick(STREETS)} ${random.pick(["Street", "Avenue", "Road"])}`,
      city,
      random.int(1928, 2019),
      faker.person.fullName(),
    );
  }
  const units: UnitDraft[] = [];
  const insertUnit = db.prepare(
    "INSERT INTO units (unit_id, building_id, unit_number, bedrooms, square_feet, market_rent, offline, offline_reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const unitTotal = 48 * rows;
  for (let index = 0; index < unitTotal; index += 1) {
    const building = buildings[index % buildingCount]!;
    const inBuilding = Math.floor(index / buildingCount);
    const bedrooms = weightedPick(random, [0, 1, 2, 3], [1, 4, 4, 2]);
    const marketRent = roundTo(1100 + bedrooms * 420 + random.int(-120, 260), 5);
    const offline = random.chance(0.06) || index === buildingCount + 1;
    const id = unitId.format(index + 1);
    units.push({ id, buildingId: building.id, marketRent, offline });
    insertUnit.run(
      id,
      building.id,
      `${1 + Math.floor(inBuilding / 8)}${String((inBuilding % 8) + 1).padStart(2, "0")}`,
      bedrooms,
      420 + bedrooms * 310 + random.int(0, 140),
      marketRent,
      offline ? 1 : 0,
      offline ? random.pick(["Renovation", "Water damage remediation", "Fire restoration"]) : null,
    );
  }

  // Leases: the current one of occupied units, earlier ones, and signed leases starting soon.
  const leases: LeaseDraft[] = [];
  const emails = new Set<string>();
  const newLease = (
    unit: UnitDraft,
    status: LeaseDraft["status"],
    start: string,
    end: string,
    moveOut: string | null,
  ): LeaseDraft => {
    const person = personName(faker, "mail.example.com", emails);
    const rent = roundTo(unit.marketRent * (0.9 + random.next() * 0.12), 5);
    const lease: LeaseDraft = {
      id: "",
      unitId: unit.id,
      tenantId: "",
      tenantName: person.fullName,
      tenantEmail: person.email,
      status,
      start,
      end,
      moveOut,
      rent,
      deposit: roundTo(rent * random.pick([1, 1, 1.5]), 5),
      escalation: random.pick([2, 2.5, 3, 3.5, 4, 5]),
      dueDay: 1,
      renewalLimit: null,
    };
    leases.push(lease);
    return lease;
  };
  const juneMoveOutsWanted = 2 * rows + 1;
  let juneMoveOuts = 0;
  const rentable = units.filter((unit) => !unit.offline);
  for (const unit of units) {
    if (unit.offline) {
      const end = addDays(today, -random.int(60, 400));
      newLease(unit, "ended", addDays(end, -364), end, end);
      continue;
    }
    if (random.chance(0.86)) {
      if (random.chance(0.35)) {
        const priorEnd = addDays(today, -random.int(420, 900));
        newLease(unit, "ended", addDays(priorEnd, -364), priorEnd, priorEnd);
      }
      const end = addDays(today, random.int(1, 360));
      const start = addDays(end, random.chance(0.12) ? -729 : -364);
      newLease(unit, "active", start, end, null);
    } else {
      const wantJune = juneMoveOuts < juneMoveOutsWanted && rentable.indexOf(unit) % 3 !== 2;
      const moveOut = wantJune ? addDays(today, -random.int(2, 28)) : addDays(today, -random.int(31, 150));
      if (wantJune) juneMoveOuts += 1;
      const end = random.chance(0.7) ? moveOut : addDays(moveOut, random.int(1, 20));
      newLease(unit, "ended", addDays(end, -364), end, moveOut);
      if (random.chance(0.45) || !leases.some((lease) => lease.status === "signed")) {
        const start = addDays(today, random.int(3, 45));
        newLease(unit, "signed", start, addDays(start, 364), null);
      }
    }
  }
  // Make sure enough June move-outs exist even when few units came up vacant.
  for (const unit of rentable) {
    if (juneMoveOuts >= juneMoveOutsWanted) break;
    const current = leases.find((lease) => lease.unitId === unit.id && lease.status === "active");
    if (!current || leases.some((lease) => lease.unitId === unit.id && lease.status === "signed")) continue;
    const moveOut = addDays(today, -random.int(2, 28));
    Object.assign(current, { status: "ended", end: moveOut, start: addDays(moveOut, -364), moveOut });
    juneMoveOuts += 1;
  }
  // Renewal-window boundaries: one lease ends exactly on day 60 (inside), one on day 61 (outside).
  const active = leases.filter((lease) => lease.status === "active");
  const [edgeIn, edgeOut] = sample(random, active, 2);
  [edgeIn, edgeOut].forEach((lease, index) => {
    if (!lease) return;
    lease.end = addDays(today, 60 + index);
    lease.start = addDays(lease.end, -364);
    // Above every building's cap, so the cap always decides one renewal.
    lease.escalation = 5;
  });
  // Ids in start-date order, as a leasing system assigns them.
  leases.sort(byKeys((lease) => [lease.start, lease.unitId]));
  leases.forEach((lease, index) => {
    lease.id = leaseId.format(index + 1);
    lease.tenantId = tenantId.format(index + 1);
  });

  // Addenda (planted before payments so due days shape the payment dates) and correspondence counts.
  const scaledFiles = 9 * factors.files - 3;
  const addendumCount = Math.ceil(scaledFiles / 2);
  const noteCount = scaledFiles - addendumCount;
  const inWindow = active.filter((lease) => lease.end > today && lease.end <= addDays(today, 60));
  const addenda: PropertyWorld["addenda"] = [];
  const taken = new Set<string>();
  for (let index = 0; index < addendumCount; index += 1) {
    const kind = ADDENDUM_KINDS[index % ADDENDUM_KINDS.length]!;
    // A due-day addendum goes to a lease that has run the whole ledger history, so it shapes every month.
    const pool = (kind === "renewal_limit" ? inWindow : active).filter(
      (lease) =>
        !taken.has(lease.id) &&
        lease !== edgeIn &&
        lease !== edgeOut &&
        (kind !== "due_day" || lease.start <= periodStart(periods[0]!)),
    );
    if (pool.length === 0) continue;
    const lease = random.pick(pool);
    taken.add(lease.id);
    if (kind === "due_day") lease.dueDay = random.pick([5, 7, 10]);
    if (kind === "renewal_limit") {
      lease.renewalLimit = 1.5;
      lease.escalation = Math.max(lease.escalation, 3);
    }
    addenda.push({ lease, kind });
  }

  insertTenantsAndLeases(context, leases);
  const ledger = postLedger(context, leases, periods, graceDays, taken);
  // Hardship correspondence: an approved waiver and a denied request, both on leases that owe a June fee.
  const owingJune = active.filter(
    (lease) =>
      !taken.has(lease.id) && ledger.lateInJune.has(lease.id) && !ledger.preChargedJune.has(lease.id),
  );
  const hardshipCount = Math.min(owingJune.length, Math.max(2, Math.ceil(noteCount / 2)));
  const hardship = sample(random, owingJune, hardshipCount).map((lease, index) => ({
    lease,
    approved: index % 2 === 0,
  }));

  const vendors = insertVendors(context);
  insertWorkOrders(context, units, vendors);
  insertInspections(context, leases, rows);
  // One of this month's move-outs was already settled by the office.
  const settled = leases.filter(
    (lease) => lease.moveOut !== null && lease.moveOut >= periodStart(currentPeriod),
  );
  if (settled.length >= 2) {
    const lease = settled[0]!;
    db.prepare(
      "INSERT INTO ledger_entries (lease_id, entry_date, period, entry_type, amount, reference, memo) VALUES (?, ?, ?, 'deposit_refund', ?, NULL, ?)",
    ).run(
      lease.id,
      addDays(lease.moveOut!, 2),
      currentPeriod,
      roundCents(lease.deposit * 0.8),
      "Security deposit refund",
    );
  }
  const bank = bankExport(context, periods[0]!, rows);

  writePropertyDocuments(context, {
    graceDays,
    buildings,
    leases,
    vendors,
    addenda,
    hardship,
    noiseNotes: Math.max(0, noteCount - hardship.length),
    bank,
  });
}

function insertTenantsAndLeases(context: GenerateContext, leases: LeaseDraft[]): void {
  const insertTenant = context.db.prepare(
    "INSERT INTO tenants (tenant_id, first_name, last_name, email, phone) VALUES (?, ?, ?, ?, ?)",
  );
  const insertLease = context.db.prepare(
    `INSERT INTO leases (lease_id, unit_id, tenant_id, status, start_date, end_date, move_out_date, monthly_rent, security_deposit, escalation_pct)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const lease of leases) {
    const [first, ...rest] = lease.tenantName.split(" ");
    insertTenant.run(lease.tenantId, first, rest.join(" "), lease.tenantEmail, phone(context.random));
    insertLease.run(
      lease.id,
      lease.unitId,
      lease.tenantId,
      lease.status,
      lease.start,
      lease.end,
      lease.moveOut,
      lease.rent,
      lease.deposit,
      lease.escalation,
    );
  }
}

/** lease, date, period, kind, amount, reference, memo: one ledger line as postLedger builds it. */
type LedgerEntry = [string, string, string, string, number, string | null, string | null];
type PayHabit = "punctual" | "sometimes" | "chronic" | "scattered" | "short" | "late_now";

/**
 * Rent charges on the 1st of every period a lease covers, payments by habit, and the late fees the office
 * already posted in earlier months (and for a few leases this month).
 */
function postLedger(
  context: GenerateContext,
  leases: LeaseDraft[],
  periods: string[],
  graceDays: number,
  addendumLeases: Set<string>,
): { lateInJune: Set<string>; preChargedJune: Set<string> } {
  const { db, random, referenceDate: today } = context;
  const insert = db.prepare(
    "INSERT INTO ledger_entries (lease_id, entry_date, period, entry_type, amount, reference, memo) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  const current = periods[periods.length - 1]!;
  let reference = 300_000 + random.int(0, 50_000);
  const nextReference = (): string => {
    reference += random.int(1, 37);
    return `PMT-${reference}`;
  };
  const method = (): string => random.pick(["ACH", "ACH", "portal", "check", "card"]);
  const lateInJune = new Set<string>();
  const preChargedJune = new Set<string>();
  const billed = leases.filter((lease) => lease.status !== "signed");
  const habits = new Map<string, PayHabit>();
  const leavingOwing = new Set(
    billed
      .filter((lease) => lease.moveOut !== null && lease.moveOut >= periodStart(current))
      .sort((a, b) => a.id.localeCompare(b.id))
      .filter((_, index) => index % 2 === 1)
      .map((lease) => lease.id),
  );
  const plain = billed.filter((lease) => lease.status === "active" && !addendumLeases.has(lease.id));
  const plantCount = Math.max(2, Math.round(context.factors.rows * 1.5));
  const lateNowCount = 3 + 2 * context.factors.rows;
  const planted = sample(random, plain, plantCount * 3 + lateNowCount);
  const plantedHabits: PayHabit[] = ["chronic", "scattered", "short"];
  planted.forEach((lease, index) =>
    habits.set(lease.id, plantedHabits[Math.floor(index / plantCount)] ?? "late_now"),
  );
  const entries: LedgerEntry[] = [];
  for (const lease of billed) {
    const habit: PayHabit =
      habits.get(lease.id) ??
      (addendumLeases.has(lease.id) && lease.dueDay > 1
        ? "punctual"
        : random.chance(0.72)
          ? "punctual"
          : "sometimes");
    const covered = periods.filter(
      (period) => lease.start <= periodEnd(period) && (lease.moveOut ?? "9999-12-31") >= periodStart(period),
    );
    // A lease that starts after the 1st pays its first month at signing, never late (no fee is due
    // before the tenant moves in), so a chronic run starts no earlier than the first full month.
    const firstFull = covered.length > 0 && lease.start > periodStart(covered[0]!) ? 1 : 0;
    const chronicStart = random.int(firstFull, Math.max(firstFull, covered.length - 4));
    const fee = lateFeeFor(lease.rent, LATE_FEE_PCT, LATE_FEE_MIN, LATE_FEE_MAX);
    covered.forEach((period, index) => {
      entries.push([lease.id, periodStart(period), period, "rent", lease.rent, null, "Monthly rent"]);
      const lastOnTime = graceEnd(period, lease.dueDay, graceDays);
      const startsMidPeriod = lease.start > periodStart(period);
      let late: boolean;
      if (startsMidPeriod) late = false;
      else if (habit === "chronic") late = index >= chronicStart && index < chronicStart + 3;
      else if (habit === "scattered") late = index % 2 === 0;
      else if (habit === "sometimes") late = random.chance(0.25);
      else if (habit === "late_now") late = period === current || random.chance(0.2);
      else late = false;
      // A due-day addendum tenant pays on the last day of the grace period it grants.
      let paidOn = late
        ? addDays(lastOnTime, random.int(1, 12))
        : lease.dueDay > 1
          ? lastOnTime
          : addDays(periodStart(period), random.chance(0.15) ? graceDays : random.int(-3, graceDays - 1));
      // Paid at signing: on or before the start date and within the grace period.
      if (startsMidPeriod) paidOn = earlierDate(lease.start, lastOnTime);
      const unpaid = period === current && late && random.chance(0.3);
      paidOn = earlierDate(paidOn, today);
      if (lease.moveOut && paidOn > lease.moveOut && random.chance(0.5)) return; // left owing this month
      // Every other tenant moving out this month (the second, fourth, ...) leaves the last rent unpaid.
      if (period === current && leavingOwing.has(lease.id)) return;
      if (!unpaid) {
        // A short payer pays most of this month's rent on time, a small remainder later: under the fee threshold.
        const amount = habit === "short" && period === current ? lease.rent - random.int(5, 20) : lease.rent;
        entries.push([lease.id, paidOn, period, "payment", amount, nextReference(), method()]);
      }
      // The fee falls due the day after the grace period ends.
      const lateFee: LedgerEntry = [
        lease.id,
        addDays(lastOnTime, 1),
        period,
        "late_fee",
        fee,
        null,
        "Late fee",
      ];
      if (late && period !== current) entries.push(lateFee);
      if (late && period === current && lease.status === "active") {
        if (random.chance(0.15)) {
          preChargedJune.add(lease.id);
          entries.push(lateFee);
        } else lateInJune.add(lease.id);
      }
    });
  }
  entries.sort(byKeys((entry) => [entry[1], entry[0], entry[3]]));
  for (const entry of entries) insert.run(...entry);
  return { lateInJune, preChargedJune };
}

function insertVendors(context: GenerateContext): VendorDraft[] {
  const { db, random, faker, factors, referenceDate: today } = context;
  const perTrade = 2 + factors.rows;
  const vendors: VendorDraft[] = [];
  let n = 0;
  for (const trade of TRADES) {
    const rates = random.shuffle(
      Array.from({ length: perTrade }, (_, index) => 65 + index * 7 + random.int(0, 5)),
    );
    for (let index = 0; index < perTrade; index += 1) {
      n += 1;
      vendors.push({
        id: vendorId.format(n),
        name: `${faker.person.lastName()} ${random.pick(["Services", "& Sons", "Repair", "Pros", "Co."])}`,
        trade,
        insuranceExpires: addDays(today, random.int(20, 400)),
        active: true,
        hourlyRate: rates[index]!,
        calloutFee: roundTo(random.int(40, 120), 5),
      });
    }
  }
  // Lapsed insurance for some vendors; in the first lapsed vendor's trade the cheapest other vendor's
  // certificate expires today (still valid), and an inactive vendor is cheaper still.
  const lapsedCount = Math.min(TRADES.length, 1 + factors.rows);
  const lapsedTrades = random.shuffle([...TRADES]).slice(0, lapsedCount);
  lapsedTrades.forEach((trade, index) => {
    const inTrade = vendors
      .filter((vendor) => vendor.trade === trade)
      .sort((a, b) => a.hourlyRate - b.hourlyRate);
    const lapsed = inTrade[inTrade.length - 1]!;
    lapsed.insuranceExpires = addDays(today, -random.int(1, 40));
    if (index === 0) {
      inTrade[0]!.active = false;
      inTrade[1]!.insuranceExpires = today;
    }
  });
  insertDrafts(
    db,
    "vendors",
    "vendor_id, name, trade, phone, email, insurance_expires, active",
    vendors,
    (vendor) => ({
      vendor_id: vendor.id,
      phone: phone(random),
      email: `dispatch@${vendor.name.toLowerCase().replace(/[^a-z]+/g, "")}.example.com`,
    }),
  );
  return vendors;
}

function insertWorkOrders(context: GenerateContext, units: UnitDraft[], vendors: VendorDraft[]): void {
  const { db, random, factors, referenceDate: today } = context;
  const valid = (vendor: VendorDraft): boolean => vendor.active && vendor.insuranceExpires >= today;
  const pickVendor = (trade: Trade): VendorDraft =>
    random.pick(vendors.filter((vendor) => vendor.trade === trade && (valid(vendor) || random.chance(0.3))));
  const occupiedUnits = units.filter((unit) => !unit.offline);
  const make = (
    priority: Priority,
    status: string,
    openedOn: string,
    trade?: Trade,
    vendor?: VendorDraft,
  ) => {
    const category = trade ?? random.pick(TRADES);
    const done = status === "completed";
    const assignedVendor = status === "open" ? null : (vendor ?? pickVendor(category));
    const completedOn = done ? addDays(openedOn, random.int(0, SLA_DAYS[priority] + 2)) : null;
    return {
      unitId: random.pick(occupiedUnits).id,
      category,
      priority,
      status,
      vendorId: assignedVendor ? assignedVendor.id : null,
      openedOn,
      completedOn: completedOn && earlierDate(completedOn, today),
      cost: done ? roundCents(random.int(90, 1400) + random.int(0, 99) / 100) : null,
    };
  };
  const drafts = Array.from({ length: 90 * factors.rows }, () => {
    const priority = weightedPick(random, [...PRIORITIES], [1, 3, 6]);
    const age = random.int(0, 120);
    const status =
      age > 30
        ? weightedPick(random, ["completed", "cancelled", "on_hold", "in_progress"], [88, 5, 4, 3])
        : weightedPick(random, ["open", "assigned", "in_progress", "on_hold", "completed"], [2, 3, 2, 1, 3]);
    return make(priority, status, addDays(today, -age));
  });
  // SLA boundaries: just inside and just past each priority's limit, and paused orders past it.
  for (const priority of PRIORITIES) {
    drafts.push(make(priority, "assigned", addDays(today, -SLA_DAYS[priority])));
    drafts.push(make(priority, "in_progress", addDays(today, -SLA_DAYS[priority] - 1)));
    drafts.push(make(priority, "on_hold", addDays(today, -SLA_DAYS[priority] - random.int(2, 9))));
  }
  // Every vendor with lapsed insurance holds open work and finished work.
  for (const vendor of vendors.filter((item) => item.insuranceExpires < today)) {
    drafts.push(make("urgent", "assigned", addDays(today, -random.int(0, 2)), vendor.trade, vendor));
    drafts.push(make("routine", "on_hold", addDays(today, -random.int(3, 12)), vendor.trade, vendor));
    drafts.push(make("emergency", "in_progress", addDays(today, -random.int(0, 3)), vendor.trade, vendor));
    drafts.push(make("routine", "completed", addDays(today, -random.int(20, 60)), vendor.trade, vendor));
  }
  const ordered = random.shuffle(drafts).sort(byKeys((draft) => [draft.openedOn]));
  insertDrafts(
    db,
    "work_orders",
    "work_order_id, unit_id, category, priority, status, vendor_id, opened_on, completed_on, cost, summary, escalated_on",
    ordered.map((draft, index) => ({ ...draft, workOrderId: workOrderId.format(index + 1) })),
    (draft) => {
      // An unfinished order past its target may have been escalated the day after the target.
      const due = addDays(draft.openedOn, SLA_DAYS[draft.priority] + 1);
      const unfinished = draft.status !== "completed" && draft.status !== "cancelled";
      return {
        summary: random.pick(WORK_SUMMARIES[draft.category]),
        escalated_on: unfinished && due <= today && random.chance(0.2) ? due : null,
      };
    },
  );
}

function insertInspections(context: GenerateContext, leases: LeaseDraft[], rows: number): void {
  const { db, random, referenceDate: today } = context;
  const insertInspection = db.prepare(
    "INSERT INTO inspections (inspection_id, unit_id, lease_id, inspection_type, inspected_on, inspector) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const insertItem = db.prepare(
    "INSERT INTO inspection_items (inspection_id, area, finding, condition, cost) VALUES (?, ?, ?, ?, ?)",
  );
  const planned: Array<{ lease: LeaseDraft; type: "move_out" | "annual"; date: string }> = [];
  for (const lease of leases) {
    if (lease.status === "ended" && lease.moveOut && lease.moveOut >= addDays(today, -200))
      planned.push({ lease, type: "move_out", date: addDays(lease.moveOut, random.int(0, 1)) });
    else if (lease.status === "active" && random.chance(0.15))
      planned.push({ lease, type: "annual", date: addDays(today, -random.int(5, 160)) });
  }
  planned.sort(byKeys((entry) => [entry.date, entry.lease.id]));
  planned.forEach((entry, index) => {
    const id = inspectionId.format(index + 1);
    const date = earlierDate(entry.date, today);
    insertInspection.run(id, entry.lease.unitId, entry.lease.id, entry.type, date, random.pick(INSPECTORS));
    const findings = sample(random, INSPECTION_FINDINGS, random.int(2, 3 + Math.min(rows, 3)));
    // Every move-out shows some wear, which the deposit policy does not let the landlord charge for.
    if (entry.type === "move_out" && !findings.some((finding) => finding[2] === "normal_wear"))
      findings.push(INSPECTION_FINDINGS[random.int(0, 2)]!);
    for (const [area, finding, condition, low, high] of findings) {
      const kept = entry.type === "annual" && condition !== "normal_wear" ? "good" : condition;
      insertItem.run(
        id,
        area,
        kept === "good" ? "No issues" : finding,
        kept,
        kept === "good" ? 0 : random.int(low, high),
      );
    }
    insertItem.run(id, "entry", "Keys and fobs returned", "good", 0);
  });
}

/** The bank's deposit lines since the first ledger period: every ledger payment, with planted discrepancies. */
function bankExport(context: GenerateContext, period: string, rows: number): BankLine[] {
  const { db, random, referenceDate: today } = context;
  const payments = allRows<{ entry_id: number; entry_date: string; amount: number; reference: string }>(
    db,
    "SELECT entry_id, entry_date, amount, reference FROM ledger_entries WHERE entry_type = 'payment' AND entry_date >= ? AND entry_date <= ? ORDER BY entry_id",
    periodStart(period),
    today,
  );
  const shuffled = random.shuffle(payments);
  const discrepancies = 2 + rows;
  const missing = new Set(shuffled.slice(0, discrepancies).map((payment) => payment.entry_id));
  const wrongAmount = new Set(
    shuffled.slice(discrepancies, 2 * discrepancies).map((payment) => payment.entry_id),
  );
  const lines: Array<Omit<BankLine, "id">> = [];
  for (const payment of payments) {
    if (missing.has(payment.entry_id)) continue;
    const amount = wrongAmount.has(payment.entry_id)
      ? roundCents(payment.amount - random.pick([100, 50, 10, 0.5, 200]))
      : payment.amount;
    const date = laterDate(payment.entry_date, periodStart(period));
    lines.push({ date, amount, description: `RENT DEPOSIT ${payment.reference}` });
  }
  const maxReference = Math.max(...payments.map((payment) => Number(payment.reference.slice(4))));
  for (let index = 0; index < discrepancies; index += 1)
    lines.push({
      date: randomDate(random, periodStart(period), today),
      amount: roundTo(random.int(1100, 2600), 5),
      description: `RENT DEPOSIT PMT-${maxReference + 1000 + index * 17 + random.int(0, 9)}`,
    });
  for (const description of [
    "LAUNDRY COMMISSION",
    "INTEREST PAYMENT",
    "TRANSFER FROM RESERVE",
    "VENDING INCOME",
  ].slice(0, 1 + Math.min(rows, 3)))
    lines.push({
      date: randomDate(random, periodStart(period), today),
      amount: roundCents(random.int(40, 900) + 0.25),
      description,
    });
  lines.sort(byKeys((line) => [line.date]));
  return lines.map((line, index) => ({ id: `BTX-${String(70_000 + index * 3).padStart(6, "0")}`, ...line }));
}
