import {
  draftsToCsv,
  markdownTable,
  parseCsv,
  parseMarkdownTable,
  roundCents,
  type StateView,
} from "../../envs/index.js";
/**
 * Workspace documents of the logistics domain: each is rendered by the generator and parsed back by the
 * verifiers, so a task's expectations always come from exactly the text the agent reads.
 */

export const REPLENISHMENT_POLICY_PATH = "policies/replenishment-policy.md";
export const INVENTORY_SOP_PATH = "policies/inventory-control-sop.md";
export const OPERATIONS_BULLETIN_PATH = "memos/operations-bulletin.md";
export const RATE_CARD_PATH = "carriers/rate-card.json";
export const CYCLE_COUNT_DIRECTORY = "cycle-counts";
export const DAMAGE_REPORT_DIRECTORY = "quality";
export const MOVEMENT_LOG_DIRECTORY = "logs";
export const MOVEMENT_LOG_HEADER =
  "timestamp,warehouse_id,movement_type,sku,lot_id,quantity,reference,operator".split(",");

// ---------------------------------------------------------------- replenishment policy

export interface CategoryPolicy {
  reorderPoint: number;
  orderUpTo: number;
  preferredSupplierId: string;
  backupSupplierId: string;
}

export interface ReplenishmentPolicy {
  categories: Record<string, CategoryPolicy>;
  overrides: Record<string, { reorderPoint: number; orderUpTo: number; reason: string }>;
}

export function renderReplenishmentPolicy(
  policy: ReplenishmentPolicy,
  supplierNames: Record<string, string>,
  revisedOn: string,
): string {
  const categoryRows = Object.entries(policy.categories).map(([category, rule]) => [
    category,
    rule.reorderPoint,
    rule.orderUpTo,
    `${rule.preferredSupplierId} (${supplierNames[rule.preferredSupplierId] ?? "?"})`,
    `${rule.backupSupplierId} (${supplierNames[rule.backupSupplierId] ?? "?"})`,
  ]);
  const overrideRows = Object.entries(policy.overrides).map(([sku, rule]) => [
    sku,
    rule.reorderPoint,
    rule.orderUpTo,
    rule.reason,
  ]);
  return `# Replenishment Policy — Distribution Network

Owner: Inventory Planning · Revised ${revisedOn} · Applies to all distribution centers

## 1. Purpose

This policy tells planners when and how much to reorder so that every distribution center keeps enough
stock to serve its customers without tying up cash in excess inventory. It applies per warehouse and per
SKU: each warehouse is replenished on its own, never by moving stock between sites.

## 2. When to reorder

1. Only **active** SKUs are replenished. Discontinued SKUs are sold through and never reordered, even when
   they run out.
2. A SKU is reviewed at every warehouse that stocks it (every warehouse holding at least one lot of it).
3. **On hand** counts only lots in \`available\` status. Quarantined lots are on hold and do not count.
4. **Inventory position** = on hand + quantity already on order for that warehouse, i.e. the lines of
   open purchase orders (status \`draft\` or \`submitted\`) delivering to that warehouse.
5. Reorder when the inventory position is **at or below** the reorder point.

## 3. How much to order

Order quantity = order-up-to level − inventory position, rounded **up** to a whole number of case packs
(the product's \`case_pack\`). Never order a partial case.

## 4. Reorder points, order-up-to levels and suppliers by category

Levels are in selling units per warehouse.

${markdownTable(["Category", "Reorder point", "Order-up-to level", "Preferred supplier", "Backup supplier"], categoryRows)}

Orders go to the category's preferred supplier. Use the backup supplier only when the preferred supplier
cannot be used (see the latest operations bulletin for suspensions).

## 5. SKU overrides

Fast movers and promoted items carry their own levels. An override replaces the category levels for that
SKU at every warehouse.

${markdownTable(["SKU", "Reorder point", "Order-up-to level", "Reason"], overrideRows)}

## 6. Raising purchase orders

- Raise **one purchase order per supplier and warehouse**, with one line per SKU; do not split a SKU
  across lines.
- Purchase orders are raised as drafts; Purchasing reviews and submits them to the supplier.
- Do not edit or cancel existing purchase orders when replenishing; changes go through Purchasing.

## 7. Reviewing open orders

Purchasing reviews the open purchase orders (status \`draft\` or \`submitted\`) every week. An open order is
no longer needed, and is cancelled, when **every** line on it is for a SKU whose on-hand quantity at the
receiving warehouse (available lots only, as in section 2) is already **at or above** that SKU's
order-up-to level (section 4, or section 5 for SKUs with an override). An order with at least one line
still needed stays open as it is. Orders with a suspended supplier are not part of this review:
Purchasing settles them with the supplier directly.
`;
}

