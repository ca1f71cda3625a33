import type Database from "better-sqlite3";
import {
  allRows,
  addDays,
  type Check,
  check,
  checkOtherTablesUnchanged,
  defineTask,
  nearlyEqual,
  roundCents,
  type StateView,
  type VerifyContext,
} from "../../../envs/index.js";
import {
  DAMAGE_REPORT_DIRECTORY,
  INVENTORY_SOP_PATH,
  OPERATIONS_BULLETIN_PATH,
  parseDamageReport,
  parseInventorySop,
  parseOperationsBulletin,
} from "../documents.js";
import { logisticsDomain } from "../domain.js";
import { answerDollars, answerObject, optionNearMisses, verdict } from "./checks.js";
import { PYTHON_HELPERS } from "./python-helpers.js";

/** Lots written off or returned to the vendor in any damaged-goods report. */
export function lotsClaimedAsDamaged(state: StateView): Set<string> {
  const claimed = new Set<string>();
  for (const path of state.listFiles().filter((file) => file.startsWith(`${DAMAGE_REPORT_DIRECTORY}/`))) {
    for (const entry of parseDamageReport(state.readFile(path) ?? "")) {
      if (entry.disposition !== "Released to stock") claimed.add(entry.lotId);
    }
  }
  return claimed;
}

/** Value at cost of at-risk lots per warehouse (every warehouse present, zero when none). */
export function expectedValueAtRisk(db: Database.Database, state: StateView): Map<string, number> {
  const sop = parseInventorySop(state.readFile(INVENTORY_SOP_PATH) ?? "");
  const { expiryReviewAsOf } = parseOperationsBulletin(state.readFile(OPERATIONS_BULLETIN_PATH) ?? "");
  const claimed = lotsClaimedAsDamaged(state);
  const totals = new Map<string, number>();
  for (const { id } of allRows<{ id: string }>(db, "SELECT id FROM warehouses ORDER BY id"))
    totals.set(id, 0);
  type Lot = { lot_id: string; warehouse_id: string; quantity: number; expires_on: string };
  const lots = allRows<Lot & { category: string; unit_cost: number }>(
    db,
    `SELECT lots.lot_id, lots.warehouse_id, lots.quantity, lots.expires_on, products.category, products.unit_cost
     FROM inventory_lots AS lots JOIN products ON products.sku = lots.sku
     WHERE lots.status = 'available' AND lots.expires_on IS NOT NULL AND lots.expires_on >= ?`,
    expiryReviewAsOf,
  );
  for (const lot of lots) {
    const window = sop.expiryWindowDays[lot.category];
    if (window === undefined || lot.expires_on > addDays(expiryReviewAsOf, window) || claimed.has(lot.lot_id))
      continue;
    totals.set(lot.warehouse_id, (totals.get(lot.warehouse_id) ?? 0) + lot.quantity * lot.unit_cost);
  }
  for (const [warehouse, value] of totals) totals.set(warehouse, roundCents(value));
  return totals;
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const expected = expectedValueAtRisk(initial.db, initial);
  const parsed = answerObject(answer);
  const isObject = parsed !== null;
  const given = new Map(
    Object.entries(parsed ?? {}).map(([key, value]) => [key.trim().toUpperCase(), answerDollars(value)]),
  );
  const wrong: string[] = [];
  for (const [warehouse, value] of expected) {
    const found = given.get(warehouse);
    if (found === undefined || !Number.isFinite(found) || !nearlyEqual(found, value, 0.011))
      wrong.push(
        `${warehouse}: expected ${value.toFixed(2)}, found ${found === undefined ? "nothing" : String(found)}`,
      );
  }
  const extra = [...given.keys()].filter((key) => !expected.has(key));
  return [
    verdict(
      "answer-is-object",
      isObject,
      "answer is a JSON object",
      () => `expected a JSON object of warehouse id -> value, found '${answer.slice(0, 120)}'`,
    ),
    check(
      "value-at-risk-per-warehouse",
      isObject && wrong.length === 0 && extra.length === 0,
      wrong.length === 0 && extra.length === 0
        ? `all ${expected.size} warehouse values match`
        : `${[...wrong, ...extra.map((key) => `unexpected key ${key}`)].join(" | ")}`,
    ),
    checkOtherTablesUnchanged(initial.db, final.db, []),
  ];
}

