import { addDays, type GenerateContext } from "../../envs/index.js";
import type { CatalogEntry } from "./catalog.js";
import { lotId, stockId } from "./ids.js";

type Random = GenerateContext["random"];

export interface DrugDraft {
  id: string;
  entry: CatalogEntry;
  strength: string;
  name: string;
  status: "formulary" | "non_formulary";
  ndc: string;
  manufacturer: string;
  packSize: number;
  packCost: number;
}
export interface LotDraft {
  id: string;
  drug: DrugDraft;
  lotNumber: string;
  expiry: string;
  received: string;
}
export interface StockDraft {
  id: string;
  location: string;
  lot: LotDraft;
  quantity: number;
  status: "available" | "quarantined";
  reason: string | null;
}
export interface OrderDraft {
  id: string;
  mrn: string;
  drug: DrugDraft;
  dose: number;
  status: "active" | "discontinued" | "completed";
  daw: boolean;
  orderedAt: string;
  verifiedAt: string | null;
}
export interface RecallDraft {
  notice: string;
  drug: DrugDraft;
  recallClass: "I" | "II";
  issued: string;
  lots: LotDraft[];
  /** A lot the manufacturer added later by e-mail. */
  added: LotDraft | null;
}
export interface SubstitutionDraft {
  from: DrugDraft;
  to: DrugDraft;
  factor: number;
  decision: "approved" | "deferred";
}
export interface PurchaseDraft {
  drug: DrugDraft;
  status: "open" | "received" | "cancelled";
  packs: number;
  created: string;
}

/** Everything the documents are written from; the generator's plants end up here. */
export interface PharmacyWorld {
  today: string;
  rules: {
    shortDatedDays: number;
    returnWindowDays: number;
    countThreshold: number;
    overrideMinutes: number;
    auditDays: number;
  };
  drugs: DrugDraft[];
  cabinets: string[];
  cabinetUnits: Map<string, string>;
  lots: LotDraft[];
  stock: StockDraft[];
  purchases: PurchaseDraft[];
  recalls: RecallDraft[];
  substitutions: SubstitutionDraft[];
  /** Lines of the wholesaler invoice: the order billed, packs shipped, price per pack. */
  invoice: Array<{ purchase: PurchaseDraft; packs: number; price: number }>;
  centralPar: Array<{ drug: DrugDraft; reorderPoint: number; par: number }>;
  cabinetPar: Map<string, Array<{ drug: DrugDraft; min: number; max: number }>>;
  counts: Map<string, Array<{ drug: DrugDraft; first: number; recount: number | null }>>;
  random: Random;
  faker: GenerateContext["faker"];
  /** A fresh manufacturer lot number, never handed out before in this instance. */
  lotNumber: () => string;
}

export const CENTRAL = "LOC-01";
export const SATELLITE = "LOC-02";

export function lotNumberFactory(random: Random): () => string {
  const taken = new Set<string>();
  const letters = "ABCDEFGHJKLMNPRSTUVWXYZ";
  return () => {
    let value = "";
    do value = `${random.pick([...letters])}${random.pick([...letters])}${random.int(10000, 99999)}`;
    while (taken.has(value));
    taken.add(value);
    return value;
  };
}

export function addLot(world: PharmacyWorld, drug: DrugDraft, expiry: string): LotDraft {
  const lot: LotDraft = {
    id: lotId.format(world.lots.length + 1),
    drug,
    lotNumber: world.lotNumber(),
    expiry,
    received: addDays(expiry, -world.random.int(500, 760)),
  };
  world.lots.push(lot);
  return lot;
}

export function addStock(
  world: PharmacyWorld,
  location: string,
  lot: LotDraft,
  quantity: number,
): StockDraft {
  const existing = world.stock.find((row) => row.location === location && row.lot === lot);
  if (existing) return existing;
  const row: StockDraft = {
    id: stockId.format(world.stock.length + 1),
    location,
    lot,
    quantity,
    status: "available",
    reason: null,
  };
  world.stock.push(row);
  return row;
}

/** A timestamp as YYYY-MM-DD HH:MM, the minute clamped into the day. */
export function minuteStamp(day: string, minute: number): string {
  const clamped = Math.max(0, Math.min(minute, 24 * 60 - 1));
  return `${day} ${String(Math.floor(clamped / 60)).padStart(2, "0")}:${String(clamped % 60).padStart(2, "0")}`;
}

/** A timestamp `minutes` after another, as YYYY-MM-DD HH:MM. */
export function addMinutes(stamp: string, minutes: number): string {
  const [day, time] = stamp.split(" ") as [string, string];
  const [hours, mins] = time.split(":").map(Number) as [number, number];
  const total = hours * 60 + mins + minutes;
  return minuteStamp(addDays(day, Math.floor(total / 1440)), ((total % 1440) + 1440) % 1440);
}
