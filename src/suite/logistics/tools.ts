import type Database from "better-sqlite3";
import { z } from "zod";
import { ToolFailure, defineTool } from "../../runtime/index.js";
import {
  allRows,
  cachedStatement,
  defineGetTool,
  defineListTool,
  getRow,
  isoDateSchema,
  listPage,
  pagingFields,
  requireRow,
  when,
  withBooleans,
  withSilentFailures,
  withTransientFailures,
  type DomainTool,
  type Row,
  type ToolContext,
  optionalChoice,
} from "../../envs/index.js";

const asBoolean =
  (column: string) =>
  (row: Row): Row =>
    withBooleans(row, column);

const requireWarehouse = (db: Database.Database, warehouseId: string): Row =>
  requireRow(
    db,
    "SELECT 1 FROM warehouses WHERE id = ?",
    [warehouseId],
    `warehouse '${warehouseId}' not found; use list_warehouses to see the warehouse ids`,
  );

const listWarehouses = defineListTool({
  name: "list_warehouses",
  description:
    "List the distribution centers (id, name, city, state, region, manager, capacity). Paginated: returns `warehouses`, `page`, `per_page`, `total`, `has_more`.",
  key: "warehouses",
  from: "warehouses",
  orderBy: "id",
});

const listSuppliers = defineListTool({
  name: "list_suppliers",
  description:
    "List suppliers with their contact, payment terms, lead time and rating. Paginated: returns `suppliers`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    country: z.string().optional().describe("Only suppliers based in this ISO country code, e.g. 'US'"),
  },
  key: "suppliers",
  from: "suppliers",
  where: ({ country }) => [when(country?.toUpperCase(), "country = ?")],
  orderBy: "id",
  map: asBoolean("active"),
});

const listCarriers = defineListTool({
  name: "list_carriers",
  description:
    "List the carrier master: id, name, SCAC code, mode (parcel or ltl), contacts and whether the carrier is active. Paginated: returns `carriers`, `page`, `per_page`, `total`, `has_more`.",
  filters: { active_only: z.boolean().default(false).describe("Only carriers that are currently active") },
  key: "carriers",
  from: "carriers",
  where: ({ active_only }) => [active_only && "active = 1"],
  orderBy: "id",
  map: asBoolean("active"),
});

const listProducts = defineListTool({
  name: "list_products",
  description:
    "List products from the catalog (sku, name, category, unit of measure, case_pack, unit_cost, unit_price, weight, shelf life, status). Paginated: returns `products`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    category: z.string().optional().describe("Only products of this category, e.g. 'Dairy'"),
    status: optionalChoice(["active", "discontinued"], "Only products with this status"),
    search: z.string().optional().describe("Case-insensitive substring of the product name"),
  },
  key: "products",
  from: "products",
  where: ({ category, status, search }) => [
    when(category, "category = ? COLLATE NOCASE"),
    when(status, "status = ?"),
    when(
      search === undefined ? undefined : `%${search.replace(/[\\%_]/g, (character) => `\\${character}`)}%`,
      "name LIKE ? ESCAPE '\\'",
    ),
  ],
  orderBy: "sku",
});

const getProduct = defineGetTool({
  name: "get_product",
  description: "Get one product by SKU. Returns `product`.",
  input: { sku: z.string().min(1).describe("The product SKU, e.g. 'SKU-10234'") },
  key: "product",
  from: "products",
  normalizeId: (sku) => sku.trim().toUpperCase(),
  notFound: (sku) => `product '${sku}' not found; use list_products to search the catalog`,
});