const SUPPLIER_IN_CELL = /(SUP-\d+)/;

export function parseReplenishmentPolicy(markdown: string): ReplenishmentPolicy {
  const categories: Record<string, CategoryPolicy> = {};
  for (const cells of parseMarkdownTable(markdown, "by category")) {
    const [category, reorderPoint, orderUpTo, preferred, backup] = cells;
    categories[category ?? ""] = {
      reorderPoint: Number(reorderPoint),
      orderUpTo: Number(orderUpTo),
      preferredSupplierId: preferred?.match(SUPPLIER_IN_CELL)?.[1] ?? "",
      backupSupplierId: backup?.match(SUPPLIER_IN_CELL)?.[1] ?? "",
    };
  }
  const overrides: ReplenishmentPolicy["overrides"] = {};
  for (const cells of parseMarkdownTable(markdown, "SKU overrides")) {
    const [sku, reorderPoint, orderUpTo, reason] = cells;
    overrides[sku ?? ""] = {
      reorderPoint: Number(reorderPoint),
      orderUpTo: Number(orderUpTo),
      reason: reason ?? "",
    };
  }
  return { categories, overrides };
}

// ---------------------------------------------------------------- operations bulletin

export interface OperationsBulletin {
  issuedOn: string;
  suspendedSupplierId: string;
  suspendedSupplierName: string;
  suspensionEffectiveOn: string;
  restrictedCarrierId: string;
  restrictedCarrierName: string;
  restrictedOriginWarehouseId: string;
  expiryReviewAsOf: string;
}

export function renderOperationsBulletin(bulletin: OperationsBulletin, author: string): string {
  return `# Operations Bulletin

Issued ${bulletin.issuedOn} by ${author}, Director of Network Operations
Distribution: all DC managers, Inventory Planning, Purchasing, Transportation, Quality

## Supplier suspension

**Supplier ${bulletin.suspendedSupplierId} (${bulletin.suspendedSupplierName}) is suspended effective ${bulletin.suspensionEffectiveOn}.**
Their latest third-party compliance audit closed with open critical findings, and no new purchase orders
may be raised with them until Quality lifts the suspension. Purchase orders already open with them will not be
shipped: do not count them as stock on order when planning replenishment (Purchasing will cancel them
with the supplier directly — please leave them as they are). Categories normally bought from this supplier
go to the backup supplier named in the replenishment policy.

## Carrier restriction

**${bulletin.restrictedCarrierId} (${bulletin.restrictedCarrierName}) must not be tendered shipments originating from ${bulletin.restrictedOriginWarehouseId}** until the open
damage-claims investigation at that dock is closed. The carrier remains approved for every other origin;
rates on the current rate card are unchanged.

## Quarterly expiry-risk review

Quality needs the at-risk stock figures for the quarterly review. **Use ${bulletin.expiryReviewAsOf} as the review date.**
Follow the definitions in the Inventory Control SOP, section 3.

## Reminders

- Dock appointments for inbound trailers must be booked at least 24 hours ahead.
- Forklift recertification is due for second shift at Columbus and Dallas this month.
- Cycle count results are exported daily to the cycle-counts folder; variances are reviewed weekly.
`;
}

