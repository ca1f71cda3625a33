import {
  getRow,
  check,
  checkOtherTablesUnchanged,
  defineTask,
  nearlyEqual,
  parseAnswerJson,
  roundCents,
  type Check,
  type StateView,
  type VerifyContext,
} from "../../../envs/index.js";
import {
  CYCLE_COUNT_DIRECTORY,
  INVENTORY_SOP_PATH,
  parseCountSheet,
  parseInventorySop,
  type CountLine,
} from "../documents.js";
import { logisticsDomain } from "../domain.js";
import { answerDollars, optionNearMisses, verdict } from "./checks.js";
import { PYTHON_HELPERS } from "./python-helpers.js";

export interface VarianceReport {
  lots: string[];
  netVarianceValue: number;
}

/** The reportable variances of the latest standing count of every counted lot. */
export function expectedVariances(state: StateView): VarianceReport {
  const sop = parseInventorySop(state.readFile(INVENTORY_SOP_PATH) ?? "");
  const latest = new Map<string, CountLine>();
  for (const path of state.listFiles().filter((file) => file.startsWith(`${CYCLE_COUNT_DIRECTORY}/`))) {
    for (const line of parseCountSheet(state.readFile(path) ?? "")) {
      if (line.status === "VOID") continue;
      const current = latest.get(line.lotId);
      const stamp = `${line.countDate}T${line.countTime}`;
      if (!current || stamp > `${current.countDate}T${current.countTime}`) latest.set(line.lotId, line);
    }
  }
  const lots: string[] = [];
  let net = 0;
  for (const [lotId, line] of latest) {
    const row = getRow<{ quantity: number; category: string; unit_cost: number }>(
      state.db,
      `SELECT lots.quantity, products.category, products.unit_cost
       FROM inventory_lots AS lots JOIN products ON products.sku = lots.sku WHERE lots.lot_id = ?`,
      lotId,
    );
    if (!row) continue;
    const variance = line.countedQuantity - row.quantity;
    if (variance === 0) continue;
    const tolerance = sop.countToleranceUnits[row.category] ?? 0;
    const value = variance * row.unit_cost;
    if (Math.abs(variance) > tolerance || Math.abs(value) >= sop.varianceValueThreshold - 1e-9) {
      lots.push(lotId);
      net += value;
    }
  }
  return { lots: lots.sort(), netVarianceValue: roundCents(net) };
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const expected = expectedVariances(initial);
  const parsed = parseAnswerJson(answer) as { lots?: unknown; net_variance_value?: unknown } | null;
  const givenLots = Array.isArray(parsed?.lots)
    ? parsed.lots.map((lot) => String(lot).trim().toUpperCase())
    : null;
  const expectedSet = new Set(expected.lots);
  const missing = expected.lots.filter((lot) => !givenLots?.includes(lot));
  const extra = (givenLots ?? []).filter((lot) => !expectedSet.has(lot));
  const duplicates = givenLots !== null && new Set(givenLots).size !== givenLots.length;
  const lotsOk = givenLots !== null && missing.length === 0 && extra.length === 0 && !duplicates;
  const lotsCheck = check(
    "reportable-lots",
    lotsOk,
    givenLots === null
      ? `expected {"lots": [...], "net_variance_value": ...}, found '${answer.slice(0, 120)}'`
      : missing.length === 0 && extra.length === 0 && !duplicates
        ? `all ${expected.lots.length} reportable lots listed`
        : `expected ${expected.lots.length} lots; missing: ${missing.join(", ") || "none"}; not reportable: ${extra.join(", ") || "none"}${duplicates ? "; duplicates listed" : ""}`,
  );
  const net = answerDollars(parsed?.net_variance_value ?? "");
  const netOk =
    parsed?.net_variance_value !== undefined &&
    Number.isFinite(net) &&
    nearlyEqual(net, expected.netVarianceValue, 0.011);
  return [
    lotsCheck,
    verdict(
      "net-variance-value",
      netOk,
      `net variance ${expected.netVarianceValue.toFixed(2)}`,
      () =>
        `expected net_variance_value ${expected.netVarianceValue.toFixed(2)}, found ${String(parsed?.net_variance_value)}`,
    ),
    checkOtherTablesUnchanged(initial.db, final.db, []),
  ];
}

