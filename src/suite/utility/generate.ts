import { makeDate, insertRow, isWeekend, personName, randomDate, weightedPick } from "../../envs/index.js";
import type { GenerateContext } from "../../envs/index.js";
import { writeStock, writeUtilityDocuments } from "./documents.js";
import { crewId, customerId, feederId, meterId, workOrderId } from "./ids.js";
import { notesPath, renderNotes } from "./notes.js";
import type { NoteDump, NoteEntry } from "./notes.js";
import { planOutages, scadaDays, writeJournals } from "./scada.js";
import { LOCAL_OFFSET_HOURS, NOW, SLA_TARGETS, deadlineOf, isoAt, secondsOf } from "./world.js";

type Random = GenerateContext["random"];
type Utility = "electric" | "water";

export interface Customer {
  id: string;
  name: string;
  phone: string;
  cls: string;
  critical: boolean;
}
export interface Meter {
  id: string;
  customer: Customer;
  utility: Utility;
  feeder: string | null;
  address: string;
  installed: string;
}
export interface Read {
  meter: Meter;
  date: string;
  reading: number;
  type: "actual" | "estimated";
  source: string;
}
export interface Crew {
  id: string;
  lead: string;
  skill: Utility;
  depot: string;
}
export interface WorkOrder {
  id: string;
  meter: Meter;
  kind: string;
  priority: string;
  status: "open" | "dispatched" | "completed";
  created: string;
  crew: Crew | null;
  dispatched: string | null;
  completed: string | null;
  /** Minutes on customer hold: they extend the SLA deadline. */
  hold: number;
  description: string;
}

export interface UtilityWorld {
  feeders: Array<{ id: string; substation: string }>;
  customers: Customer[];
  meters: Meter[];
  reads: Read[];
  crews: Crew[];
  unavailable: Map<Crew, string>;
  workOrders: WorkOrder[];
  dumps: NoteDump[];
  /** The work order each handheld entry is about (ids are given after sorting). */
  noted: Map<NoteEntry, WorkOrder>;
}

const SUBSTATIONS = ["SUB-NORTH", "SUB-RIVER", "SUB-MILL", "SUB-EAST"];
const STREETS = ["Elm St", "Oak Ave", "Mill Rd", "River Dr", "Cedar Ln", "Pine St", "Lake Blvd", "Hill Ct"];
const DEPOTS = ["North yard", "Riverside yard"];
const KINDS: Record<Utility, string[]> = {
  electric: ["outage_restoration", "meter_exchange", "service_connect", "streetlight", "meter_inspection"],
  water: ["leak_repair", "meter_exchange", "valve_exercise", "service_connect", "meter_inspection"],
};
/** The twelve billing months up to June 2025. */
const CYCLE_MONTHS = Array.from({ length: 12 }, (_, n) => makeDate(2024, 7 + n, 1).slice(0, 7));

function makeCustomers(context: GenerateContext, world: UtilityWorld): void {
  const { random, faker, factors } = context;
  const emails = new Set<string>();
  world.feeders = Array.from({ length: 2 + 2 * factors.rows }, (_, n) => ({
    id: feederId.format(101 + n),
    substation: SUBSTATIONS[n % SUBSTATIONS.length]!,
  }));
  for (let n = 1; n <= 60 * factors.rows; n += 1) {
    const cls = random.chance(0.8) ? "residential" : "commercial";
    const person = personName(faker, "example.net", emails);
    const name =
      cls === "commercial"
        ? `${person.lastName} ${random.pick(["Bakery", "Dental", "Hardware", "Auto"])}`
        : person.fullName;
    const customer = {
      id: customerId.format(n),
      name,
      phone: `555-${random.int(1000, 9999)}`,
      cls,
      critical: cls === "residential" && random.chance(0.08),
    };
    world.customers.push(customer);
    const address = `${random.int(10, 9999)} ${random.pick(STREETS)}`;
    const installed = randomDate(random, "2009-01-01", "2023-12-31");
    const add = (utility: Utility, feeder: string | null): void => {
      world.meters.push({
        id: meterId.format(world.meters.length + 1),
        customer,
        utility,
        feeder,
        address,
        installed,
      });
    };
    add("electric", random.pick(world.feeders).id);
    if (random.chance(0.6)) add("water", null);
  }
  // The three planted outage feeders each serve critical-care customers.
  for (const feeder of world.feeders.slice(0, 3))
    for (const meter of world.meters
      .filter((m) => m.feeder === feeder.id && m.customer.cls === "residential")
      .slice(0, 2))
      meter.customer.critical = true;
}

