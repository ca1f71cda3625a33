import {
  addDays,
  allRows,
  cachedStatement,
  checkStateDiff,
  defineTask,
  parseCsv,
  toCsv,
  type Check,
  type GenerateContext,
  type StateView,
  type VerifyContext,
} from "../../../envs/index.js";
import { MOVEMENT_LOG_DIRECTORY, MOVEMENT_LOG_HEADER } from "../documents.js";
import { logisticsDomain } from "../domain.js";
import { answerNumber, answerObject, checkAnswerObject, optionNearMisses } from "./checks.js";
import { PYTHON_HELPERS } from "./python-helpers.js";

export const PICKING_STANDARD_PATH = "policies/picking-standard.md";

interface Lot {
  lot_id: string;
  sku: string;
  warehouse_id: string;
  received_on: string;
  expires_on: string | null;
  status: string;
}

interface PickLine {
  date: string;
  warehouse: string;
  lot: string;
}

function lotsOf(db: StateView["db"]): Map<string, Lot> {
  return new Map(
    allRows<Lot>(
      db,
      "SELECT lot_id, sku, warehouse_id, received_on, expires_on, status FROM inventory_lots ORDER BY lot_id",
    ).map((lot) => [lot.lot_id, lot]),
  );
}

/** The other available lots of the same SKU at the same warehouse. */
function availableSiblings(lots: Map<string, Lot>, lot: Lot): Lot[] {
  return [...lots.values()].filter(
    (other) =>
      other.lot_id !== lot.lot_id &&
      other.sku === lot.sku &&
      other.warehouse_id === lot.warehouse_id &&
      other.status === "available",
  );
}

/** Lots of the same SKU at the same warehouse that the standard says should have been picked first. */
function betterLots(lots: Map<string, Lot>, picked: Lot, date: string): Lot[] {
  const expiresOn = picked.expires_on;
  if (expiresOn === null) return [];
  return availableSiblings(lots, picked).filter(
    (other) =>
      other.received_on <= date &&
      other.expires_on !== null &&
      other.expires_on >= date &&
      other.expires_on < expiresOn,
  );
}

function picksIn(texts: string[]): PickLine[] {
  return texts.flatMap((text) =>
    parseCsv(text)
      .filter((row) => row.movement_type === "PICK")
      .map((row) => ({
        date: (row.timestamp ?? "").slice(0, 10),
        warehouse: row.warehouse_id ?? "",
        lot: row.lot_id ?? "",
      })),
  );
}

function logTexts(state: Pick<StateView, "listFiles" | "readFile">): string[] {
  return state
    .listFiles()
    .filter((path) => path.startsWith(`${MOVEMENT_LOG_DIRECTORY}/`) && path.endsWith(".csv"))
    .map((path) => state.readFile(path) ?? "");
}

/** Breaches per warehouse: picks from quarantined lots, and FEFO breaches, over every movement log. */
export function expectedBreaches(state: StateView): Map<string, { quarantine: number; fefo: number }> {
  const lots = lotsOf(state.db);
  const result = new Map<string, { quarantine: number; fefo: number }>();
  for (const pick of picksIn(logTexts(state))) {
    const lot = lots.get(pick.lot);
    if (!lot) continue;
    const counts = result.get(pick.warehouse) ?? { quarantine: 0, fefo: 0 };
    if (lot.status === "quarantine") counts.quarantine += 1;
    else if (betterLots(lots, lot, pick.date).length > 0) counts.fefo += 1;
    else continue;
    result.set(pick.warehouse, counts);
  }
  return new Map([...result].sort((x, y) => x[0].localeCompare(y[0])));
}

/**
 * The picking standard, a pick from a quarantined lot, and a pick whose only earlier-expiring sibling is
 * on hold (no breach), so that both rules decide at every scale.
 */