const listStockLevels = defineTool({
  name: "list_stock_levels",
  description:
    "Stock of every SKU held at one warehouse, summed over its lots: `available_quantity` (lots in available status), `quarantined_quantity`, `lot_count`. Paginated: returns `stock_levels`, `page`, `per_page`, `total`, `has_more`.",
  kind: "read",
  inputSchema: z.object({
    warehouse_id: z.string().min(1).describe("Warehouse id, e.g. 'WH-DAL'"),
    category: z.string().optional().describe("Only SKUs of this product category"),
    ...pagingFields,
  }),
  handler: ({ warehouse_id, category, page, per_page }, { db }: ToolContext) => {
    requireWarehouse(db, warehouse_id);
    const inCategory = category === undefined ? "" : "AND products.category = ? COLLATE NOCASE";
    const grouped = `(SELECT lots.warehouse_id, lots.sku, products.name AS product_name, products.category,
        SUM(CASE WHEN lots.status = 'available' THEN lots.quantity ELSE 0 END) AS available_quantity,
        SUM(CASE WHEN lots.status = 'quarantine' THEN lots.quantity ELSE 0 END) AS quarantined_quantity,
        COUNT(*) AS lot_count
      FROM inventory_lots AS lots JOIN products ON products.sku = lots.sku
      WHERE lots.warehouse_id = ? ${inCategory}
      GROUP BY lots.warehouse_id, lots.sku)`;
    const fromParams = category === undefined ? [warehouse_id] : [warehouse_id, category];
    return listPage(db, {
      key: "stock_levels",
      from: grouped,
      fromParams,
      orderBy: "sku",
      page,
      perPage: per_page,
    });
  },
});

const listInventoryLotsBase = defineListTool({
  name: "list_inventory_lots",
  description:
    "List inventory lots (lot_id, sku, warehouse_id, bin_location, quantity, received_on, expires_on, status), filtered. Lots without an expiry date never match an expiry filter. Paginated: returns `lots`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    warehouse_id: z.string().optional().describe("Only lots at this warehouse"),
    sku: z.string().optional().describe("Only lots of this SKU"),
    status: optionalChoice(["available", "quarantine"], "Only lots with this status"),
    expires_on_or_after: isoDateSchema
      .optional()
      .describe("Only lots expiring on or after this date (YYYY-MM-DD)"),
    expires_on_or_before: isoDateSchema
      .optional()
      .describe("Only lots expiring on or before this date (YYYY-MM-DD)"),
  },
  key: "lots",
  from: "inventory_lots",
  where: (input) => [
    when(input.warehouse_id, "warehouse_id = ?"),
    when(input.sku?.trim().toUpperCase(), "sku = ?"),
    when(input.status, "status = ?"),
    when(input.expires_on_or_after, "expires_on >= ?"),
    when(input.expires_on_or_before, "expires_on <= ?"),
  ],
  orderBy: "lot_id",
});

/**
 * The network-wide lot listing (no filter at all) is a heavy query: its third page times out once with a
 * 503 and succeeds when repeated. Filtered listings never fail.
 */
const listInventoryLots = withTransientFailures(listInventoryLotsBase, {
  when: ({ page, per_page: _perPage, ...filters }) =>
    page === 3 && Object.values(filters).every((value) => value === undefined),
});

const getInventoryLot = defineGetTool({
  name: "get_inventory_lot",
  description: "Get one inventory lot by id. Returns `lot`.",
  input: { lot_id: z.string().min(1).describe("The lot id, e.g. 'LOT-204518'") },
  key: "lot",
  from: "inventory_lots",
  normalizeId: (lotId) => lotId.trim().toUpperCase(),
  notFound: (lotId) => `lot '${lotId}' not found; use list_inventory_lots to find lots`,
});

const ORDER_SUMMARY = `purchase_orders.*,
  (SELECT COUNT(*) FROM purchase_order_lines WHERE purchase_order_id = purchase_orders.id) AS line_count,
  (SELECT ROUND(COALESCE(SUM(quantity * unit_cost), 0), 2) FROM purchase_order_lines WHERE purchase_order_id = purchase_orders.id) AS total_cost`;