/** Monthly reads; planted runs of estimates at the end (and one earlier run that an actual read ended). */
function makeReads(random: Random, world: UtilityWorld, rows: number): void {
  const runs = new Map<Meter, number>();
  const residential = random.shuffle(world.meters.filter((m) => m.customer.cls === "residential"));
  const commercial = random.shuffle(world.meters.filter((m) => m.customer.cls === "commercial"));
  residential.slice(0, 1 + rows).forEach((m) => runs.set(m, 3));
  residential.slice(1 + rows, 1 + 2 * rows).forEach((m) => runs.set(m, 2));
  residential.slice(1 + 2 * rows, 1 + 3 * rows).forEach((m) => runs.set(m, -4));
  commercial.slice(0, 1 + rows).forEach((m) => runs.set(m, 2));
  commercial.slice(1 + rows, 2 + rows).forEach((m) => runs.set(m, 1));
  for (const meter of world.meters) {
    const cycle = random.int(2, 26);
    let reading = random.int(1000, 60000);
    const run = runs.get(meter) ?? 0;
    CYCLE_MONTHS.forEach((month, index) => {
      reading += meter.utility === "electric" ? random.int(250, 1400) : random.int(2, 18);
      const fromEnd = CYCLE_MONTHS.length - index;
      let estimated = random.chance(0.07);
      if (run > 0) estimated = fromEnd <= run ? true : fromEnd === run + 1 ? false : estimated;
      if (run < 0)
        estimated = fromEnd > 4 && fromEnd <= 4 - run ? true : fromEnd <= 4 ? fromEnd % 2 === 0 : estimated;
      if (run === 0 && fromEnd === 1 && estimated && random.chance(0.5)) estimated = false;
      const date = `${month}-${String(cycle).padStart(2, "0")}`;
      world.reads.push({
        meter,
        date,
        reading,
        type: estimated ? "estimated" : "actual",
        source: estimated ? "estimate" : "ami",
      });
    });
  }
}

function makeCrews(context: GenerateContext, world: UtilityWorld): void {
  const { random, faker, factors } = context;
  const emails = new Set<string>();
  for (let n = 1; n <= 6 + 2 * factors.rows; n += 1)
    world.crews.push({
      id: crewId.format(n),
      lead: personName(faker, "example.net", emails).fullName,
      skill: n % 2 === 1 ? "electric" : "water",
      depot: random.pick(DEPOTS),
    });
  const pick = (skill: Utility): Crew =>
    random.pick(world.crews.filter((c) => c.skill === skill && !world.unavailable.has(c)).slice(1));
  world.unavailable.set(pick("electric"), "truck in shop");
  world.unavailable.set(pick("water"), random.pick(["confined-space training", "on leave"]));
  if (world.crews.length >= 12) world.unavailable.set(pick("water"), "truck in shop");
}

function crewFor(random: Random, world: UtilityWorld, utility: Utility): Crew {
  return random.pick(available(world).filter((c) => c.skill === utility));
}

/** Crews at work today: only they hold active work orders or wrote notes this week. */
function available(world: UtilityWorld): Crew[] {
  return world.crews.filter((c) => !world.unavailable.has(c));
}

