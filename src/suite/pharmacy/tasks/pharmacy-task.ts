import {
  REFERENCE_DATE,
  allRows,
  check,
  parseAnswerList,
  sumBy,
  type Check,
  type StateView,
  type TaskDefinition,
  type VerifyContext,
  variantTaskDefiner,
} from "../../../envs/index.js";
import { pharmacyDomain } from "../domain.js";
import { PHARMACY_PY } from "./python.js";

/**
 * A pharmacy task whose verifier checks one expectation and whose near-misses are variants of the oracle; every
 * program starts with the PHARMACY_PY cell.
 */
export function pharmacyTask<
  Expected extends { length: number } | { size: number },
  Variant extends object,
>(spec: {
  id: string;
  summary: string;
  instruction: string;
  tools: string[];
  /** The expectation, computed from the initial state; empty means the generator did not plant the case. */
  expected: (initial: StateView) => Expected;
  /** What an empty expectation lacks, for the generator error. */
  nothing: string;
  checks: (expected: Expected, context: VerifyContext) => Check[];
  cells: (variant: Variant) => string[];
  nearMisses: Record<string, readonly [change: Partial<Variant>, description: string]>;
}): TaskDefinition {
  const { expected, nothing, checks, ...task } = spec;
  return definePharmacyTask({
    ...task,
    verify: (context) => {
      const found = expected(context.initial);
      if (("size" in found ? found.size : found.length) === 0)
        throw new Error(`generation produced no ${nothing}`);
      return checks(found, context);
    },
  });
}

const definePharmacyTask = variantTaskDefiner(pharmacyDomain, PHARMACY_PY);

export interface StockView {
  stock_id: string;
  location_id: string;
  kind: string;
  lot_id: string;
  drug_id: string;
  expiry_date: string;
  quantity: number;
  status: string;
  schedule: string | null;
  pack_size: number;
  pack_cost: number;
}

/** Every stock row with its lot, drug and location facts. */
export function stockRows(state: StateView): StockView[] {
  return allRows<StockView>(
    state.db,
    `SELECT i.stock_id, i.location_id, loc.kind, i.lot_id, l.drug_id, l.expiry_date, i.quantity, i.status,
            d.schedule, d.pack_size, d.pack_cost
       FROM inventory i JOIN lots l ON l.lot_id = i.lot_id JOIN drugs d ON d.drug_id = l.drug_id
       JOIN locations loc ON loc.location_id = i.location_id
      ORDER BY i.stock_id`,
  );
}

/** Units per key: `unitsBy(rows, (row) => row.location_id)`. */
export function unitsBy<Row extends { quantity: number }>(
  rows: Row[],
  keyOf: (row: Row) => string,
): Map<string, number> {
  return sumBy(rows, keyOf, (row) => row.quantity);
}

export function isUsable(row: StockView): boolean {
  return row.status === "available" && row.expiry_date >= REFERENCE_DATE;
}

/** An answer that is a list of ids, compared as a set. */
export function idListCheck(answer: string, expected: readonly string[]): Check {
  const given = [
    ...new Set(parseAnswerList(answer).map((item) => item.replace(/^["'\s]+|["'\s]+$/g, ""))),
  ].sort();
  const want = [...new Set(expected)].sort();
  const missing = want.filter((id) => !given.includes(id));
  const extra = given.filter((id) => !want.includes(id));
  return check(
    "answer-ids",
    missing.length === 0 && extra.length === 0,
    missing.length + extra.length === 0
      ? `all ${want.length} ids`
      : `missing ${missing.join(", ") || "none"}; unexpected ${extra.join(", ") || "none"}`,
  );
}