const listPurchaseOrders = defineListTool({
  name: "list_purchase_orders",
  description:
    "List purchase order headers (id, supplier_id, warehouse_id, status, dates, line_count, total_cost) without their lines; use get_purchase_order for the lines. Paginated: returns `purchase_orders`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    status: z
      .enum(["draft", "submitted", "received", "cancelled"])
      .optional()
      .describe("Only orders with this status"),
    warehouse_id: z.string().optional().describe("Only orders delivering to this warehouse"),
    supplier_id: z.string().optional().describe("Only orders placed with this supplier"),
  },
  key: "purchase_orders",
  from: "purchase_orders",
  select: ORDER_SUMMARY,
  where: { status: "=", warehouse_id: "=", supplier_id: "=" },
  orderBy: "id",
});

function readPurchaseOrder(db: Database.Database, purchaseOrderId: string): Record<string, unknown> {
  const order = requireRow(
    db,
    `SELECT ${ORDER_SUMMARY} FROM purchase_orders WHERE id = ?`,
    [purchaseOrderId],
    `purchase order '${purchaseOrderId}' not found; use list_purchase_orders to find orders`,
  );
  const lines = allRows(
    db,
    "SELECT id AS line_id, sku, quantity, unit_cost FROM purchase_order_lines WHERE purchase_order_id = ? ORDER BY id",
    purchaseOrderId,
  );
  return { ...order, lines };
}

const getPurchaseOrderBase = defineTool({
  name: "get_purchase_order",
  description: "Get one purchase order with its lines (sku, quantity, unit_cost). Returns `purchase_order`.",
  kind: "read",
  inputSchema: z.object({
    purchase_order_id: z.string().min(1).describe("The purchase order id, e.g. 'PO-24117'"),
  }),
  handler: ({ purchase_order_id }, { db }: ToolContext) => ({
    purchase_order: readPurchaseOrder(db, purchase_order_id.trim().toUpperCase()),
  }),
});

/**
 * Received orders live in the purchasing archive: the first request for some of them answers with an error
 * body (no MCP error) while the archive restores the record, and asking again succeeds. Open orders are
 * served from the live system and never fail.
 */
const getArchivedPurchaseOrder = withSilentFailures(getPurchaseOrderBase, {
  body: (input) => ({
    status: "error",
    error: `purchase order ${input.purchase_order_id.trim().toUpperCase()} is being restored from the archive; retry the request`,
  }),
});

const getPurchaseOrder: typeof getPurchaseOrderBase = {
  ...getPurchaseOrderBase,
  handler: (input, context) => {
    const id = input.purchase_order_id.trim().toUpperCase();
    const archived =
      getRow(context.db, "SELECT 1 FROM purchase_orders WHERE id = ? AND status = 'received'", id) !==
        undefined && Number(id.slice(3)) % 2 === 0;
    return archived
      ? getArchivedPurchaseOrder.handler(input, context)
      : getPurchaseOrderBase.handler(input, context);
  },
};