/** Tops every available crew up to the same number of active orders (at least one), skill by skill. */
function balanceLoads(random: Random, world: UtilityWorld): void {
  for (const skill of ["electric", "water"] as const) {
    const crews = available(world).filter((c) => c.skill === skill);
    const load = (crew: Crew) =>
      world.workOrders.filter((wo) => wo.crew === crew && wo.status === "dispatched").length;
    const level = Math.max(1, ...crews.map(load));
    for (const crew of crews)
      for (let n = load(crew); n < level; n += 1) {
        const meter = random.pick(world.meters.filter((m) => m.utility === skill));
        const created = secondsOf("2025-06-16T00:00:00Z") + random.int(0, 11 * 86_400);
        dispatch(random, world, order(random, world, meter, random.pick(["P3", "P4"]), created), crew);
      }
  }
}

/** A work order on a meter; P3/P4 are raised on weekdays only. */
function order(
  random: Random,
  world: UtilityWorld,
  meter: Meter,
  priority: string,
  created: number,
  kind?: string,
): WorkOrder {
  let at = created;
  while (priority >= "P3" && isWeekend(isoAt(at).slice(0, 10))) at -= 86_400;
  const chosen = kind ?? random.pick(KINDS[meter.utility]);
  const wo: WorkOrder = {
    id: "",
    meter,
    kind: chosen,
    priority,
    status: "open",
    created: isoAt(at),
    crew: null,
    dispatched: null,
    completed: null,
    hold: 0,
    description: `${chosen.replace(/_/g, " ")} at ${meter.address}`,
  };
  world.workOrders.push(wo);
  return wo;
}

function dispatch(random: Random, world: UtilityWorld, wo: WorkOrder, crew?: Crew): void {
  wo.status = "dispatched";
  wo.crew = crew ?? crewFor(random, world, wo.meter.utility);
  wo.dispatched = isoAt(secondsOf(wo.created) + random.int(10, 180) * 60);
}

function complete(wo: WorkOrder, at: number): void {
  wo.status = "completed";
  wo.completed = isoAt(at);
}

function makeWorkOrders(random: Random, world: UtilityWorld, rows: number): void {
  const june = secondsOf("2025-06-01T00:00:00Z");
  const now = secondsOf(NOW);
  for (let n = 0; n < 80 * rows; n += 1) {
    const priority = weightedPick(random, ["P1", "P2", "P3", "P4"], [10, 25, 40, 25]);
    const created = random.chance(0.85)
      ? random.int(june, now - 6 * 3600)
      : random.int(june - 31 * 86_400, june);
    const wo = order(random, world, random.pick(world.meters), priority, created);
    if (random.chance(0.2)) wo.hold = random.int(60, 2400);
    const span = deadlineOf(wo.created, SLA_TARGETS[priority]!) - secondsOf(wo.created);
    const finish = secondsOf(wo.created) + Math.round(span * (0.2 + random.next() * 1.2) + wo.hold * 48);
    if (finish < now - 3600 && (wo.created < "2025-06-22" || random.chance(0.5))) {
      dispatch(random, world, wo);
      complete(wo, Math.max(finish, secondsOf(wo.dispatched!) + 1800));
    } else if (priority <= "P2" || random.chance(0.6)) dispatch(random, world, wo);
  }
  plantWorkOrders(random, world, rows);
}

/** A planted order: dispatched (after `dispatchMinutes`, else at random), completed `hours` after creation. */
function plantDone(
  random: Random,
  world: UtilityWorld,
  [meter, priority, created]: [Meter, string, string],
  hours: number,
  dispatchMinutes?: number,
): WorkOrder {
  const wo = order(random, world, meter, priority, secondsOf(created));
  dispatch(random, world, wo);
  if (dispatchMinutes !== undefined) wo.dispatched = isoAt(secondsOf(wo.created) + dispatchMinutes * 60);
  complete(wo, secondsOf(wo.created) + hours * 3600);
  return wo;
}

