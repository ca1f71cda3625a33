/**
 * Fixed reference data of the logistics domain: the distributor's network, its product families, its
 * supplier base and the carriers it tenders freight to. Quantities and prices are drawn per instance by
 * the generator; the names and the shape of the network stay the same so documents read naturally.
 */

export const REGIONS = ["West", "Midwest", "South", "Southeast", "Northeast"] as const;
export type Region = (typeof REGIONS)[number];

export interface WarehouseSeed {
  id: string;
  name: string;
  city: string;
  state: string;
  region: Region;
  capacityPallets: number;
  openedOn: string;
}

export const WAREHOUSES: WarehouseSeed[] = [
  {
    id: "WH-ABE",
    name: "Allentown Distribution Center",
    city: "Allentown",
    state: "PA",
    region: "Northeast",
    capacityPallets: 18_500,
    openedOn: "2011-04-18",
  },
  {
    id: "WH-ATL",
    name: "Atlanta Cross-Dock",
    city: "Atlanta",
    state: "GA",
    region: "Southeast",
    capacityPallets: 9_800,
    openedOn: "2017-09-05",
  },
  {
    id: "WH-CMH",
    name: "Columbus Distribution Center",
    city: "Columbus",
    state: "OH",
    region: "Midwest",
    capacityPallets: 22_000,
    openedOn: "2008-02-11",
  },
  {
    id: "WH-DAL",
    name: "Dallas Distribution Center",
    city: "Dallas",
    state: "TX",
    region: "South",
    capacityPallets: 20_400,
    openedOn: "2013-06-24",
  },
  {
    id: "WH-RNO",
    name: "Reno Fulfillment Center",
    city: "Reno",
    state: "NV",
    region: "West",
    capacityPallets: 15_200,
    openedOn: "2019-03-04",
  },
];

/** Customer destinations by region, as (city, state). */
export const DESTINATIONS: Record<Region, Array<[string, string]>> = {
  West: [
    ["Sacramento", "CA"],
    ["Portland", "OR"],
    ["Boise", "ID"],
    ["Phoenix", "AZ"],
    ["Salt Lake City", "UT"],
    ["Fresno", "CA"],
    ["Spokane", "WA"],
  ],
  Midwest: [
    ["Indianapolis", "IN"],
    ["Milwaukee", "WI"],
    ["Des Moines", "IA"],
    ["Grand Rapids", "MI"],
    ["Omaha", "NE"],
    ["Peoria", "IL"],
    ["Toledo", "OH"],
  ],
  South: [
    ["Houston", "TX"],
    ["Oklahoma City", "OK"],
    ["Little Rock", "AR"],
    ["Shreveport", "LA"],
    ["San Antonio", "TX"],
    ["Tulsa", "OK"],
    ["Lubbock", "TX"],
  ],
  Southeast: [
    ["Charlotte", "NC"],
    ["Jacksonville", "FL"],
    ["Birmingham", "AL"],
    ["Nashville", "TN"],
    ["Columbia", "SC"],
    ["Orlando", "FL"],
    ["Savannah", "GA"],
  ],
  Northeast: [
    ["Hartford", "CT"],
    ["Albany", "NY"],
    ["Worcester", "MA"],
    ["Newark", "NJ"],
    ["Scranton", "PA"],
    ["Providence", "RI"],
    ["Syracuse", "NY"],
  ],
};

/** Freight zones between regions: 1 within a region, up to 5 coast to coast. */
export const ZONE_CHART: Record<Region, Record<Region, number>> = {
  West: { West: 1, Midwest: 4, South: 3, Southeast: 5, Northeast: 5 },
  Midwest: { West: 4, Midwest: 1, South: 3, Southeast: 2, Northeast: 2 },
  South: { West: 3, Midwest: 3, South: 1, Southeast: 2, Northeast: 4 },
  Southeast: { West: 5, Midwest: 2, South: 2, Southeast: 1, Northeast: 3 },
  Northeast: { West: 5, Midwest: 2, South: 4, Southeast: 3, Northeast: 1 },
};

