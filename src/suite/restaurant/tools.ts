import { z } from "zod";
import type { DomainTool, FilterConditions, ToolContext } from "../../envs/index.js";
import {
  REFERENCE_DATE,
  defineGetTool,
  defineListTool,
  defineStatusTool,
  getRow,
  insertRow,
  requireEntity,
  requireRow,
  roundCents,
  withSilentFailures,
  withTransientFailures,
  cachedStatement,
  readWorkbookTool,
  optionalText,
  optionalChoice,
  optionalDate,
} from "../../envs/index.js";
import { defineTool } from "../../runtime/index.js";
import { deliveryId, itemId, locationId, poId, recipeId, supplierId } from "./ids.js";

const dateFilters = (what: string) => ({
  date_from: optionalDate(`Only ${what} on or after this date, YYYY-MM-DD`),
  date_to: optionalDate(`Only ${what} on or before this date, YYYY-MM-DD`),
});

/** `list_<key>`, a paginated listing of the table `key`; `where` maps each filter to its SQL condition. */
function listing<Filters extends z.ZodRawShape>(
  text: string,
  key: string,
  orderBy: string,
  filters: Filters = {} as Filters,
  where: FilterConditions<Filters> = {},
  select?: string,
) {
  return defineListTool({
    name: `list_${key}`,
    description: `${text} Paginated: returns \`${key}\`, \`page\`, \`per_page\`, \`total\`, \`has_more\`.`,
    filters,
    key,
    from: key,
    where,
    orderBy,
    ...(select ? { select } : {}),
  });
}

const listLocations = listing(
  "List the group's restaurant locations, ordered by id, with city and manager.",
  "locations",
  "location_id",
);

const listSuppliers = listing(
  "List suppliers, ordered by id: name, category, ordering e-mail.",
  "suppliers",
  "supplier_id",
);

const listItems = listing(
  "List the purchasing catalogue, ordered by item id: category, supplier, `base_unit` (ea, kg or l), `pack_size` (base units per case), `case_price` (USD, catalogue list price) and `status` (active or discontinued).",
  "items",
  "item_id",
  {
    category: optionalText("Only items in this category, e.g. produce"),
    supplier_id: supplierId.schema("Only items from this supplier").optional(),
    status: optionalChoice(["active", "discontinued"], "Only items in this status"),
  },
  { category: "category = lower(?)", supplier_id: "=", status: "=" },
);

const getItem = defineGetTool({
  name: "get_item",
  description: "Get one catalogue item. Returns `item`.",
  input: { item_id: itemId.schema("The item") },
  key: "item",
  from: "items",
  notFound: itemId,
});

const listParLevels = listing(
  "List par levels (base units) by location and item, ordered by location then item.",
  "par_levels",
  "location_id, item_id",
  {
    location_id: locationId.schema("Only this location's pars").optional(),
    item_id: itemId.schema("Only this item's pars").optional(),
  },
  { location_id: "=", item_id: "=" },
);

const setParLevel = defineTool({
  name: "set_par_level",
  description:
    "Change the par level (base units) of an item at a location that already has one. Returns the updated `par_level`.",
  kind: "write",
  inputSchema: z.object({
    location_id: locationId.schema("The location"),
    item_id: itemId.schema("The item"),
    par: z.number().min(0).max(100000).describe("The new par in the item's base units"),
  }),
  handler: ({ location_id, item_id, par }, { db }: ToolContext) => {
    const ids = [location_id, item_id];
    const where = "FROM par_levels WHERE location_id = ? AND item_id = ?";
    const missing = `${item_id} has no par at ${location_id}; only existing pars are reviewed`;
    requireRow(db, `SELECT 1 ${where}`, ids, missing);
    cachedStatement(db, "UPDATE par_levels SET par = ? WHERE location_id = ? AND item_id = ?").run(
      par,
      ...ids,
    );
    return { par_level: getRow(db, `SELECT * ${where}`, ...ids) };
  },
});

const listPurchaseOrders = listing(
  "List purchase orders, ordered by id: one item per order, `cases` ordered at `case_price`, `status` open (not delivered yet), delivered or cancelled, `ordered_on`.",
  "purchase_orders",
  "po_id",
  {
    status: optionalChoice(["open", "delivered", "cancelled"], "Only orders in this status"),
    location_id: locationId.schema("Only this location's orders").optional(),
    supplier_id: supplierId.schema("Only orders with this supplier").optional(),
    item_id: itemId.schema("Only orders of this item").optional(),
  },
  { status: "=", location_id: "=", supplier_id: "=", item_id: "=" },
);

const getPurchaseOrder = defineGetTool({
  name: "get_purchase_order",
  description:
    "Get one purchase order with the deliveries made against it. Returns `purchase_order`, `deliveries`.",
  input: { po_id: poId.schema("The purchase order") },
  key: "purchase_order",
  from: "purchase_orders",
  notFound: poId,
  related: { deliveries: "SELECT * FROM deliveries WHERE po_id = ? ORDER BY delivery_id" },
});