function prepare(context: GenerateContext): void {
  const { db, random, referenceDate } = context;
  context.writeFile(
    PICKING_STANDARD_PATH,
    `# Picking standard

Owner: Warehouse Operations · Revised ${addDays(referenceDate, -75)}

## Rules

1. **Never pick quarantined stock.** A pick from a lot in \`quarantine\` status is a quarantine breach.
2. **First expired, first out (FEFO).** Perishable stock is picked from the lot that expires first. A pick
   from a lot is a FEFO breach when, at the same warehouse, another lot of the same SKU in \`available\`
   status had already been received on the day of the pick, was still in date that day (expiry date on or
   after the pick date) and expires earlier than the lot that was picked. Lots without an expiry date have
   no FEFO rule. A pick that is a quarantine breach is not also counted as a FEFO breach.

## Weekly pick audit

The audit goes through every PICK line of the stock-movement logs (logs folder) and checks it against the
lot records in the inventory system as they stand (lot statuses and dates have not changed since those
picks). It reports, per warehouse, the number of quarantine breaches and the number of FEFO breaches.
`,
  );
  const paths = Array.from(
    { length: 3 * context.factors.files },
    (_, index) => `${MOVEMENT_LOG_DIRECTORY}/stock-movements-${addDays(referenceDate, -1 - index)}.csv`,
  ).filter((path) => context.readFile(path) !== null);
  const logs = paths.map((path) => ({ path, rows: parseCsv(context.readFile(path) ?? "") }));
  const lots = lotsOf(db);
  // A pick that stays clean only because its one earlier-expiring sibling is on hold.
  const picks = logs.flatMap((log) => log.rows.filter((row) => row.movement_type === "PICK"));
  let heldSiblingPick: (typeof picks)[number] | undefined;
  for (const row of random.shuffle(picks)) {
    const lot = lots.get(row.lot_id ?? "");
    if (!lot || lot.status !== "available") continue;
    const better = betterLots(lots, lot, (row.timestamp ?? "").slice(0, 10));
    if (better.length !== 1) continue;
    const held = better[0] as Lot;
    cachedStatement(db, "UPDATE inventory_lots SET status = 'quarantine' WHERE lot_id = ?").run(held.lot_id);
    held.status = "quarantine";
    heldSiblingPick = row;
    break;
  }
  // A pick from a quarantined lot: one picker scanned a held pallet.
  // Preferably a held lot with an earlier-expiring available sibling, so that the pick is a quarantine
  // breach that would also look like a FEFO breach.
  const heldLots = random.shuffle([...lots.values()].filter((lot) => lot.status === "quarantine"));
  const log = logs[logs.length - 1];
  const target = log
    ? random
        .shuffle(log.rows.filter((row) => row.movement_type === "PICK"))
        .find((row) => row !== heldSiblingPick)
    : undefined;
  const targetDay = (target?.timestamp ?? "").slice(0, 10);
  const held = heldLots.find((lot) => betterLots(lots, lot, targetDay).length > 0) ?? heldLots[0];
  if (held && log && target) {
    target.warehouse_id = held.warehouse_id;
    target.sku = held.sku;
    target.lot_id = held.lot_id;
    context.writeFile(
      log.path,
      toCsv(
        MOVEMENT_LOG_HEADER,
        log.rows.map((row) => MOVEMENT_LOG_HEADER.map((column) => row[column] ?? "")),
      ),
    );
  }
  // A pick that stays clean although a sibling expires earlier: that sibling had expired on the pick day.
  const dayOf = (row: Record<string, string | undefined>): string => (row.timestamp ?? "").slice(0, 10);
  const isClean = (row: Record<string, string | undefined>): boolean => {
    const lot = lots.get(row.lot_id ?? "");
    return lot !== undefined && lot.status === "available" && betterLots(lots, lot, dayOf(row)).length === 0;
  };
  const expiredSibling = (row: Record<string, string | undefined>): boolean => {
    const lot = lots.get(row.lot_id ?? "");
    if (lot === undefined) return false;
    return availableSiblings(lots, lot).some(
      (other) =>
        other.received_on <= dayOf(row) &&
        other.expires_on !== null &&
        lot.expires_on !== null &&
        other.expires_on < dayOf(row) &&
        other.expires_on < lot.expires_on,
    );
  };
  const clean = picks.filter((row) => row !== target && isClean(row));
  const heldSiblingClean = heldSiblingPick !== undefined && isClean(heldSiblingPick);
  if (!clean.some(expiredSibling))
    for (const row of random.shuffle(clean)) {
      const lot = lots.get(row.lot_id ?? "") as Lot;
      const day = dayOf(row);
      if (lot.expires_on === null || lot.expires_on < day) continue;
      const sibling = availableSiblings(lots, lot).find((other) => other.received_on < day);
      if (!sibling) continue;
      const before = sibling.expires_on;
      sibling.expires_on = addDays(day, -1);
      if (heldSiblingClean && !isClean(heldSiblingPick as (typeof picks)[number])) {
        sibling.expires_on = before;
        continue;
      }
      cachedStatement(db, "UPDATE inventory_lots SET expires_on = ? WHERE lot_id = ?").run(
        sibling.expires_on,
        sibling.lot_id,
      );
      break;
    }
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const expected = expectedBreaches(initial);
  const parsed = answerObject(answer);
  const given =
    parsed &&
    new Map(
      Object.entries(parsed)
        .map(([warehouse, value]): [string, { quarantine: number; fefo: number }] => {
          const item = (value ?? {}) as Record<string, unknown>;
          const counts = {
            quarantine: answerNumber(item.quarantine ?? 0),
            fefo: answerNumber(item.fefo ?? 0),
          };
          return [warehouse.trim().toUpperCase(), counts];
        })
        .filter(([, value]) => value.quarantine !== 0 || value.fefo !== 0),
    );
  const ok =
    given !== null &&
    given.size === expected.size &&
    [...expected].every(
      ([warehouse, counts]) =>
        given.get(warehouse)?.quarantine === counts.quarantine && given.get(warehouse)?.fefo === counts.fefo,
    );
  return [
    checkAnswerObject("breaches-by-warehouse", answer, expected, ok, "breach counts match"),
    ...checkStateDiff(initial.db, final.db, []),
  ];
}

