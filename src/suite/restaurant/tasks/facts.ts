/**
 * What the verifiers read back: count workbooks (with readXlsx), policy tables and price agreements as the
 * workspace states them, and catalogue facts from the database, so expectations follow the agent's inputs.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { StateView } from "../../../envs/index.js";
import {
  REFERENCE_DATE,
  addDays,
  allRows,
  groupBy,
  parseMarkdownTable,
  readXlsx,
  requireFile,
} from "../../../envs/index.js";

export interface CatalogueItem {
  item_id: string;
  supplier_id: string;
  pack_size: number;
  case_price: number;
  status: string;
}

export function catalogue(state: StateView): Map<string, CatalogueItem> {
  const sql = "SELECT item_id, supplier_id, pack_size, case_price, status FROM items";
  return new Map(allRows<CatalogueItem>(state.db, sql).map((row) => [row.item_id, row]));
}

export function unitCost(item: CatalogueItem): number {
  return item.case_price / item.pack_size;
}

/** Count workbooks by location folder, oldest first. */
export function countWorkbooks(state: StateView): Map<string, string[]> {
  const paths = state.listFiles().filter((p) => /^counts\/[^/]+\/[^/]+\.xlsx$/.test(p));
  return groupBy(paths.sort(), (path) => path.split("/")[1]!);
}

export interface CountOptions {
  firstSheetOnly?: boolean;
  ignoreUnits?: boolean;
}

/** One workbook's stock: the location it names and base units per item over all its sheets. */
export function readCount(
  state: StateView,
  path: string,
  items: ReadonlyMap<string, CatalogueItem>,
  options: CountOptions = {},
): { location: string; stock: Map<string, number> } {
  const sheets = readXlsx(readFileSync(join(state.workspaceDir, path)));
  const location = /\((LOC-\d+)\)/.exec(String(sheets[0]?.rows[0]?.[0]))?.[1];
  if (!location) throw new Error(`${path} names no location`);
  const stock = new Map<string, number>();
  for (const sheet of options.firstSheetOnly ? sheets.slice(0, 1) : sheets)
    for (const row of sheet.rows) {
      const code = row[0];
      if (typeof code !== "string" || !/^ITM-\d{4}$/.test(code)) continue;
      const value = row[3] === "-" || row[3] === null ? 0 : Number(row[3]);
      const cases = String(row[2]).toLowerCase() === "cs" && !options.ignoreUnits;
      stock.set(code, (stock.get(code) ?? 0) + (cases ? value * items.get(code)!.pack_size : value));
    }
  return { location, stock };
}

/** Each location's stock at its latest count (or, with `week` -2, the count before). */
export function countsByLocation(
  state: StateView,
  options: CountOptions & { week?: -1 | -2 } = {},
): Map<string, Map<string, number>> {
  const items = catalogue(state);
  const result = new Map<string, Map<string, number>>();
  for (const paths of countWorkbooks(state).values()) {
    const { location, stock } = readCount(state, paths.at(options.week ?? -1)!, items, options);
    result.set(location, stock);
  }
  return result;
}

export function parsByLocation(state: StateView): Map<string, Map<string, number>> {
  const rows = allRows<{ location_id: string; item_id: string; par: number }>(
    state.db,
    "SELECT * FROM par_levels",
  );
  const byLocation = groupBy(rows, (row) => row.location_id);
  return new Map(
    [...byLocation].map(([location, pars]) => [location, new Map(pars.map((p) => [p.item_id, p.par]))]),
  );
}

type Agreement = { tolerance: number; prices: Map<string, number> };

/** The price agreements: supplier id -> tolerance (percent) and agreed case price per item. */
export function agreements(state: StateView): Map<string, Agreement> {
  const result = new Map<string, Agreement>();
  for (const path of state.listFiles().filter((p) => p.startsWith("agreements/"))) {
    const body = requireFile(state, path);
    const supplier = /supplier id (SUP-\d+)/.exec(body)![1]!;
    const tolerance = Number(/at most (\d+)%/.exec(body)![1]);
    const prices = new Map(parseMarkdownTable(body, "Agreed prices").map((row) => [row[0]!, Number(row[2])]));
    result.set(supplier, { tolerance, prices });
  }
  return result;
}

export function policyTable(state: StateView, path: string, heading: string): string[][] {
  return parseMarkdownTable(requireFile(state, path), heading);
}

export function policyNumber(state: StateView, path: string, pattern: RegExp): number {
  const found = pattern.exec(requireFile(state, path));
  if (!found) throw new Error(`${path}: no match for ${String(pattern)}`);
  return Number(found[1]);
}

/** Monday to Sunday of last week. */
export const LAST_WEEK = { from: addDays(REFERENCE_DATE, -7), to: addDays(REFERENCE_DATE, -1) };

export interface DeliveryRow {
  delivery_id: string;
  location_id: string;
  supplier_id: string;
  item_id: string;
  cases: number;
  case_price: number;
  delivered_on: string;
  ordered_item: string;
  ordered_cases: number;
  po_price: number;
}

export function deliveries(state: StateView): DeliveryRow[] {
  return allRows<DeliveryRow>(
    state.db,
    `SELECT d.*, p.item_id AS ordered_item, p.cases AS ordered_cases, p.case_price AS po_price
       FROM deliveries d JOIN purchase_orders p ON p.po_id = d.po_id ORDER BY d.delivery_id`,
  );
}