export function parseOperationsBulletin(markdown: string): OperationsBulletin {
  const supplier = markdown.match(
    /\*\*Supplier (SUP-\d+) \((.+?)\) is suspended effective (\d{4}-\d{2}-\d{2})\.\*\*/,
  );
  const carrier = markdown.match(
    /\*\*(CR-\d+) \((.+?)\) must not be tendered shipments originating from (WH-[A-Z]+)\*\*/,
  );
  const review = markdown.match(/Use (\d{4}-\d{2}-\d{2}) as the review date/);
  const issued = markdown.match(/Issued (\d{4}-\d{2}-\d{2})/);
  if (!supplier || !carrier || !review || !issued)
    throw new Error("operations bulletin is not in the expected form");
  return {
    issuedOn: issued[1] ?? "",
    suspendedSupplierId: supplier[1] ?? "",
    suspendedSupplierName: supplier[2] ?? "",
    suspensionEffectiveOn: supplier[3] ?? "",
    restrictedCarrierId: carrier[1] ?? "",
    restrictedCarrierName: carrier[2] ?? "",
    restrictedOriginWarehouseId: carrier[3] ?? "",
    expiryReviewAsOf: review[1] ?? "",
  };
}

/** The replenishment policy and the supplier the operations bulletin suspends, as the workspace states them. */
export function planningRules(state: Pick<StateView, "readFile">): {
  policy: ReplenishmentPolicy;
  suspendedSupplierId: string;
} {
  const bulletin = parseOperationsBulletin(state.readFile(OPERATIONS_BULLETIN_PATH) ?? "");
  return {
    policy: parseReplenishmentPolicy(state.readFile(REPLENISHMENT_POLICY_PATH) ?? ""),
    suspendedSupplierId: bulletin.suspendedSupplierId,
  };
}

// ---------------------------------------------------------------- rate card

export interface CarrierRates {
  carrier_id: string;
  carrier_name: string;
  mode: "parcel" | "ltl";
  max_weight_kg: number;
  hazmat_certified: boolean;
  expedited_multiplier: number | null;
  minimum_charge: number;
  fuel_surcharge_pct: number;
  /** Zone number (as a string key) -> base charge and rate per billable kilogram. */
  zones: Record<string, { base: number; per_kg: number }>;
}

export interface RateCard {
  title: string;
  effective_from: string;
  currency: string;
  pricing_rules: string[];
  zone_chart: Record<string, Record<string, number>>;
  carriers: CarrierRates[];
}

export const RATE_CARD_RULES = [
  "Zone: look up the origin warehouse's region (rows) and the destination region (columns) in zone_chart.",
  "Billable weight: the shipment weight rounded up to the next whole kilogram.",
  "Linehaul: base + per_kg x billable weight, using the carrier's rates for the zone. A carrier with no rates for a zone does not serve it.",
  "Expedited shipments: multiply the linehaul by the carrier's expedited_multiplier. Carriers whose expedited_multiplier is null do not offer expedited service.",
  "Minimum charge: if the (possibly expedited) linehaul is below minimum_charge, charge minimum_charge instead.",
  "Fuel surcharge: add fuel_surcharge_pct percent to the result. Round the final freight cost to the cent.",
  "Eligibility: the shipment weight must not exceed max_weight_kg, and hazmat shipments may only go to hazmat_certified carriers.",
  "Only tender to carriers that are active in the carrier master (inactive carriers stay on the card until renewal).",
  "Tender each shipment to the cheapest eligible carrier; on an exact tie, the lower carrier_id.",
];

export interface ShipmentForQuote {
  origin_region: string;
  destination_region: string;
  weight_kg: number;
  is_hazmat: boolean;
  service_level: string;
}