/** The work orders the SLA and dispatch tasks turn on. */
function plantWorkOrders(random: Random, world: UtilityWorld, rows: number): void {
  const now = secondsOf(NOW);
  const meter = (utility: Utility) => random.pick(world.meters.filter((m) => m.utility === utility));
  // SLA boundaries: done exactly on the 24-hour mark; a Friday P3 done Wednesday (late only by calendar days);
  // late by the clock, on time once its customer hold is counted. Dispatch: late but created in May; on target.
  plantDone(random, world, [meter("electric"), "P2", "2025-06-10T09:30:00Z"], 24);
  plantDone(random, world, [meter("electric"), "P1", "2025-05-31T21:00:00Z"], 3, 50);
  plantDone(random, world, [meter("electric"), "P1", "2025-06-05T14:00:00Z"], 3, 30);
  plantDone(random, world, [meter("water"), "P2", "2025-06-11T13:10:00Z"], 29).hold = 600;
  plantDone(random, world, [meter("water"), "P3", "2025-06-13T10:00:00Z"], 119);
  // Still open and already late.
  order(random, world, meter("electric"), "P1", now - 10 * 3600);
  order(random, world, meter("water"), "P3", secondsOf("2025-06-20T14:00:00Z"));
  // Open for 80 minutes: not yet past its 120-minute dispatch target.
  order(random, world, meter("water"), "P2", now - 80 * 60);
  // Emergencies waiting for a crew: the oldest electric one is only a P2.
  order(random, world, meter("electric"), "P2", now - 30 * 3600);
  order(random, world, meter("electric"), "P1", now - 5 * 3600);
  order(random, world, meter("electric"), "P1", now - 12 * 3600);
  order(random, world, meter("water"), "P1", now - 20 * 3600);
  for (let n = 0; n < 2 * rows; n += 1)
    order(random, world, meter(n % 2 === 0 ? "water" : "electric"), "P2", now - random.int(1, 29) * 3600);
}

/** Meters a policy visit already covers: an open meter_inspection work order, and a dispatched one. */
function plantInspections(random: Random, world: UtilityWorld): void {
  const byMeter = new Map<Meter, Read[]>();
  for (const read of world.reads) byMeter.set(read.meter, [...(byMeter.get(read.meter) ?? []), read]);
  const flagged = [...byMeter].filter(
    ([m, reads]) => m.customer.cls === "residential" && reads.slice(-3).every((r) => r.type === "estimated"),
  );
  const inspect = ([meter]: [Meter, Read[]], at: string) =>
    order(random, world, meter, "P3", secondsOf(at), "meter_inspection");
  inspect(flagged[0]!, "2025-06-24T13:00:00Z");
  if (flagged[1]) dispatch(random, world, inspect(flagged[1], "2025-06-25T09:30:00Z"));
}

/** Handheld dumps: each entry is a dispatched work order of the crew, done or not, with a reading or none. */
function makeDumps(random: Random, world: UtilityWorld, files: number): void {
  const days = ["2025-06-26", "2025-06-27", "2025-06-28", "2025-06-29"];
  const lastRead = new Map<Meter, number>();
  for (const read of world.reads) lastRead.set(read.meter, read.reading);
  const crews = available(world);
  const used = new Set<Meter>();
  for (let k = 0; k < 4 * files; k += 1) {
    const crew = crews[k % crews.length]!;
    const dump: NoteDump = {
      crew: crew.id,
      lead: crew.lead,
      skill: crew.skill,
      day: days[k % 4]!,
      entries: [],
    };
    let minute = random.int(7 * 60, 8 * 60 + 30);
    for (let n = random.int(4, 6); n > 0; n -= 1) {
      const meter = random.pick(world.meters.filter((m) => m.utility === crew.skill && !used.has(m)));
      used.add(meter);
      const local = secondsOf(`${dump.day}T00:00:00Z`) + minute * 60 - LOCAL_OFFSET_HOURS * 3600;
      const wo = order(
        random,
        world,
        meter,
        random.pick(["P2", "P3", "P3", "P4"]),
        local - random.int(20, 40) * 3600,
      );
      dispatch(random, world, wo, crew);
      const withReading = random.chance(0.6);
      const illegible = withReading && random.chance(0.12);
      const reading = withReading && !illegible ? lastRead.get(meter)! + random.int(3, 900) : null;
      if (reading !== null) lastRead.set(meter, reading);
      const entry = {
        workOrder: 0,
        meter: Number(meter.id.slice(2)),
        minute,
        done: random.chance(0.7),
        reading,
        illegible,
      };
      dump.entries.push(entry);
      world.noted.set(entry, wo);
      minute += random.int(35, 110);
    }
    world.dumps.push(dump);
  }
}

