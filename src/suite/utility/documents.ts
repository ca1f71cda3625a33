/** The utility's shared-drive policies, and the parts and truck stock their restock table governs. */
import { insertRow, longDate, renderMarkdown } from "../../envs/index.js";
import type { GenerateContext } from "../../envs/index.js";
import type { UtilityWorld } from "./generate.js";
import { POLICY, SLA_TARGETS } from "./world.js";

const PARTS: Array<[string, string, "electric" | "water"]> = [
  ["ELE-1001", "Meter seal kit", "electric"],
  ["ELE-1002", "Fuse link 25K", "electric"],
  ["ELE-1003", "Lug connector 2/0", "electric"],
  ["ELE-1004", "Cutout door", "electric"],
  ["ELE-1005", "Wildlife guard", "electric"],
  ["ELE-1006", "Ground rod 8 ft", "electric"],
  ["WTR-2001", "Meter gasket 5/8 in", "water"],
  ["WTR-2002", "Repair clamp 6 in", "water"],
  ["WTR-2003", "Curb stop 1 in", "water"],
  ["WTR-2004", "Copper coupling 3/4 in", "water"],
  ["WTR-2005", "Meter yoke", "water"],
  ["WTR-2006", "Valve box lid", "water"],
];

const levels = new WeakMap<UtilityWorld, Map<string, { reorder: number; par: number }>>();

/** Parts, their restock levels, and each truck's stock: some parts at the reorder point, some missing. */
export function writeStock(context: GenerateContext, world: UtilityWorld): void {
  const { db, random } = context;
  const plan = new Map<string, { reorder: number; par: number }>();
  for (const [sku, description, skill] of PARTS) {
    insertRow(db, "parts", { sku, description, skill });
    const reorder = random.int(2, 5);
    plan.set(sku, { reorder, par: reorder + random.int(3, 8) });
  }
  levels.set(world, plan);
  world.crews.forEach((crew, index) => {
    const parts = PARTS.filter(([, , skill]) => skill === crew.skill);
    parts.forEach(([sku], n) => {
      const { reorder, par } = plan.get(sku)!;
      if (n === index % parts.length) return; // one part the truck ran out of and dropped from its list
      const quantity = n === (index + 1) % parts.length ? reorder : random.int(0, par + 2);
      insertRow(db, "truck_stock", { crew_id: crew.id, sku, quantity });
    });
  });
}

function slaPolicy(): string {
  return renderMarkdown("Work order SLA", [
    "Every work order has a completion target set by its priority. The clock starts when the order is created and stops when it is completed; an order that is not completed yet is measured up to now.",
    { heading: "Completion targets" },
    {
      table: {
        headers: ["priority", "target", "unit"],
        rows: Object.entries(SLA_TARGETS).map(([p, t]) => [p, t.amount, t.unit]),
      },
    },
    "Time an order spent on customer hold (the hold_minutes on the work order) extends its deadline by that many minutes. Hours are clock hours around the clock. Business days are Monday to Friday: the deadline is the same time of day that many business days after creation. An order completed exactly at its deadline met its target; one completed after it, or still open after it, breached.",
  ]);
}

function dispatchPolicy(world: UtilityWorld): string {
  return renderMarkdown("Emergency dispatch", [
    "P1 and P2 work orders that are still open (no crew) are dispatched at the start of the day shift.",
    { heading: "Rules" },
    {
      numbered: [
        "Dispatch P1 orders before P2 orders; within a priority, the oldest order (created first) goes first.",
        "Send each order to a crew whose skill matches the order's utility (electric or water).",
        "Crews listed under Unavailable today take no new work.",
        "Among the eligible crews choose the one with the fewest active work orders (dispatched and not completed), counting the orders you dispatch this morning; a tie goes to the lowest crew id.",
      ],
    },
    { heading: "Dispatch targets" },
    {
      table: {
        headers: ["priority", "minutes from creation to dispatch"],
        rows: [
          ["P1", 30],
          ["P2", 120],
        ],
      },
    },
    "An order dispatched exactly at its target is on time. An order still open past its target has missed it too.",
    { heading: `Unavailable today (${longDate("2025-06-30")})` },
    {
      table: {
        headers: ["crew", "reason"],
        rows: [...world.unavailable].map(([crew, why]) => [crew.id, why]),
      },
    },
  ]);
}

function readPolicy(): string {
  return renderMarkdown("Meter read policy", [
    "When a meter cannot be read we bill on an estimate. Runs of estimates hide stopped meters, tampering and access problems, so a run that gets too long sends a technician out.",
    { heading: "Field visit thresholds" },
    {
      table: {
        headers: ["customer class", "consecutive estimated reads"],
        rows: [
          ["residential", 3],
          ["commercial", 2],
        ],
      },
    },
    "Count back from the meter's most recent read; the first actual read ends the run. A meter whose run reaches its class's threshold needs a field visit: a work order of kind meter_inspection, priority P3. Do not raise one when the meter already has a meter_inspection order that is open or dispatched.",
  ]);
}

function outagePolicy(): string {
  return renderMarkdown("Outage reporting", [
    "Feeder outages are taken from the SCADA alarm journal. An interruption starts at the first RAISE of the feeder breaker's trip alarm (tag FDR-nnn.CB.TRIP) and ends at the CLEAR that follows it. While the breaker is open the recloser may raise the alarm again; those repeated RAISE lines belong to the same interruption. Other tags on a feeder (AMPS.HI, VOLT.LO, PF.LO) are limit alarms, not outages.",
    { heading: "Thresholds" },
    {
      table: {
        headers: ["rule", "minutes"],
        rows: [
          ["momentary interruption under", 5],
          ["critical-care follow-up at", 60],
        ],
      },
    },
    "Interruptions shorter than 5 minutes are momentary and are not reported as outages; 5 minutes or longer is a sustained outage. Every critical-care customer with an electric meter on a feeder that had a sustained interruption lasting 60 minutes or more gets a follow-up call.",
  ]);
}

function stockPolicy(world: UtilityWorld): string {
  const plan = levels.get(world)!;
  const table = (skill: string) => ({
    table: {
      headers: ["sku", "part", "reorder point", "par"],
      rows: PARTS.filter(([, , s]) => s === skill).map(([sku, name]) => [
        sku,
        name,
        plan.get(sku)!.reorder,
        plan.get(sku)!.par,
      ]),
    },
  });
  return renderMarkdown("Truck stock", [
    "Each truck carries the parts for its crew's skill. Restock a part when the truck holds it at or below the reorder point (a part missing from the truck's list holds 0); order enough to bring it up to par.",
    "Trucks in the shop (see the dispatch roster in policies/dispatch.md) are restocked when they come back: leave them out of this order. Crews away for other reasons are restocked as usual.",
    { heading: "Stock levels: electric trucks" },
    table("electric"),
    { heading: "Stock levels: water trucks" },
    table("water"),
  ]);
}

export function writeUtilityDocuments(context: GenerateContext, world: UtilityWorld): void {
  context.writeFile(POLICY.sla, slaPolicy());
  context.writeFile(POLICY.dispatch, dispatchPolicy(world));
  context.writeFile(POLICY.reads, readPolicy());
  context.writeFile(POLICY.outages, outagePolicy());
  context.writeFile(POLICY.stock, stockPolicy(world));
}
