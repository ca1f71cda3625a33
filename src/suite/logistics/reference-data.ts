/**
 * Fixed reference data of the logistics domain: the distributor's network, its product families, its
 * supplier base and the carriers it tenders freight to. Quantities and prices are drawn per instance by
 * the generator; the names and the shape of the network stay the same so documents read naturally.
 */

export const REGIONS = ["West", "Midwest", "South", "Southeast", "Northeast"] as const;
export type Region = (typeof REGIONS)[number];

/** The items of a comma-separated list ("Milk, Butter" -> ["Milk", "Butter"]). */
const commaList = (text: string): string[] => text.split(", ");

/** (city, state) pairs written as "City, ST; City, ST". */
const places = (text: string): Array<[string, string]> =>
  text.split("; ").map((place) => commaList(place) as [string, string]);

/** Records from the rows of a table, each value under the field named at its position. */
function fromRows<Item>(fields: Array<keyof Item>, rows: unknown[][]): Item[] {
  return rows.map((row) => Object.fromEntries(fields.map((field, index) => [field, row[index]])) as Item);
}

interface WarehouseSeed {
  id: string;
  name: string;
  city: string;
  state: string;
  region: Region;
  capacityPallets: number;
  openedOn: string;
}

const WAREHOUSE_ROWS: Array<[string, string, string, string, Region, number, string]> = [
  ["WH-ABE", "Allentown Distribution Center", "Allentown", "PA", "Northeast", 18500, "2011-04-18"],
  ["WH-ATL", "Atlanta Cross-Dock", "Atlanta", "GA", "Southeast", 9800, "2017-09-05"],
  ["WH-CMH", "Columbus Distribution Center", "Columbus", "OH", "Midwest", 22000, "2008-02-11"],
  ["WH-DAL", "Dallas Distribution Center", "Dallas", "TX", "South", 20400, "2013-06-24"],
  ["WH-RNO", "Reno Fulfillment Center", "Reno", "NV", "West", 15200, "2019-03-04"],
];

export const WAREHOUSES = fromRows<WarehouseSeed>(
  ["id", "name", "city", "state", "region", "capacityPallets", "openedOn"],
  WAREHOUSE_ROWS,
);

/** Customer destinations by region, as (city, state). */
export const DESTINATIONS: Record<Region, Array<[string, string]>> = {
  West: places(
    "Sacramento, CA; Portland, OR; Boise, ID; Phoenix, AZ; Salt Lake City, UT; Fresno, CA; Spokane, WA",
  ),
  Midwest: places(
    "Indianapolis, IN; Milwaukee, WI; Des Moines, IA; Grand Rapids, MI; Omaha, NE; Peoria, IL; Toledo, OH",
  ),
  South: places(
    "Houston, TX; Oklahoma City, OK; Little Rock, AR; Shreveport, LA; San Antonio, TX; Tulsa, OK; Lubbock, TX",
  ),
  Southeast: places(
    "Charlotte, NC; Jacksonville, FL; Birmingham, AL; Nashville, TN; Columbia, SC; Orlando, FL; Savannah, GA",
  ),
  Northeast: places(
    "Hartford, CT; Albany, NY; Worcester, MA; Newark, NJ; Scranton, PA; Providence, RI; Syracuse, NY",
  ),
};

/** Freight zones between regions: 1 within a region, up to 5 coast to coast. */
export const ZONE_CHART: Record<Region, Record<Region, number>> = {
  West: { West: 1, Midwest: 4, South: 3, Southeast: 5, Northeast: 5 },
  Midwest: { West: 4, Midwest: 1, South: 3, Southeast: 2, Northeast: 2 },
  South: { West: 3, Midwest: 3, South: 1, Southeast: 2, Northeast: 4 },
  Southeast: { West: 5, Midwest: 2, South: 2, Southeast: 1, Northeast: 3 },
  Northeast: { West: 5, Midwest: 2, South: 4, Southeast: 3, Northeast: 1 },
};

interface CategorySeed {
  name: string;
  /** Shelf life range in days; null for products that do not expire. */
  shelfLifeDays: [number, number] | null;
  unitCost: [number, number];
  weightKg: [number, number];
  casePacks: number[];
  unitOfMeasure: string;
  /** Base reorder point and order-up-to level (units), jittered per instance. */
  reorderPoint: number;
  orderUpTo: number;
  /** Expiry-risk window (days) for perishables, jittered per instance. */
  expiryWindowDays: number | null;
  countToleranceUnits: number;
  items: string[];
  brands: string[];
  sizes: string[];
}

type CategoryRow = [
  name: string,
  shelfLifeDays: [number, number] | null,
  unitCost: [number, number],
  weightKg: [number, number],
  casePacks: number[],
  unitOfMeasure: string,
  reorderPoint: number,
  orderUpTo: number,
  expiryWindowDays: number | null,
  countToleranceUnits: number,
];