/** The rate card's price for one shipment with one carrier, or null when the carrier is not eligible. */
export function quoteFreight(
  card: RateCard,
  carrier: CarrierRates,
  shipment: ShipmentForQuote,
): number | null {
  const zone = card.zone_chart[shipment.origin_region]?.[shipment.destination_region];
  if (zone === undefined) return null;
  const rates = carrier.zones[String(zone)];
  if (!rates) return null;
  if (shipment.weight_kg > carrier.max_weight_kg) return null;
  if (shipment.is_hazmat && !carrier.hazmat_certified) return null;
  const billable = Math.ceil(shipment.weight_kg - 1e-9);
  let linehaul = rates.base + rates.per_kg * billable;
  if (shipment.service_level === "expedited") {
    if (carrier.expedited_multiplier === null) return null;
    linehaul *= carrier.expedited_multiplier;
  }
  linehaul = Math.max(linehaul, carrier.minimum_charge);
  return roundCents(linehaul * (1 + carrier.fuel_surcharge_pct / 100));
}

/** The carrier the card prices lowest for a shipment (lower carrier_id on a tie), skipping `excluded` ones. */
export function cheapestCarrier(
  card: RateCard,
  shipment: ShipmentForQuote,
  excluded: (carrierId: string) => boolean,
): { carrierId: string; cost: number } | null {
  let best: { carrierId: string; cost: number } | null = null;
  for (const carrier of [...card.carriers].sort((left, right) =>
    left.carrier_id.localeCompare(right.carrier_id),
  )) {
    if (excluded(carrier.carrier_id)) continue;
    const cost = quoteFreight(card, carrier, shipment);
    if (cost !== null && (best === null || cost < best.cost)) best = { carrierId: carrier.carrier_id, cost };
  }
  return best;
}

// ---------------------------------------------------------------- inventory control SOP

export interface InventorySop {
  expiryWindowDays: Record<string, number>;
  countToleranceUnits: Record<string, number>;
  varianceValueThreshold: number;
}

export function renderInventorySop(sop: InventorySop, revisedOn: string): string {
  const windowRows = Object.entries(sop.expiryWindowDays).map(([category, days]) => [category, days]);
  const toleranceRows = Object.entries(sop.countToleranceUnits).map(([category, units]) => [category, units]);
  return `# Inventory Control SOP

Document IC-004 · Owner: Quality & Inventory Control · Revision ${revisedOn}

## 1. Scope

Applies to every distribution center. Defines how stock is held, counted and reviewed for expiry. The
inventory system (WMS) is the system of record for lot quantities, statuses and expiry dates; product
master data (category, unit cost, case pack) comes from the product catalog.

## 2. Lot control

- Every receipt creates a lot with its own bin location, received date and, for perishables, expiry date.
- Stock that is damaged, under investigation or awaiting a supplier decision is moved to \`quarantine\`
  status. Quarantined stock cannot be picked.
- Damaged goods are documented in the weekly damaged-goods reports (quality folder). Each line carries a
  disposition: **Write-off** (destroyed), **Return to vendor** (claim raised with the supplier) or
  **Released to stock** (inspected, found sellable, back in normal stock).

## 3. Expiry-risk review

The review date is announced by Quality (see the operations bulletin). For that date:

- A lot is **at risk** when it is in \`available\` status and its expiry date falls between the review date
  and the review date plus its category's window, **both days included**.
- Lots whose expiry date is before the review date are already expired: they are handled by the write-off
  process and are **not** part of the at-risk figure.
- Quarantined lots are excluded, and so is any lot listed in a damaged-goods report with disposition
  Write-off or Return to vendor (its value is booked through the damage claim). Lots released to stock
  are included like any other lot.
- The value of a lot is its quantity × the product's unit cost. Report values per warehouse in dollars,
  rounded to the cent.

Expiry windows by category (categories not listed do not expire):

### Expiry windows

${markdownTable(["Category", "Window (days)"], windowRows)}

## 4. Cycle counting

- Counters count blind: the count sheet shows the bin, lot and SKU but not the system quantity. Counts are
  taken during the nightly freeze, so the counted quantity is compared directly with the lot's current
  quantity in the inventory system.
- Count results are exported daily to the cycle-counts folder. A line with status \`VOID\` was cancelled
  by the shift lead (wrong bin, interrupted count) and is ignored.
- When a lot has been counted more than once, **only its most recent count stands** (latest count date,
  then latest count time); earlier counts of that lot are superseded.
- The variance of a lot is counted quantity − system quantity. A variance is **reportable** when its
  absolute size is **greater than** the category's tolerance (units), or when its absolute value at unit
  cost is **$${sop.varianceValueThreshold.toFixed(2)} or more**, whatever the category.

### Count tolerances

${markdownTable(["Category", "Tolerance (units)"], toleranceRows)}

## 5. Adjustments

Inventory adjustments are posted by the site inventory controller after the weekly variance review, never
directly by counters.
`;
}