function insertWorld(context: GenerateContext, world: UtilityWorld): void {
  const { db } = context;
  for (const f of world.feeders)
    insertRow(db, "feeders", { feeder_id: f.id, substation: f.substation, voltage_kv: 12.47 });
  for (const c of world.customers)
    insertRow(db, "customers", {
      customer_id: c.id,
      name: c.name,
      phone: c.phone,
      customer_class: c.cls,
      critical_care: c.critical ? 1 : 0,
    });
  for (const m of world.meters)
    insertRow(db, "meters", {
      meter_id: m.id,
      customer_id: m.customer.id,
      utility: m.utility,
      feeder_id: m.feeder,
      address: m.address,
      installed_on: m.installed,
    });
  const read = db.prepare(
    "INSERT INTO meter_reads (meter_id, read_date, reading, read_type, source) VALUES (?, ?, ?, ?, ?)",
  );
  for (const r of world.reads) read.run(r.meter.id, r.date, r.reading, r.type, r.source);
  for (const c of world.crews)
    insertRow(db, "crews", { crew_id: c.id, lead: c.lead, skill: c.skill, depot: c.depot });
  for (const wo of world.workOrders)
    insertRow(db, "work_orders", {
      work_order_id: wo.id,
      meter_id: wo.meter.id,
      utility: wo.meter.utility,
      kind: wo.kind,
      priority: wo.priority,
      status: wo.status,
      created_at: wo.created,
      crew_id: wo.crew?.id ?? null,
      dispatched_at: wo.dispatched,
      completed_at: wo.completed,
      hold_minutes: wo.hold,
      description: wo.description,
    });
}

/** Fills the utility database and writes its workspace documents for one scale. */
export function generateUtility(context: GenerateContext): void {
  const { random, factors, referenceDate } = context;
  const world: UtilityWorld = {
    feeders: [],
    customers: [],
    meters: [],
    reads: [],
    crews: [],
    unavailable: new Map(),
    workOrders: [],
    dumps: [],
    noted: new Map(),
  };
  makeCustomers(context, world);
  makeReads(random, world, factors.rows);
  makeCrews(context, world);
  makeWorkOrders(random, world, factors.rows);
  plantInspections(random, world);
  makeDumps(random, world, factors.files);
  balanceLoads(random, world);
  world.workOrders.sort((a, b) => a.created.localeCompare(b.created));
  world.workOrders.forEach((wo, index) => (wo.id = workOrderId.format(index + 1)));
  for (const [entry, wo] of world.noted) entry.workOrder = Number(wo.id.slice(3));
  // One technician's reading already reached the system before the sync broke.
  const synced = world.dumps
    .flatMap((d) => d.entries.map((e) => ({ d, e })))
    .find(({ e }) => e.reading !== null)!;
  world.reads.push({
    meter: world.meters.find((m) => Number(m.id.slice(2)) === synced.e.meter)!,
    date: synced.d.day,
    reading: synced.e.reading!,
    type: "actual",
    source: "field",
  });
  insertWorld(context, world);
  writeStock(context, world);
  for (const dump of world.dumps) context.writeFile(notesPath(dump), renderNotes(random, dump));
  const days = scadaDays(referenceDate, factors.files);
  writeJournals(context, world.feeders, days, planOutages(random, world.feeders, days));
  writeUtilityDocuments(context, world);
}