const CATEGORY_ROWS: CategoryRow[] = [
  ["Beverages", [180, 365], [0.6, 4.8], [0.4, 2.2], [12, 24], "bottle", 120, 360, 45, 4],
  ["Dairy", [14, 28], [0.9, 6.4], [0.2, 2.1], [6, 12], "each", 60, 180, 5, 2],
  ["Dry Goods", [270, 540], [0.8, 7.5], [0.3, 5], [6, 12, 24], "each", 90, 260, 60, 3],
  ["Fresh Produce", [7, 14], [0.5, 4.2], [0.2, 2.5], [6, 10, 12], "each", 80, 200, 3, 3],
  ["Frozen Foods", [120, 240], [1.5, 9.5], [0.3, 2.5], [6, 8, 12], "each", 40, 140, 30, 1],
  ["Household Cleaning", null, [1.2, 8.9], [0.4, 5.5], [6, 12], "each", 50, 150, null, 2],
  ["Paper Products", null, [1.5, 12], [0.5, 6], [4, 6, 8], "pack", 70, 220, null, 5],
  ["Personal Care", null, [1.8, 14.5], [0.1, 1.2], [6, 12, 24], "each", 45, 130, null, 1],
];

/** What a category's product names are made of: items, brands and sizes. */
const CATEGORY_NAMING: Record<string, [items: string, brands: string, sizes: string]> = {
  Beverages: [
    "Sparkling Water, Cold Brew Coffee, Orange Juice, Iced Tea, Ginger Ale, Sports Drink, Coconut Water, Lemonade, Kombucha, Spring Water",
    "Clearbrook, Summit Springs, Bluebird, Harvest Gold, Peakline",
    "330ml, 500ml, 1L, 1.5L, 2L",
  ],
  Dairy: [
    "Whole Milk, Greek Yogurt, Salted Butter, Cheddar Block, Cream Cheese, Sour Cream, Skim Milk, Mozzarella, Cottage Cheese, Heavy Cream",
    "Alpine Fields, Meadowlark, Blue Ridge, Golden Valley, Prairie Rose",
    "250g, 500g, 1L, 2L, 1kg",
  ],
  "Dry Goods": [
    "Basmati Rice, Penne Pasta, Rolled Oats, Black Beans, Peanut Butter, Tomato Sauce, Flour, Granola, Lentils, Chickpeas",
    "Homestead, Harvest Table, Old Mill, Sunrise Pantry, Copper Kettle",
    "400g, 500g, 1kg, 2kg, 5kg",
  ],
  "Fresh Produce": [
    "Baby Spinach, Roma Tomatoes, Gala Apples, Bananas, Avocados, Blueberries, Romaine Hearts, Carrots, Red Grapes, Strawberries",
    "Green Acre, Sunvalley, Orchard Lane, Coastal Fresh, Fieldstone",
    "250g, 500g, 1kg, bag, clamshell",
  ],
  "Frozen Foods": [
    "Mixed Vegetables, Margherita Pizza, Vanilla Ice Cream, Chicken Nuggets, Fish Fillets, Berry Medley, Hash Browns, Dumplings, Veggie Burgers, Waffles",
    "Northwind, Polar Table, Glacier Bay, Frostline, Evergreen Kitchen",
    "400g, 500g, 750g, 1kg, family pack",
  ],
  "Household Cleaning": [
    "Dish Soap, Laundry Detergent, Glass Cleaner, Bleach, Floor Cleaner, Dishwasher Tablets, Fabric Softener, Multi-Surface Spray, Oven Cleaner, Sponges",
    "BrightHome, CleanSweep, Fresh Linen, Spotless, EcoShine",
    "500ml, 750ml, 1L, 2L, 40 ct",
  ],
  "Paper Products": [
    "Paper Towels, Bath Tissue, Facial Tissue, Napkins, Paper Plates, Copy Paper, Kitchen Roll, Parchment Paper, Coffee Filters, Paper Cups",
    "Evergreen, SoftTouch, Mill Creek, Cloudline, Birchwood",
    "6 rolls, 12 rolls, 100 ct, 250 ct, 500 sheets",
  ],
  "Personal Care": [
    "Shampoo, Toothpaste, Body Wash, Hand Soap, Deodorant, Conditioner, Lip Balm, Sunscreen, Mouthwash, Cotton Swabs",
    "PureCare, Willow, Daybreak, Solace, Tidewater",
    "75ml, 150ml, 250ml, 400ml, 100 ct",
  ],
};

export const CATEGORIES = fromRows<CategorySeed>(
  [
    "name",
    "shelfLifeDays",
    "unitCost",
    "weightKg",
    "casePacks",
    "unitOfMeasure",
    "reorderPoint",
    "orderUpTo",
    "expiryWindowDays",
    "countToleranceUnits",
    "items",
    "brands",
    "sizes",
  ],
  CATEGORY_ROWS.map((row) => [...row, ...(CATEGORY_NAMING[row[0]] ?? []).map(commaList)]),
);

