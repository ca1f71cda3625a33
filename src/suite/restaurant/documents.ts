import type { GenerateContext, MarkdownBlock, XlsxSheet, XlsxValue } from "../../envs/index.js";
import { addDays, longDate, renderMarkdown, slug, writeXlsx } from "../../envs/index.js";
import { AREAS, PRODUCTS } from "./catalog.js";
import type { CountEntry, Location, Random, RestaurantWorld } from "./world.js";
import { COUNT_WEEKS } from "./world.js";

const GROUP = "Copper Kettle Restaurant Group";
const HEADERS = ["Item code", "Description", "Unit", "Count", "Comments"];
const CATEGORY_ORDER = [...new Set(PRODUCTS.map((p) => p.category))];

/** The weekly count workbooks, the policies and one price agreement per supplier. */
export function writeRestaurantDocuments(context: GenerateContext, world: RestaurantWorld): void {
  for (const location of world.locations)
    for (const week of COUNT_WEEKS) {
      const entries = world.counts.get(location.id)!.get(week.label)!;
      context.writeFile(
        `counts/${slug(location.name)}/${week.label}.xlsx`,
        writeXlsx(countWorkbook(context.random, location, week.day, entries)),
      );
    }
  for (const agreement of world.agreements.values()) {
    const items = world.items.filter((item) => agreement.prices.has(item.id));
    context.writeFile(
      `agreements/${slug(agreement.supplierName)}.md`,
      renderMarkdown(`Price agreement: ${agreement.supplierName}`, [
        `Between ${GROUP} and ${agreement.supplierName} (supplier id ${agreement.supplier}), effective ${longDate(agreement.effective)} until further notice.`,
        `Price tolerance: invoiced case prices may exceed the agreed case price by at most ${agreement.tolerance}%. Anything above that is a breach of this agreement and is credited back.`,
        "Substitutions: when an ordered product is out of stock we may ship a comparable product; a substitute is billed at no more than the agreed price of the product that was ordered (within the tolerance above).",
        { heading: "Agreed prices" },
        {
          table: {
            headers: ["item_id", "description", "agreed case price (USD)"],
            rows: items.map((item) => [item.id, item.name, agreement.prices.get(item.id)!.toFixed(2)]),
          },
        },
        "Products not listed are billed at the catalogue price of the day.",
      ]),
    );
  }
  for (const [path, text] of policies(world)) context.writeFile(path, text);
}

function countWorkbook(random: Random, location: Location, day: string, entries: CountEntry[]): XlsxSheet[] {
  const sheets: XlsxSheet[] = [];
  for (const area of AREAS) {
    const here = entries.filter((entry) => entry.area === area);
    if (here.length === 0) continue;
    const rows: XlsxValue[][] = [
      [`${GROUP}: ${location.name} (${location.id})`],
      [`Weekly inventory count, ${area}, week ending ${day}`],
      [`Counted by ${location.manager} after close`],
      [],
      HEADERS,
    ];
    const merges = ["A1:E1", "A2:E2", "A3:E3"];
    for (const category of CATEGORY_ORDER) {
      const lines = here.filter((entry) => entry.item.product.category === category);
      if (lines.length === 0) continue;
      rows.push([category.toUpperCase()]);
      merges.push(`A${rows.length}:E${rows.length}`);
      for (const entry of lines) rows.push(countRow(random, entry));
      rows.push([]);
    }
    rows.push([
      "Notes: cs = full cases (partial cases in halves); other units are loose units; - = none on hand. Items kept in more than one area are counted on each area's sheet.",
    ]);
    merges.push(`A${rows.length}:E${rows.length}`);
    sheets.push({ name: area, rows, merges, widths: [12, 34, 6, 8, 18], boldRows: [1, 5] });
  }
  return sheets;
}

function countRow(random: Random, entry: CountEntry): XlsxValue[] {
  const unit = entry.unit === "cs" && random.chance(0.3) ? "CS" : entry.unit;
  const comment = random.chance(0.08)
    ? random.pick(["recount", "open case", "check date", "back shelf"])
    : null;
  return [entry.item.id, entry.item.name, unit, entry.value === 0 ? "-" : entry.value, comment];
}