interface OracleOptions {
  excludeExpired?: boolean;
  damageRule?: "claimed" | "none" | "all-listed";
  inclusiveEnd?: boolean;
}

function expiryCells(options: OracleOptions = {}): string[] {
  const { excludeExpired = true, damageRule = "claimed", inclusiveEnd = true } = options;
  const damageFilter = {
    claimed: 'if row[5] in ("Write-off", "Return to vendor")',
    none: "if False",
    "all-listed": "if True",
  }[damageRule];
  return [
    PYTHON_HELPERS,
    String.raw`
sop_text = read_text("policies/inventory-control-sop.md")
bulletin_text = read_text("memos/operations-bulletin.md")
review_date = date.fromisoformat(re.search(r"Use (\d{4}-\d{2}-\d{2}) as the review date", bulletin_text).group(1))
windows = {category: int(days) for category, days in md_table(sop_text, "Expiry windows")}
excluded = set()
for entry in fetch_all("list_files", "files", path="quality"):
    for row in md_table(read_text(entry["path"]), "Findings"):
        ${damageFilter}:
            excluded.add(row[0])
print(review_date, windows, sorted(excluded))
`,
    String.raw`
unit_cost = {}
for category in windows:
    for product in fetch_all("list_products", "products", category=category):
        unit_cost[product["sku"]] = (product["unit_cost"], category)
last_day = (review_date + timedelta(days=max(windows.values()))).isoformat()
candidates = fetch_all("list_inventory_lots", "lots", status="available", expires_on_or_before=last_day${excludeExpired ? ", expires_on_or_after=review_date.isoformat()" : ""})
print(len(unit_cost), "perishable SKUs;", len(candidates), "candidate lots")
`,
    String.raw`
totals = {warehouse["id"]: 0.0 for warehouse in fetch_all("list_warehouses", "warehouses")}
at_risk = []
for lot in candidates:
    cost, category = unit_cost[lot["sku"]]
    window_end = review_date + timedelta(days=windows[category])
    if date.fromisoformat(lot["expires_on"]) ${inclusiveEnd ? ">" : ">="} window_end or lot["lot_id"] in excluded:
        continue
    at_risk.append(lot["lot_id"])
    totals[lot["warehouse_id"]] += lot["quantity"] * cost
print(len(at_risk), "lots at risk")
`,
    `print(json.dumps({warehouse: round(value + 1e-9, 2) for warehouse, value in sorted(totals.items())}))`,
  ];
}

export const expiryRiskReviewTask = defineTask({
  id: "logistics.expiry-risk-review",
  domain: logisticsDomain,
  summary:
    "Compute, per warehouse, the value at cost of available lots expiring within their category's window from the review date, excluding expired, quarantined and damaged-claimed lots, as the inventory-control SOP and operations bulletin define it.",
  instruction:
    'Quality needs the at-risk stock figures for the quarterly expiry review. Using the definitions in our inventory control SOP and the review date given in the latest operations bulletin, work out the value at cost of the stock at risk of expiring in each warehouse. Reply with only a JSON object mapping every warehouse id to its value in dollars rounded to the cent (use 0 for a warehouse with nothing at risk), e.g. {"WH-XXX": 1234.56}.',
  tools: ["list_warehouses", "list_products", "get_product", "list_inventory_lots", "get_inventory_lot"],
  verify,
  oracle: expiryCells(),
  nearMisses: optionNearMisses(expiryCells, {
    "counts-expired-lots": [
      { excludeExpired: false },
      "Counts lots that had already expired before the review date.",
    ],
    "ignores-damaged-goods-reports": [
      { damageRule: "none" },
      "Does not exclude lots written off or returned to the vendor.",
    ],
    "excludes-released-lots": [
      { damageRule: "all-listed" },
      "Also excludes damaged-report lots released back to stock.",
    ],
    "window-end-exclusive": [
      { inclusiveEnd: false },
      "Leaves out lots expiring on the last day of their window.",
    ],
  }),
});