interface SupplierSeed {
  id: string;
  name: string;
  country: string;
  paymentTerms: string;
  leadTimeDays: number;
}

const SUPPLIER_ROWS: Array<[string, string, string, string, number]> = [
  ["SUP-101", "Cascade Beverage Group", "US", "Net 30", 6],
  ["SUP-102", "Blue Ridge Dairy Partners", "US", "Net 15", 3],
  ["SUP-103", "Heartland Pantry Foods", "US", "Net 45", 9],
  ["SUP-104", "Coastal Produce Exchange", "US", "Net 7", 2],
  ["SUP-105", "Northwind Frozen Foods", "CA", "Net 30", 8],
  ["SUP-106", "BrightHome Supply Co.", "US", "Net 60", 10],
  ["SUP-107", "Evergreen Paper Mills", "CA", "Net 45", 12],
  ["SUP-108", "PureCare Laboratories", "US", "Net 30", 7],
  ["SUP-109", "Keystone Wholesale Grocers", "US", "Net 30", 5],
  ["SUP-110", "Great Lakes Distributors", "US", "Net 30", 6],
  ["SUP-111", "Sierra Foodservice Supply", "MX", "Net 45", 11],
  ["SUP-112", "Tri-State Household Brands", "US", "Net 30", 8],
];

export const SUPPLIERS: SupplierSeed[] = SUPPLIER_ROWS.map(
  ([id, name, country, paymentTerms, leadTimeDays]) => ({
    id,
    name,
    country,
    paymentTerms,
    leadTimeDays,
  }),
);

/** Which suppliers can supply a category: the specialist first, then the broadliners that also carry it. */
export const CATEGORY_SUPPLIERS: Record<string, string[]> = {
  Beverages: ["SUP-101", "SUP-109", "SUP-110"],
  Dairy: ["SUP-102", "SUP-110", "SUP-109"],
  "Dry Goods": ["SUP-103", "SUP-109", "SUP-111"],
  "Fresh Produce": ["SUP-104", "SUP-111", "SUP-110"],
  "Frozen Foods": ["SUP-105", "SUP-111", "SUP-109"],
  "Household Cleaning": ["SUP-106", "SUP-112", "SUP-110"],
  "Paper Products": ["SUP-107", "SUP-112", "SUP-109"],
  "Personal Care": ["SUP-108", "SUP-112", "SUP-111"],
};

interface CarrierSeed {
  id: string;
  name: string;
  scac: string;
  mode: "parcel" | "ltl";
  maxWeightKg: number;
  hazmatCertified: boolean;
  /** Multiplier for expedited service; null when the carrier offers no expedited service. */
  expeditedMultiplier: number | null;
  minCharge: number;
  /** Zones the carrier serves (others are not on its rate card). */
  zones: number[];
}

const CARRIER_ROWS: Array<
  [string, string, string, CarrierSeed["mode"], number, boolean, number | null, number, number[]]
> = [
  ["CR-01", "Ridgeline Freight", "RDGF", "ltl", 4500, true, 1.35, 95, [1, 2, 3, 4, 5]],
  ["CR-02", "Swift Parcel Express", "SWPX", "parcel", 68, false, 1.6, 12, [1, 2, 3, 4, 5]],
  ["CR-03", "Meridian Logistics", "MRDL", "ltl", 3000, true, null, 80, [1, 2, 3, 4, 5]],
  ["CR-04", "BlueLine Carriers", "BLNC", "ltl", 5000, false, 1.4, 110, [1, 2, 3, 4, 5]],
  ["CR-05", "Pioneer Transport", "PNRT", "ltl", 2500, true, 1.5, 70, [1, 2, 3, 4]],
  ["CR-06", "Keystone Express", "KYEX", "parcel", 45, false, 1.75, 9.5, [1, 2, 3]],
];

export const CARRIERS = fromRows<CarrierSeed>(
  [
    "id",
    "name",
    "scac",
    "mode",
    "maxWeightKg",
    "hazmatCertified",
    "expeditedMultiplier",
    "minCharge",
    "zones",
  ],
  CARRIER_ROWS,
);

export const BUYERS = ["j.okafor", "m.lindqvist", "r.patel", "s.moreno", "t.nguyen"];
export const CUSTOMERS = commaList(
  "FreshMart Grocers, Corner Pantry Stores, Hillside Co-op, Metro Foods, Valley Market, Greenleaf Organics, Sunrise Convenience, Riverbend Supermarkets, Oakwood Provisions, Harbor Deli Supply, Summit Campus Dining, Lakeside Hospital Food Service",
);
export const ORDER_NOTES = commaList(
  "Deliver to dock 3, Call ahead 24h, Mixed pallet OK, Promo stock, Split delivery allowed",
);
export const DAMAGE_CAUSES = commaList(
  "Forklift puncture, Crushed in transit, Temperature excursion, Water damage, Packaging failure, Pest inspection hold, Mislabelled cases",
);