export interface CategorySeed {
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

export const CATEGORIES: CategorySeed[] = [
  {
    name: "Beverages",
    shelfLifeDays: [180, 365],
    unitCost: [0.6, 4.8],
    weightKg: [0.4, 2.2],
    casePacks: [12, 24],
    unitOfMeasure: "bottle",
    reorderPoint: 120,
    orderUpTo: 360,
    expiryWindowDays: 45,
    countToleranceUnits: 4,
    items: [
      "Sparkling Water",
      "Cold Brew Coffee",
      "Orange Juice",
      "Iced Tea",
      "Ginger Ale",
      "Sports Drink",
      "Coconut Water",
      "Lemonade",
      "Kombucha",
      "Spring Water",
    ],
    brands: ["Clearbrook", "Summit Springs", "Bluebird", "Harvest Gold", "Peakline"],
    sizes: ["330ml", "500ml", "1L", "1.5L", "2L"],
  },
  {
    name: "Dairy",
    shelfLifeDays: [14, 28],
    unitCost: [0.9, 6.4],
    weightKg: [0.2, 2.1],
    casePacks: [6, 12],
    unitOfMeasure: "each",
    reorderPoint: 60,
    orderUpTo: 180,
    expiryWindowDays: 5,
    countToleranceUnits: 2,
    items: [
      "Whole Milk",
      "Greek Yogurt",
      "Salted Butter",
      "Cheddar Block",
      "Cream Cheese",
      "Sour Cream",
      "Skim Milk",
      "Mozzarella",
      "Cottage Cheese",
      "Heavy Cream",
    ],
    brands: ["Alpine Fields", "Meadowlark", "Blue Ridge", "Golden Valley", "Prairie Rose"],
    sizes: ["250g", "500g", "1L", "2L", "1kg"],
  },
  {
    name: "Dry Goods",
    shelfLifeDays: [270, 540],
    unitCost: [0.8, 7.5],
    weightKg: [0.3, 5.0],
    casePacks: [6, 12, 24],
    unitOfMeasure: "each",
    reorderPoint: 90,
    orderUpTo: 260,
    expiryWindowDays: 60,
    countToleranceUnits: 3,
    items: [
      "Basmati Rice",
      "Penne Pasta",
      "Rolled Oats",
      "Black Beans",
      "Peanut Butter",
      "Tomato Sauce",
      "Flour",
      "Granola",
      "Lentils",
      "Chickpeas",
    ],
    brands: ["Homestead", "Harvest Table", "Old Mill", "Sunrise Pantry", "Copper Kettle"],
    sizes: ["400g", "500g", "1kg", "2kg", "5kg"],
  },
  {
    name: "Fresh Produce",
    shelfLifeDays: [7, 14],
    unitCost: [0.5, 4.2],
    weightKg: [0.2, 2.5],
    casePacks: [6, 10, 12],
    unitOfMeasure: "each",
    reorderPoint: 80,
    orderUpTo: 200,
    expiryWindowDays: 3,
    countToleranceUnits: 3,
    items: [
      "Baby Spinach",
      "Roma Tomatoes",
      "Gala Apples",
      "Bananas",
      "Avocados",
      "Blueberries",
      "Romaine Hearts",
      "Carrots",
      "Red Grapes",
      "Strawberries",
    ],
    brands: ["Green Acre", "Sunvalley", "Orchard Lane", "Coastal Fresh", "Fieldstone"],
    sizes: ["250g", "500g", "1kg", "bag", "clamshell"],
  },
  {
    name: "Frozen Foods",
    shelfLifeDays: [120, 240],
    unitCost: [1.5, 9.5],
    weightKg: [0.3, 2.5],
    casePacks: [6, 8, 12],
    unitOfMeasure: "each",
    reorderPoint: 40,
    orderUpTo: 140,
    expiryWindowDays: 30,
    countToleranceUnits: 1,
    items: [
      "Mixed Vegetables",
      "Margherita Pizza",
      "Vanilla Ice Cream",
      "Chicken Nuggets",
      "Fish Fillets",
      "Berry Medley",
      "Hash Browns",
      "Dumplings",
      "Veggie Burgers",
      "Waffles",
    ],
    brands: ["Northwind", "Polar Table", "Glacier Bay", "Frostline", "Evergreen Kitchen"],
    sizes: ["400g", "500g", "750g", "1kg", "family pack"],
  },
  {
    name: "Household Cleaning",
    shelfLifeDays: null,
    unitCost: [1.2, 8.9],
    weightKg: [0.4, 5.5],
    casePacks: [6, 12],
    unitOfMeasure: "each",
    reorderPoint: 50,
    orderUpTo: 150,
    expiryWindowDays: null,
    countToleranceUnits: 2,
    items: [
      "Dish Soap",
      "Laundry Detergent",
      "Glass Cleaner",
      "Bleach",
      "Floor Cleaner",
      "Dishwasher Tablets",
      "Fabric Softener",
      "Multi-Surface Spray",
      "Oven Cleaner",
      "Sponges",
    ],
    brands: ["BrightHome", "CleanSweep", "Fresh Linen", "Spotless", "EcoShine"],
    sizes: ["500ml", "750ml", "1L", "2L", "40 ct"],
  },
  {
    name: "Paper Products",
    shelfLifeDays: null,
    unitCost: [1.5, 12.0],
    weightKg: [0.5, 6.0],
    casePacks: [4, 6, 8],
    unitOfMeasure: "pack",
    reorderPoint: 70,
    orderUpTo: 220,
    expiryWindowDays: null,
    countToleranceUnits: 5,
    items: [
      "Paper Towels",
      "Bath Tissue",
      "Facial Tissue",
      "Napkins",
      "Paper Plates",
      "Copy Paper",
      "Kitchen Roll",
      "Parchment Paper",
      "Coffee Filters",
      "Paper Cups",
    ],
    brands: ["Evergreen", "SoftTouch", "Mill Creek", "Cloudline", "Birchwood"],
    sizes: ["6 rolls", "12 rolls", "100 ct", "250 ct", "500 sheets"],
  },
  {
    name: "Personal Care",
    shelfLifeDays: null,
    unitCost: [1.8, 14.5],
    weightKg: [0.1, 1.2],
    casePacks: [6, 12, 24],
    unitOfMeasure: "each",
    reorderPoint: 45,
    orderUpTo: 130,
    expiryWindowDays: null,
    countToleranceUnits: 1,
    items: [
      "Shampoo",
      "Toothpaste",
      "Body Wash",
      "Hand Soap",
      "Deodorant",
      "Conditioner",
      "Lip Balm",
      "Sunscreen",
      "Mouthwash",
      "Cotton Swabs",
    ],
    brands: ["PureCare", "Willow", "Daybreak", "Solace", "Tidewater"],
    sizes: ["75ml", "150ml", "250ml", "400ml", "100 ct"],
  },
];

export interface SupplierSeed {
  id: string;
  name: string;
  country: string;
  paymentTerms: string;
  leadTimeDays: number;
}

export const SUPPLIERS: SupplierSeed[] = [
  { id: "SUP-101", name: "Cascade Beverage Group", country: "US", paymentTerms: "Net 30", leadTimeDays: 6 },
  {
    id: "SUP-102",
    name: "Blue Ridge Dairy Partners",
    country: "US",
    paymentTerms: "Net 15",
    leadTimeDays: 3,
  },
  { id: "SUP-103", name: "Heartland Pantry Foods", country: "US", paymentTerms: "Net 45", leadTimeDays: 9 },
  { id: "SUP-104", name: "Coastal Produce Exchange", country: "US", paymentTerms: "Net 7", leadTimeDays: 2 },
  { id: "SUP-105", name: "Northwind Frozen Foods", country: "CA", paymentTerms: "Net 30", leadTimeDays: 8 },
  { id: "SUP-106", name: "BrightHome Supply Co.", country: "US", paymentTerms: "Net 60", leadTimeDays: 10 },
  { id: "SUP-107", name: "Evergreen Paper Mills", country: "CA", paymentTerms: "Net 45", leadTimeDays: 12 },
  { id: "SUP-108", name: "PureCare Laboratories", country: "US", paymentTerms: "Net 30", leadTimeDays: 7 },
  {
    id: "SUP-109",
    name: "Keystone Wholesale Grocers",
    country: "US",
    paymentTerms: "Net 30",
    leadTimeDays: 5,
  },
  { id: "SUP-110", name: "Great Lakes Distributors", country: "US", paymentTerms: "Net 30", leadTimeDays: 6 },
  {
    id: "SUP-111",
    name: "Sierra Foodservice Supply",
    country: "MX",
    paymentTerms: "Net 45",
    leadTimeDays: 11,
  },
  {
    id: "SUP-112",
    name: "Tri-State Household Brands",
    country: "US",
    paymentTerms: "Net 30",
    leadTimeDays: 8,
  },
];

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

export interface CarrierSeed {
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

export const CARRIERS: CarrierSeed[] = [
  {
    id: "CR-01",
    name: "Ridgeline Freight",
    scac: "RDGF",
    mode: "ltl",
    maxWeightKg: 4500,
    hazmatCertified: true,
    expeditedMultiplier: 1.35,
    minCharge: 95,
    zones: [1, 2, 3, 4, 5],
  },
  {
    id: "CR-02",
    name: "Swift Parcel Express",
    scac: "SWPX",
    mode: "parcel",
    maxWeightKg: 68,
    hazmatCertified: false,
    expeditedMultiplier: 1.6,
    minCharge: 12,
    zones: [1, 2, 3, 4, 5],
  },
  {
    id: "CR-03",
    name: "Meridian Logistics",
    scac: "MRDL",
    mode: "ltl",
    maxWeightKg: 3000,
    hazmatCertified: true,
    expeditedMultiplier: null,
    minCharge: 80,
    zones: [1, 2, 3, 4, 5],
  },
  {
    id: "CR-04",
    name: "BlueLine Carriers",
    scac: "BLNC",
    mode: "ltl",
    maxWeightKg: 5000,
    hazmatCertified: false,
    expeditedMultiplier: 1.4,
    minCharge: 110,
    zones: [1, 2, 3, 4, 5],
  },
  {
    id: "CR-05",
    name: "Pioneer Transport",
    scac: "PNRT",
    mode: "ltl",
    maxWeightKg: 2500,
    hazmatCertified: true,
    expeditedMultiplier: 1.5,
    minCharge: 70,
    zones: [1, 2, 3, 4],
  },
  {
    id: "CR-06",
    name: "Keystone Express",
    scac: "KYEX",
    mode: "parcel",
    maxWeightKg: 45,
    hazmatCertified: false,
    expeditedMultiplier: 1.75,
    minCharge: 9.5,
    zones: [1, 2, 3],
  },
];

export const BUYERS = ["j.okafor", "m.lindqvist", "r.patel", "s.moreno", "t.nguyen"];
export const CUSTOMERS = [
  "FreshMart Grocers",
  "Corner Pantry Stores",
  "Hillside Co-op",
  "Metro Foods",
  "Valley Market",
  "Greenleaf Organics",
  "Sunrise Convenience",
  "Riverbend Supermarkets",
  "Oakwood Provisions",
  "Harbor Deli Supply",
  "Summit Campus Dining",
  "Lakeside Hospital Food Service",
];