export function parseInventorySop(markdown: string): InventorySop {
  const expiryWindowDays: Record<string, number> = {};
  for (const [category, days] of parseMarkdownTable(markdown, "Expiry windows"))
    expiryWindowDays[category ?? ""] = Number(days);
  const countToleranceUnits: Record<string, number> = {};
  for (const [category, units] of parseMarkdownTable(markdown, "Count tolerances"))
    countToleranceUnits[category ?? ""] = Number(units);
  const threshold = markdown.match(/cost is \*\*\$(\d+(?:\.\d+)?) or more\*\*/);
  if (!threshold) throw new Error("inventory control SOP has no variance value threshold");
  return { expiryWindowDays, countToleranceUnits, varianceValueThreshold: Number(threshold[1]) };
}

// ---------------------------------------------------------------- cycle count exports

export interface CountLine {
  countDate: string;
  countTime: string;
  warehouseId: string;
  binLocation: string;
  lotId: string;
  sku: string;
  countedQuantity: number;
  counter: string;
  status: "COUNTED" | "VOID";
}

const COUNT_COLUMNS =
  "count_date, count_time, warehouse_id, bin_location, lot_id, sku, counted_quantity, counter, status";

export const renderCountSheet = (lines: CountLine[]): string => draftsToCsv(COUNT_COLUMNS, lines);

export function parseCountSheet(csv: string): CountLine[] {
  return parseCsv(csv).map((row) => ({
    countDate: row.count_date ?? "",
    countTime: row.count_time ?? "",
    warehouseId: row.warehouse_id ?? "",
    binLocation: row.bin_location ?? "",
    lotId: row.lot_id ?? "",
    sku: row.sku ?? "",
    countedQuantity: Number(row.counted_quantity),
    counter: row.counter ?? "",
    status: row.status === "VOID" ? "VOID" : "COUNTED",
  }));
}

// ---------------------------------------------------------------- damaged-goods reports

export const DISPOSITIONS = ["Write-off", "Return to vendor", "Released to stock"] as const;
export type Disposition = (typeof DISPOSITIONS)[number];

export interface DamageEntry {
  lotId: string;
  sku: string;
  warehouseId: string;
  quantityAffected: number;
  cause: string;
  disposition: Disposition;
}

export function renderDamageReport(weekEnding: string, inspector: string, entries: DamageEntry[]): string {
  const rows = entries.map((entry) => [
    entry.lotId,
    entry.sku,
    entry.warehouseId,
    entry.quantityAffected,
    entry.cause,
    entry.disposition,
  ]);
  return `# Damaged-Goods Report — week ending ${weekEnding}

Prepared by ${inspector}, Quality Inspector

## Findings

${markdownTable(["Lot", "SKU", "Warehouse", "Units affected", "Cause", "Disposition"], rows)}

## Notes

Dispositions are final once this report is issued. Write-offs and returns to vendor are booked against
the damage claim for the whole lot; inventory records are updated by the site controller at month end.
`;
}

export function parseDamageReport(markdown: string): DamageEntry[] {
  return parseMarkdownTable(markdown, "Findings").map(
    ([lotId, sku, warehouseId, quantity, cause, disposition]) => ({
      lotId: lotId ?? "",
      sku: sku ?? "",
      warehouseId: warehouseId ?? "",
      quantityAffected: Number(quantity),
      cause: cause ?? "",
      disposition: (DISPOSITIONS as readonly string[]).includes(disposition ?? "")
        ? (disposition as Disposition)
        : "Write-off",
    }),
  );
}