interface OracleOptions {
  latestCountStands?: boolean;
  ignoreVoid?: boolean;
  toleranceExclusive?: boolean;
}

function varianceCells(options: OracleOptions = {}): string[] {
  const { latestCountStands = true, ignoreVoid = true, toleranceExclusive = true } = options;
  return [
    PYTHON_HELPERS,
    String.raw`
import csv, io
sop_text = read_text("policies/inventory-control-sop.md")
tolerance = {category: int(units) for category, units in md_table(sop_text, "Count tolerances")}
threshold = float(re.search(r"cost is \*\*\$([\d.]+) or more\*\*", sop_text).group(1))
count_lines = []
for entry in fetch_all("list_files", "files", path="cycle-counts"):
    count_lines.extend(csv.DictReader(io.StringIO(read_text(entry["path"]))))
print(tolerance, threshold, len(count_lines), "count lines")
`,
    String.raw`
standing = {}
for line in sorted(count_lines, key=lambda line: (line["count_date"], line["count_time"])${latestCountStands ? "" : ", reverse=True"}):
    if ${ignoreVoid ? 'line["status"] == "VOID"' : "False"}:
        continue
    standing[line["lot_id"]] = line
system = {}
for warehouse_id in sorted({line["warehouse_id"] for line in standing.values()}):
    for lot in fetch_all("list_inventory_lots", "lots", warehouse_id=warehouse_id):
        system[lot["lot_id"]] = lot["quantity"]
products = {product["sku"]: product for product in fetch_all("list_products", "products")}
print(len(standing), "lots counted")
`,
    String.raw`
reportable, net = [], 0.0
for lot_id, line in sorted(standing.items()):
    product = products[line["sku"]]
    variance = int(line["counted_quantity"]) - system[lot_id]
    value = variance * product["unit_cost"]
    if variance != 0 and (abs(variance) ${toleranceExclusive ? ">" : ">="} tolerance[product["category"]] or abs(value) >= threshold - 1e-9):
        reportable.append(lot_id)
        net += value
print(len(reportable), "reportable variances")
`,
    `print(json.dumps({"lots": reportable, "net_variance_value": round(net + 1e-9, 2)}))`,
  ];
}

export const cycleCountVariancesTask = defineTask({
  id: "logistics.cycle-count-variances",
  domain: logisticsDomain,
  summary:
    "Reconcile the daily cycle-count exports against system lot quantities: latest non-void count per lot, reportable by category tolerance or value threshold from the inventory-control SOP; list the lots and the net variance value.",
  instruction:
    'Please prepare the weekly cycle-count variance review. Compare every cycle-count export in the workspace with the quantities in our inventory system and apply the rules of the inventory control SOP to find the reportable variances. Reply with only a JSON object {"lots": [<lot ids with a reportable variance>], "net_variance_value": <sum over those lots of (counted - system quantity) x unit cost, in dollars>}.',
  tools: ["list_warehouses", "list_products", "get_product", "list_inventory_lots", "get_inventory_lot"],
  verify,
  oracle: varianceCells(),
  nearMisses: optionNearMisses(varianceCells, {
    "first-count-stands": [
      { latestCountStands: false },
      "Keeps the earliest count of a recounted lot instead of the latest.",
    ],
    "includes-void-lines": [{ ignoreVoid: false }, "Treats VOID count lines as real counts."],
    "tolerance-inclusive": [
      { toleranceExclusive: false },
      "Reports variances equal to the tolerance, which the SOP allows.",
    ],
  }),
});
