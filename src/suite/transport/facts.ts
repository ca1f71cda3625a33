/**
 * What the verifiers read back from an instance: the policy's numbers as the document states them and the
 * AVL exports as the tool pages them, so an expectation follows exactly what the agent could read.
 */
import { allRows, parseMarkdownTable, requireFile } from "../../envs/index.js";
import type { StateView } from "../../envs/index.js";
import { avlText, parseAvlLine } from "./avl.js";
import type { ParsedAvl } from "./avl.js";
import { POLICY } from "./documents.js";

/** The first number the policy writes where `pattern` (with one capture group) matches. */
export function policyNumber(state: StateView, pattern: RegExp): number {
  const found = pattern.exec(requireFile(state, POLICY));
  if (!found) throw new Error(`the policy does not say ${String(pattern)}`);
  return Number(found[1]);
}

/** A two-or-more-column policy table as label -> number of its last column. */
export function policyTable(state: StateView, heading: string): Map<string, number> {
  const rows = parseMarkdownTable(requireFile(state, POLICY), heading);
  if (rows.length === 0) throw new Error(`the policy has no table under ${heading}`);
  return new Map(rows.map((row) => [row[0]!, Number(row.at(-1))]));
}

/** Every parsed event of a bus-day's export, in order (headers and noise left out). */
export function avlEvents(state: StateView, bus: string, date: string): ParsedAvl[] {
  const text = avlText(state.db, bus, date);
  if (text === undefined) throw new Error(`no AVL export for ${bus} on ${date}`);
  return text
    .split("\n")
    .map(parseAvlLine)
    .filter((event): event is ParsedAvl => event !== null);
}

export interface RouteRow {
  route_id: string;
  school_id: string;
  bus_id: string;
  driver_id: string;
  level: string;
  bell_time: string;
}

export function routes(state: StateView): RouteRow[] {
  return allRows<RouteRow>(
    state.db,
    "SELECT r.route_id, r.school_id, r.bus_id, r.driver_id, s.level, s.bell_time FROM routes r JOIN schools s ON s.school_id = r.school_id ORDER BY r.route_id",
  );
}