interface Options {
  anyWarehouse?: boolean;
  heldCount?: boolean;
  noRetry?: boolean;
  expiredCount?: boolean;
  doubleCount?: boolean;
}

function cells(options: Options = {}): string[] {
  return [
    PYTHON_HELPERS,
    String.raw`
import csv, io
standard = read_text("policies/picking-standard.md")
paths = [path for path in folder_paths("logs") if path.endswith(".csv")]
picks = []
for path in sorted(paths):
    for row in csv.DictReader(io.StringIO(read_text(path))):
        if row["movement_type"] == "PICK":
            picks.append(row)
print(len(paths), "logs,", len(picks), "picks")
`,
    String.raw`
def list_lots(page):
    for attempt in range(${options.noRetry ? 1 : 5}):
        try:
            return tools.list_inventory_lots(page=page, per_page=50)
        except ToolError as error:
            if "503" not in str(error) or attempt == ${options.noRetry ? 0 : 4}:
                raise
            print("retrying page", page)

lots, page = {}, 1
while True:
    result = list_lots(page)
    lots.update({lot["lot_id"]: lot for lot in result["lots"]})
    if not result["has_more"]:
        break
    page += 1
print(len(lots), "lots")
`,
    String.raw`
def breaches_fefo(lot, day):
    if not lot["expires_on"]:
        return False
    for other in lots.values():
        if other["lot_id"] == lot["lot_id"] or other["sku"] != lot["sku"]:
            continue
        if ${options.anyWarehouse ? "False" : 'other["warehouse_id"] != lot["warehouse_id"]'}:
            continue
        if ${options.heldCount ? "False" : 'other["status"] != "available"'}:
            continue
        if other["expires_on"] and other["received_on"] <= day ${options.expiredCount ? "" : '<= other["expires_on"] '} and other["expires_on"] < lot["expires_on"]:
            return True
    return False

report = {}
for pick in picks:
    lot = lots.get(pick["lot_id"])
    if lot is None:
        continue
    day = pick["timestamp"][:10]
    kinds = []
    if lot["status"] == "quarantine":
        kinds.append("quarantine")
    if (${options.doubleCount ? "True" : "not kinds"}) and breaches_fefo(lot, day):
        kinds.append("fefo")
    for kind in kinds:
        counts = report.setdefault(pick["warehouse_id"], {"quarantine": 0, "fefo": 0})
        counts[kind] += 1
print(json.dumps(dict(sorted(report.items()))))
`,
  ];
}

export const pickAuditTask = defineTask({
  id: "logistics.pick-audit",
  domain: logisticsDomain,
  summary:
    "Audit every PICK line of the stock-movement logs against the picking standard: picks from quarantined lots and FEFO breaches (an earlier-expiring, in-date, already received, available lot of the same SKU at the same warehouse), counted per warehouse from the full lot listing, whose network-wide third page fails once with a 503.",
  instruction:
    'Warehouse Operations here. Please run this week\'s pick audit as our picking standard describes it, over all the stock-movement logs in the workspace. Reply with only a JSON object {"<warehouse_id>": {"quarantine": <number of quarantine breaches>, "fefo": <number of FEFO breaches>}, ...} listing only warehouses with at least one breach.',
  tools: ["list_warehouses", "list_products", "get_product", "list_inventory_lots", "get_inventory_lot"],
  prepare,
  verify,
  oracle: cells(),
  nearMisses: optionNearMisses(cells, {
    "any-warehouse": [
      { anyWarehouse: true },
      "Compares a picked lot with lots of the same SKU at every warehouse, not only its own.",
    ],
    "counts-held-lots": [
      { heldCount: true },
      "Counts an earlier-expiring lot that is on hold as one that should have been picked.",
    ],
    "no-retry": [{ noRetry: true }, "Does not retry the lot listing's 503 and stops there."],
    "counts-expired-lots": [
      { expiredCount: true },
      "Counts an earlier-expiring lot that had already expired on the pick date as one to pick first.",
    ],
    "double-counts-quarantine": [
      { doubleCount: true },
      "Counts a pick from a quarantined lot as a FEFO breach as well.",
    ],
  }),
});
