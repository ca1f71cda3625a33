import type { GenerateContext } from "../../envs/index.js";
import type { Product } from "./catalog.js";

export type Random = GenerateContext["random"];

export interface Item {
  id: string;
  name: string;
  product: Product;
  supplier: string;
  pack: number;
  price: number;
  status: "active" | "discontinued";
  areas: string[];
}
export interface Location {
  id: string;
  name: string;
  city: string;
  manager: string;
  items: Item[];
}
export interface Po {
  id: string;
  location: Location;
  item: Item;
  cases: number;
  price: number;
  status: "open" | "delivered" | "cancelled";
  ordered: string;
}
export interface Delivery {
  id: string;
  po: Po;
  item: Item;
  cases: number;
  price: number;
  day: string;
  note: string | null;
}
export interface Recipe {
  id: string;
  name: string;
  category: "starter" | "main" | "dessert";
  menuPrice: number;
  portions: number;
  lines: Array<{ item: Item; quantity: number }>;
}
/** One line of a count sheet: an item counted in one storage area, in cases or base units. */
export interface CountEntry {
  item: Item;
  area: string;
  unit: string;
  value: number;
}
export interface Agreement {
  supplier: string;
  supplierName: string;
  tolerance: number;
  effective: string;
  prices: Map<string, number>;
}

/** Everything the documents are written from. */
export interface RestaurantWorld {
  today: string;
  suppliers: Array<{ id: string; name: string; category: string }>;
  items: Item[];
  locations: Location[];
  recipes: Recipe[];
  pos: Po[];
  deliveries: Delivery[];
  agreements: Map<string, Agreement>;
  /** Count sheets: location id -> week label -> entries. */
  counts: Map<string, Map<string, CountEntry[]>>;
  pars: Map<string, Map<string, number>>;
  wasteLimits: Map<string, number>;
  /** Credits already requested for short deliveries. */
  credits: Array<{ delivery: Delivery; amount: number; day: string }>;
  /** Portions sold: location -> day -> recipe -> portions. */
  sales: Map<string, Map<string, Map<string, number>>>;
  /** Waste log rows as insertRecords takes them (camelCase columns). */
  wasteLogs: object[];
  rules: {
    staleDays: number;
    standingDays: number;
    standingSuppliers: string[];
    creditWindowDays: number;
    /** Par review: the new par is this multiple of the average weekly usage. */
    parFactor: number;
    targets: Record<Recipe["category"], number>;
  };
}

/** The two count weeks: the closing count of the week before last and of last week (Sundays). */
export const COUNT_WEEKS = [
  { label: "2025-W25", day: "2025-06-22" },
  { label: "2025-W26", day: "2025-06-29" },
] as const;
export const WEEK_START = "2025-06-23";
export const WEEK_END = "2025-06-29";

/** Dollars per base unit at the catalogue price. */
export function unitCost(item: { price: number; pack: number }): number {
  return item.price / item.pack;
}

export function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