const placeOrder = defineTool({
  name: "place_order",
  description:
    "Place a purchase order for whole cases of one item for one location with the item's catalogue supplier, dated today, at the catalogue case price. Returns the new `purchase_order`.",
  kind: "write",
  inputSchema: z.object({
    location_id: locationId.schema("The location that receives the goods"),
    item_id: itemId.schema("The item"),
    cases: z.number().int().min(1).max(200).describe("Whole cases (not base units)"),
  }),
  handler: ({ location_id, item_id, cases }, { db }: ToolContext) => {
    requireEntity(db, "locations", locationId, location_id, "1");
    type Listed = { supplier_id: string; case_price: number };
    const item = requireEntity<Listed>(db, "items", itemId, item_id, "supplier_id, case_price");
    const row = insertRow(db, "purchase_orders", {
      po_id: poId.next(db, "purchase_orders"),
      location_id,
      supplier_id: item.supplier_id,
      item_id,
      cases,
      case_price: item.case_price,
      status: "open",
      ordered_on: REFERENCE_DATE,
    });
    return { purchase_order: row };
  },
});

const cancelOrder = defineStatusTool({
  name: "cancel_order",
  description: "Cancel an open purchase order. Returns the updated `purchase_order`.",
  id: poId,
  idDescription: "The open purchase order",
  table: "purchase_orders",
  from: ["open"],
  refusal: (id, status) => `purchase order ${id} is ${status}; only open orders can be cancelled`,
  set: () => ({ status: "cancelled" }),
  key: "purchase_order",
});

const listDeliveries = listing(
  "List deliveries, ordered by id: the purchase order, the `item_id` actually delivered (a substitute when it differs from the order's), `cases` received, the invoiced `case_price` and the driver's `note`.",
  "deliveries",
  "delivery_id",
  {
    location_id: locationId.schema("Only deliveries to this location").optional(),
    supplier_id: supplierId.schema("Only deliveries from this supplier").optional(),
    ...dateFilters("deliveries"),
  },
  { location_id: "=", supplier_id: "=", date_from: "delivered_on >= ?", date_to: "delivered_on <= ?" },
);

const listRecipes = listing(
  "List menu recipes, ordered by id: category, `menu_price` (USD per portion), `yield_portions` per batch.",
  "recipes",
  "recipe_id",
  { category: optionalChoice(["starter", "main", "dessert"], "Only this menu category") },
  { category: "=" },
);

const getRecipe = defineGetTool({
  name: "get_recipe",
  description:
    "Get one recipe with its ingredient lines: `quantity` in the item's base unit for one batch (which yields `yield_portions` portions). Returns `recipe`, `lines`.",
  input: { recipe_id: recipeId.schema("The recipe") },
  key: "recipe",
  from: "recipes",
  notFound: recipeId,
  related: {
    lines: "SELECT line_no, item_id, quantity FROM recipe_lines WHERE recipe_id = ? ORDER BY line_no",
  },
});

const listSales = listing(
  "List daily sales, ordered by location, day and recipe: portions sold of a recipe at a location on a day.",
  "sales",
  "location_id, sold_on, recipe_id",
  {
    location_id: locationId.schema("Only this location's sales").optional(),
    recipe_id: recipeId.schema("Only this recipe's sales").optional(),
    ...dateFilters("sales"),
  },
  { location_id: "=", recipe_id: "=", date_from: "sold_on >= ?", date_to: "sold_on <= ?" },
  "location_id, sold_on, recipe_id, portions",
);

const listWasteLogs = listing(
  "List waste log entries, ordered by id: item, `quantity` in base units, `reason`, `logged_on`.",
  "waste_logs",
  "waste_id",
  { location_id: locationId.schema("Only this location's log").optional(), ...dateFilters("entries") },
  { location_id: "=", date_from: "logged_on >= ?", date_to: "logged_on <= ?" },
);

const listCreditRequests = listing(
  "List the credit requests already sent to suppliers, ordered by id.",
  "credit_requests",
  "credit_id",
  { delivery_id: deliveryId.schema("Only credits for this delivery").optional() },
  { delivery_id: "=" },
);

const requestCredit = defineTool({
  name: "request_credit",
  description:
    "Ask the supplier for a credit against one delivery, dated today. Returns the new `credit_request`.",
  kind: "write",
  inputSchema: z.object({
    delivery_id: deliveryId.schema("The delivery"),
    amount: z.number().positive().describe("Credit in USD"),
    reason: z.string().min(1).max(200).default("short delivery").describe("Why"),
  }),
  handler: ({ delivery_id, amount, reason }, { db }: ToolContext) => {
    requireEntity(db, "deliveries", deliveryId, delivery_id, "1");
    const row = insertRow(db, "credit_requests", {
      delivery_id,
      amount: roundCents(amount),
      reason,
      requested_on: REFERENCE_DATE,
    });
    return { credit_request: row };
  },
});

/** The tools as the tasks see them: some listings flake (503s, or an error body in an ordinary result). */
export const restaurantTools: DomainTool[] = [
  listLocations,
  listSuppliers,
  listItems,
  getItem,
  withTransientFailures(listParLevels, {
    when: (input) => input.location_id === "LOC-02" && input.page === 2,
  }),
  setParLevel,
  withTransientFailures(listPurchaseOrders, { when: (input) => input.status === "open" && input.page === 1 }),
  withSilentFailures(getPurchaseOrder, { when: (input) => input.po_id.endsWith("7") }),
  placeOrder,
  cancelOrder,
  withTransientFailures(listDeliveries, {
    when: (input) => input.page === 1 && input.supplier_id === "SUP-02",
  }),
  listRecipes,
  withSilentFailures(getRecipe, { when: (input) => input.recipe_id === "RCP-003" }),
  withTransientFailures(listSales, { when: (input) => input.location_id === "LOC-01" && input.page === 2 }),
  withSilentFailures(listWasteLogs, { when: (input) => input.location_id === "LOC-02" && input.page === 1 }),
  listCreditRequests,
  requestCredit,
  readWorkbookTool,
];
