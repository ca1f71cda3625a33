import type Database from "better-sqlite3";
import {
  allRows,
  checkOtherTablesUnchanged,
  defineTask,
  diffTable,
  nearlyEqual,
  parseAnswerJson,
  roundCents,
  type Check,
  type VerifyContext,
} from "../../../envs/index.js";
import {
  OPERATIONS_BULLETIN_PATH,
  RATE_CARD_PATH,
  parseOperationsBulletin,
  cheapestCarrier,
  type RateCard,
  type ShipmentForQuote,
} from "../documents.js";
import { logisticsDomain } from "../domain.js";
import { answerDollars, optionNearMisses, verdict } from "./checks.js";
import { PYTHON_HELPERS } from "./python-helpers.js";

interface Tender {
  carrierId: string;
  cost: number;
}

/** The cheapest eligible carrier for every pending shipment, by shipment id. */
export function expectedTenders(
  db: Database.Database,
  rateCardText: string,
  bulletinText: string,
): Map<string, Tender> {
  const card = JSON.parse(rateCardText) as RateCard;
  const bulletin = parseOperationsBulletin(bulletinText);
  const active = new Set(
    allRows<{ id: string }>(db, "SELECT id FROM carriers WHERE active = 1").map((row) => row.id),
  );
  const pending = allRows<
    Omit<ShipmentForQuote, "is_hazmat"> & { id: string; origin_warehouse_id: string; is_hazmat: number }
  >(
    db,
    `SELECT shipments.id, shipments.origin_warehouse_id, warehouses.region AS origin_region,
       shipments.destination_region, shipments.weight_kg, shipments.is_hazmat, shipments.service_level
     FROM shipments JOIN warehouses ON warehouses.id = shipments.origin_warehouse_id
     WHERE shipments.status = 'pending' ORDER BY shipments.id`,
  );
  const tenders = new Map<string, Tender>();
  for (const shipment of pending) {
    const restricted = shipment.origin_warehouse_id === bulletin.restrictedOriginWarehouseId;
    const excluded = (carrierId: string): boolean =>
      !active.has(carrierId) || (restricted && carrierId === bulletin.restrictedCarrierId);
    const best = cheapestCarrier(card, { ...shipment, is_hazmat: shipment.is_hazmat === 1 }, excluded);
    if (best) tenders.set(shipment.id, best);
  }
  return tenders;
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const expected = expectedTenders(
    initial.db,
    initial.readFile(RATE_CARD_PATH) ?? "{}",
    initial.readFile(OPERATIONS_BULLETIN_PATH) ?? "",
  );
  const diff = diffTable(initial.db, final.db, "shipments", "id");
  const changedById = new Map(diff.changed.map((change) => [change.key, change]));

  const unexpected = diff.changed.filter((change) => !expected.has(change.key)).map((change) => change.key);
  const wrongCarrier: string[] = [];
  const wrongCost: string[] = [];
  const otherFields: string[] = [];
  for (const [id, tender] of expected) {
    const change = changedById.get(id);
    const after = change?.after;
    if (!after || after.status !== "assigned" || after.carrier_id !== tender.carrierId) {
      wrongCarrier.push(
        `${id}: expected ${tender.carrierId}, found ${after ? `${String(after.carrier_id)} (${String(after.status)})` : "unassigned"}`,
      );
      continue;
    }
    if (typeof after.freight_cost !== "number" || !nearlyEqual(after.freight_cost, tender.cost, 0.011))
      wrongCost.push(`${id}: expected ${tender.cost.toFixed(2)}, found ${String(after.freight_cost)}`);
    const before = change.before;
    const moved = Object.keys(before).filter(
      (column) =>
        !["status", "carrier_id", "freight_cost"].includes(column) && before[column] !== after[column],
    );
    if (moved.length > 0) otherFields.push(`${id}: ${moved.join(", ")}`);
  }
  const total = roundCents([...expected.values()].reduce((sum, tender) => sum + tender.cost, 0));
  const parsed = parseAnswerJson(answer) as { assigned?: unknown; total_freight_cost?: unknown } | null;
  const assigned = Number(parsed?.assigned);
  const answeredTotal = answerDollars(parsed?.total_freight_cost ?? "");
  const answerOk =
    parsed !== null &&
    assigned === expected.size &&
    Number.isFinite(answeredTotal) &&
    nearlyEqual(answeredTotal, total, 0.011 * Math.max(1, expected.size));
  return [
    verdict(
      "only-pending-shipments-changed",
      unexpected.length === 0 && diff.added.length === 0 && diff.removed.length === 0,
      "only pending shipments were changed",
      () =>
        `shipments changed that were not pending (or rows added/removed): ${unexpected.slice(0, 10).join(", ")}`,
    ),
    verdict(
      "cheapest-eligible-carrier",
      wrongCarrier.length === 0,
      `all ${expected.size} pending shipments assigned to the cheapest eligible carrier`,
      () =>
        `${wrongCarrier.length} of ${expected.size} shipments not assigned as expected: ${wrongCarrier.slice(0, 8).join(" | ")}`,
    ),
    verdict(
      "quoted-freight-cost",
      wrongCost.length === 0,
      "every recorded freight cost matches the rate card",
      () => `freight costs differ from the rate card: ${wrongCost.slice(0, 8).join(" | ")}`,
    ),
    verdict(
      "other-shipment-fields-unchanged",
      otherFields.length === 0,
      "only status, carrier and cost changed",
      () => `unexpected field changes: ${otherFields.join(" | ")}`,
    ),
    checkOtherTablesUnchanged(initial.db, final.db, ["shipments"]),
    verdict(
      "answer-summary",
      answerOk,
      `answer reports ${expected.size} shipments and $${total.toFixed(2)}`,
      () =>
        `expected {"assigned": ${expected.size}, "total_freight_cost": ${total.toFixed(2)}}, found '${answer.slice(0, 160)}'`,
    ),
  ];
}