function policies(world: RestaurantWorld): Array<[string, string]> {
  const { rules } = world;
  const standing = world.suppliers.filter((s) => rules.standingSuppliers.includes(s.id));
  const purchasing: MarkdownBlock[] = [
    `Applies to every ${GROUP} location from ${longDate(addDays(world.today, -90))}.`,
    { heading: "Weekly counts" },
    {
      bullets: [
        "Each location counts its stock after close every Sunday into a workbook in counts/<location>/<ISO week>.xlsx; the latest week's workbook is the stock on hand.",
        "Every storage area has its own sheet. An item kept in two areas is on both sheets: add them up.",
        "The unit column says how the count was taken: cs (or CS) means full cases of the catalogue pack size (partial cases in halves); ea, kg and l are loose base units. A dash means none on hand.",
      ],
    },
    { heading: "Ordering to par" },
    {
      bullets: [
        "Par levels (list_par_levels) are in base units. An item's stock position is the latest count plus what is still on order: the cases on its open purchase orders for that location times the pack size.",
        "When the stock position is below par, order the shortfall rounded up to whole cases: one purchase order per location and item (place_order; the item's catalogue supplier is used).",
        "Discontinued items are never reordered, whatever their count.",
      ],
    },
    { heading: "Par reviews" },
    `At a par review, every item that the recipes use gets a par of ${rules.parFactor} times its average weekly theoretical usage (the sales of the last three full weeks, Monday to Sunday, times the recipes' quantities per portion), rounded up to whole cases (a multiple of the pack size). Items no recipe uses keep their par, and only items that already have a par at a location are reviewed.`,
    { heading: "Stock valuation" },
    "Stock on hand is valued per base unit at the agreed case price of the item's own supplier (agreements/) divided by the pack size; an item its supplier's agreement does not list is valued at the catalogue case price instead.",
    { heading: "Cancelling stale orders" },
    "An open purchase order is stale when it was placed more than the supplier's window (in days) before today; one placed exactly that many days ago is not yet stale. Stale orders are cancelled with cancel_order.",
    { heading: "Order windows" },
    {
      table: {
        headers: ["supplier", "window (days)"],
        rows: [
          ...standing.map((s) => [`${s.name} (standing order)`, rules.standingDays]),
          ["Any other supplier", rules.staleDays],
        ],
      },
    },
  ];
  const receiving: MarkdownBlock[] = [
    { heading: "Short deliveries" },
    `When a delivery brings fewer cases than its purchase order, request a credit from the supplier with request_credit: the missing cases times the case price on the purchase order (not the invoiced price). Request credits only for deliveries received in the last ${rules.creditWindowDays} days (on or after ${addDays(world.today, -rules.creditWindowDays)}); older shortfalls are settled at month end.`,
    "A delivery gets at most one credit request: check list_credit_requests first and never ask twice.",
    { heading: "Invoice prices" },
    "Invoiced case prices are checked against the supplier's price agreement in agreements/. Substituted products are billed against the agreed price of the item that was ordered.",
  ];
  const waste: MarkdownBlock[] = [
    "Every location logs its waste as it happens (list_waste_logs). A week runs Monday to Sunday.",
    {
      bullets: [
        "Waste is valued at the catalogue case price divided by the pack size, times the quantity logged (base units).",
        "Staff meals are logged for tracking with the reason 'staff meal'; they are not waste and do not count toward the limit.",
      ],
    },
    { heading: "Weekly waste limits" },
    {
      table: {
        headers: ["location_id", "location", "weekly limit (USD)"],
        rows: world.locations.map((l) => [l.id, l.name, world.wasteLimits.get(l.id)!.toFixed(2)]),
      },
    },
  ];
  const menu: MarkdownBlock[] = [
    "Plate cost is the recipe's batch cost divided by its yield in portions; batch cost is the sum over its lines of the quantity (base units) times the catalogue case price divided by the pack size. Food cost % is plate cost divided by the menu price, times 100.",
    { heading: "Food cost targets" },
    {
      table: {
        headers: ["category", "target food cost %"],
        rows: Object.entries(rules.targets).map(([category, target]) => [category, target]),
      },
    },
    "A recipe above its category's target goes to the chef for a re-spec or a price review.",
  ];
  return [
    ["policies/purchasing.md", renderMarkdown("Purchasing and par policy", purchasing)],
    ["policies/receiving.md", renderMarkdown("Receiving and credits", receiving)],
    ["policies/waste.md", renderMarkdown("Waste tracking", waste)],
    ["policies/menu-costing.md", renderMarkdown("Menu costing", menu)],
  ];
}