const createPurchaseOrder = defineTool({
  name: "create_purchase_order",
  description:
    "Raise a new purchase order in `draft` status for one supplier and one receiving warehouse. Each line's unit_cost is taken from the product catalog. Returns the created `purchase_order` with its lines.",
  kind: "write",
  inputSchema: z.object({
    supplier_id: z.string().min(1).describe("Supplier id, e.g. 'SUP-103'"),
    warehouse_id: z.string().min(1).describe("Receiving warehouse id, e.g. 'WH-CMH'"),
    lines: z
      .array(
        z.object({
          sku: z.string().min(1).describe("Product SKU"),
          quantity: z.number().int().min(1).describe("Units to order"),
        }),
      )
      .min(1)
      .describe("Order lines, one per SKU"),
    notes: z.string().default("").describe("Optional note for Purchasing"),
  }),
  handler: ({ supplier_id, warehouse_id, lines, notes }, { db }: ToolContext) => {
    const supplier = requireRow<{ id: string; active: number }>(
      db,
      "SELECT id, active FROM suppliers WHERE id = ?",
      [supplier_id],
      `supplier '${supplier_id}' not found; use list_suppliers to see supplier ids`,
    );
    if (supplier.active !== 1) throw new ToolFailure(`supplier '${supplier_id}' is inactive`);
    requireWarehouse(db, warehouse_id);
    const seen = new Set<string>();
    const priced = lines.map((line) => {
      const sku = line.sku.trim().toUpperCase();
      if (seen.has(sku))
        throw new ToolFailure(`SKU '${sku}' appears twice; put its whole quantity on one line`);
      seen.add(sku);
      const product = requireRow<{ unit_cost: number; status: string }>(
        db,
        "SELECT unit_cost, status FROM products WHERE sku = ?",
        [sku],
        `product '${sku}' not found`,
      );
      if (product.status !== "active")
        throw new ToolFailure(`product '${sku}' is discontinued and cannot be ordered`);
      return { sku, quantity: line.quantity, unitCost: product.unit_cost };
    });
    const last = getRow<{ number: number | null }>(
      db,
      "SELECT MAX(CAST(SUBSTR(id, 4) AS INTEGER)) AS number FROM purchase_orders",
    )!;
    const id = `PO-${(last.number ?? 24_000) + 1}`;
    const insert = db.transaction(() => {
      cachedStatement(
        db,
        "INSERT INTO purchase_orders (id, supplier_id, warehouse_id, status, ordered_on, expected_on, created_by, notes) VALUES (?, ?, ?, 'draft', NULL, NULL, 'api', ?)",
      ).run(id, supplier_id, warehouse_id, notes === "" ? null : notes);
      const insertLine = cachedStatement(
        db,
        "INSERT INTO purchase_order_lines (purchase_order_id, sku, quantity, unit_cost) VALUES (?, ?, ?, ?)",
      );
      for (const line of priced) insertLine.run(id, line.sku, line.quantity, line.unitCost);
    });
    insert();
    return { purchase_order: readPurchaseOrder(db, id) };
  },
});

const cancelPurchaseOrder = defineTool({
  name: "cancel_purchase_order",
  description:
    "Cancel an open purchase order (status draft or submitted). Received or already cancelled orders cannot be cancelled. Returns the updated `purchase_order`.",
  kind: "write",
  inputSchema: z.object({
    purchase_order_id: z.string().min(1).describe("The purchase order id"),
    reason: z.string().min(1).describe("Why the order is cancelled (kept in the order notes)"),
  }),
  handler: ({ purchase_order_id, reason }, { db }: ToolContext) => {
    const id = purchase_order_id.trim().toUpperCase();
    const order = requireRow<{ status: string; notes: string | null }>(
      db,
      "SELECT status, notes FROM purchase_orders WHERE id = ?",
      [id],
      `purchase order '${purchase_order_id}' not found`,
    );
    if (order.status !== "draft" && order.status !== "submitted")
      throw new ToolFailure(
        `purchase order '${id}' is ${order.status}; only draft or submitted orders can be cancelled`,
      );
    const notes = order.notes ? `${order.notes}; cancelled: ${reason}` : `cancelled: ${reason}`;
    cachedStatement(db, "UPDATE purchase_orders SET status = 'cancelled', notes = ? WHERE id = ?").run(
      notes,
      id,
    );
    return { purchase_order: readPurchaseOrder(db, id) };
  },
});

const listShipments = defineListTool({
  name: "list_shipments",
  description:
    "List outbound shipments (origin warehouse, customer, destination city/state/region, weight_kg, is_hazmat, service_level, status, carrier_id, freight_cost, dates). Paginated: returns `shipments`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    status: z
      .enum(["pending", "assigned", "in_transit", "delivered", "cancelled"])
      .optional()
      .describe("Only shipments with this status"),
    origin_warehouse_id: z.string().optional().describe("Only shipments leaving this warehouse"),
  },
  key: "shipments",
  from: "shipments",
  where: { status: "=", origin_warehouse_id: "=" },
  orderBy: "id",
  map: asBoolean("is_hazmat"),
});