interface OracleOptions {
  honourRestriction?: boolean;
  roundUpWeight?: boolean;
  checkHazmat?: boolean;
}

function tenderCells(options: OracleOptions = {}): string[] {
  const { honourRestriction = true, roundUpWeight = true, checkHazmat = true } = options;
  return [
    PYTHON_HELPERS,
    String.raw`
card = json.loads(read_text("carriers/rate-card.json"))
bulletin_text = read_text("memos/operations-bulletin.md")
restriction = re.search(r"\*\*(CR-\d+) \(.*?\) must not be tendered shipments originating from (WH-[A-Z]+)\*\*", bulletin_text)
restricted = (restriction.group(1), restriction.group(2))
${honourRestriction ? "" : "restricted = (None, None)  # near-miss: the bulletin is not taken into account"}
active = {carrier["id"] for carrier in fetch_all("list_carriers", "carriers") if carrier["active"]}
regions = {warehouse["id"]: warehouse["region"] for warehouse in fetch_all("list_warehouses", "warehouses")}
print(card["pricing_rules"], restricted, sorted(active))
`,
    String.raw`
def quote(carrier, shipment):
    zone = card["zone_chart"][regions[shipment["origin_warehouse_id"]]][shipment["destination_region"]]
    rates = carrier["zones"].get(str(zone))
    if rates is None or shipment["weight_kg"] > carrier["max_weight_kg"]:
        return None
    if ${checkHazmat ? 'shipment["is_hazmat"] and not carrier["hazmat_certified"]' : "False"}:
        return None
    billable = ${roundUpWeight ? 'math.ceil(shipment["weight_kg"] - 1e-9)' : 'shipment["weight_kg"]'}
    linehaul = rates["base"] + rates["per_kg"] * billable
    if shipment["service_level"] == "expedited":
        if carrier["expedited_multiplier"] is None:
            return None
        linehaul *= carrier["expedited_multiplier"]
    linehaul = max(linehaul, carrier["minimum_charge"])
    return math.floor(linehaul * (1 + carrier["fuel_surcharge_pct"] / 100) * 100 + 0.5 + 1e-9) / 100

pending = fetch_all("list_shipments", "shipments", status="pending")
choices = {}
for shipment in pending:
    options = []
    for carrier in card["carriers"]:
        if carrier["carrier_id"] not in active:
            continue
        if (carrier["carrier_id"], shipment["origin_warehouse_id"]) == restricted:
            continue
        cost = quote(carrier, shipment)
        if cost is not None:
            options.append((cost, carrier["carrier_id"]))
    choices[shipment["id"]] = min(options)
print(len(pending), "pending;", choices)
`,
    String.raw`
total = 0.0
for shipment_id, (cost, carrier_id) in sorted(choices.items()):
    tools.assign_carrier(shipment_id=shipment_id, carrier_id=carrier_id, freight_cost=cost)
    total += cost
left = tools.list_shipments(status="pending")["total"]
print(len(choices), round(total, 2), left, "still pending")
`,
    `print(json.dumps({"assigned": len(choices), "total_freight_cost": round(total, 2)}))`,
  ];
}

export const tenderPendingShipmentsTask = defineTask({
  id: "logistics.tender-pending-shipments",
  domain: logisticsDomain,
  summary:
    "Assign every pending shipment to its cheapest eligible carrier per the rate card (zones, billable weight, expedited, minimum charge, fuel, weight and hazmat limits), skipping inactive carriers and the carrier restriction in the operations bulletin, and record the quoted cost.",
  instruction:
    'Transportation is behind on tendering. Assign every pending outbound shipment to the cheapest carrier that is allowed to take it, using our current rate card, and record the quoted freight cost on each shipment. Check the latest operations bulletin for any carrier restrictions. When you are done, reply with only a JSON object {"assigned": <number of shipments assigned>, "total_freight_cost": <sum of the recorded freight costs, in dollars>}.',
  tools: ["list_warehouses", "list_carriers", "list_shipments", "assign_carrier"],
  verify,
  oracle: tenderCells(),
  nearMisses: optionNearMisses(tenderCells, {
    "ignores-carrier-restriction": [
      { honourRestriction: false },
      "Tenders to the restricted carrier at the restricted origin.",
    ],
    "actual-weight-not-billable": [
      { roundUpWeight: false },
      "Prices on the actual weight instead of rounding up to the next whole kilogram.",
    ],
    "ignores-hazmat-certification": [
      { checkHazmat: false },
      "Lets carriers without hazmat certification take hazmat shipments.",
    ],
  }),
});