const assignCarrier = defineTool({
  name: "assign_carrier",
  description:
    "Tender a pending shipment to a carrier at the quoted freight cost; the shipment becomes `assigned`. Returns the updated `shipment`.",
  kind: "write",
  inputSchema: z.object({
    shipment_id: z.string().min(1).describe("The shipment id, e.g. 'SHP-504211'"),
    carrier_id: z.string().min(1).describe("The carrier id, e.g. 'CR-03'"),
    freight_cost: z.number().min(0).describe("The quoted freight cost in USD"),
  }),
  handler: ({ shipment_id, carrier_id, freight_cost }, { db }: ToolContext) => {
    const id = shipment_id.trim().toUpperCase();
    const shipment = requireRow<{ status: string }>(
      db,
      "SELECT status FROM shipments WHERE id = ?",
      [id],
      `shipment '${shipment_id}' not found; use list_shipments to find shipments`,
    );
    if (shipment.status !== "pending")
      throw new ToolFailure(`shipment '${id}' is ${shipment.status}; only pending shipments can be assigned`);
    const carrier = requireRow<{ active: number }>(
      db,
      "SELECT active FROM carriers WHERE id = ?",
      [carrier_id.trim().toUpperCase()],
      `carrier '${carrier_id}' not found; use list_carriers to see carrier ids`,
    );
    if (carrier.active !== 1)
      throw new ToolFailure(`carrier '${carrier_id}' is inactive and cannot be tendered freight`);
    cachedStatement(
      db,
      "UPDATE shipments SET carrier_id = ?, freight_cost = ?, status = 'assigned' WHERE id = ?",
    ).run(carrier_id.trim().toUpperCase(), Math.round(freight_cost * 100) / 100, id);
    return {
      shipment: withBooleans(getRow(db, "SELECT * FROM shipments WHERE id = ?", id)!, "is_hazmat"),
    };
  },
});

const setLotStatus = defineTool({
  name: "set_lot_status",
  description:
    "Put an inventory lot on hold (`quarantine`) or release it back to `available` stock. Returns the updated `lot` and the `reason` given.",
  kind: "write",
  inputSchema: z.object({
    lot_id: z.string().min(1).describe("The lot id, e.g. 'LOT-204518'"),
    status: z.enum(["available", "quarantine"]).describe("The new status of the lot"),
    reason: z.string().min(1).describe("Why the status changes, e.g. 'water damage reported at bin C-12-3'"),
  }),
  handler: ({ lot_id, status, reason }, { db }: ToolContext) => {
    const id = lot_id.trim().toUpperCase();
    const lot = requireRow<{ status: string }>(
      db,
      "SELECT status FROM inventory_lots WHERE lot_id = ?",
      [id],
      `lot '${lot_id}' not found; use list_inventory_lots to find lots`,
    );
    if (lot.status === status) throw new ToolFailure(`lot '${id}' is already ${status}`);
    cachedStatement(db, "UPDATE inventory_lots SET status = ? WHERE lot_id = ?").run(status, id);
    return { lot: getRow(db, "SELECT * FROM inventory_lots WHERE lot_id = ?", id), reason };
  },
});

/** Every tool of the logistics domain; tasks expose subsets of them. */
export const logisticsTools: DomainTool[] = [
  listWarehouses,
  listSuppliers,
  listCarriers,
  listProducts,
  getProduct,
  listStockLevels,
  listInventoryLots,
  getInventoryLot,
  listPurchaseOrders,
  getPurchaseOrder,
  createPurchaseOrder,
  cancelPurchaseOrder,
  listShipments,
  assignCarrier,
  setLotStatus,
] as DomainTool[];
