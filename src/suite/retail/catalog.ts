/**
 * Fixed reference data for the generator: the store, its categories, the items each category sells,
 * brands and suppliers. Kept apart from the generator so documents and verifiers share the same names.
 */

export const STORE_NAME = "Larkspur & Co.";
export const STORE_EMAIL_DOMAIN = "larkspurco.com";

export interface CategorySpec {
  name: string;
  skuPrefix: string;
  /** Relative share of the catalogue. */
  weight: number;
  /** [item, lowest list price, highest list price] */
  items: Array<[string, number, number]>;
  brands: string[];
  suppliers: string[];
  variants: string[];
}

export const GIFT_CARD_CATEGORY = "Gift Cards";
export const ELECTRONICS_CATEGORY = "Electronics";
export const PERSONAL_CARE_CATEGORY = "Personal Care";

export const SUPPLIERS = [
  "Orion Electronics Supply",
  "Bluewater Imports",
  "Keystone Wholesale",
  "Meridian Home Goods",
  "Summit Outdoor Trading",
  "Cedar Valley Apparel",
  "Brightleaf Distribution",
  "Pinecrest Publishing Group",
] as const;

export const INTERNAL_SUPPLIER = "Larkspur & Co. (internal)";

export const CATEGORIES: CategorySpec[] = [
  {
    name: ELECTRONICS_CATEGORY,
    skuPrefix: "ELE",
    weight: 18,
    items: [
      ["Wireless Earbuds", 39, 229],
      ["Bluetooth Speaker", 29, 249],
      ["Noise-Cancelling Headphones", 99, 399],
      ["Smartwatch", 149, 449],
      ["10-inch Tablet", 229, 799],
      ["E-Reader", 99, 279],
      ["Portable Charger 20000mAh", 25, 79],
      ["Mechanical Keyboard", 59, 189],
      ["Wireless Mouse", 19, 89],
      ["Action Camera", 149, 499],
      ["Robot Vacuum", 199, 649],
      ["Soundbar", 129, 599],
      ["1080p Webcam", 39, 129],
      ["Smart Thermostat", 119, 279],
    ],
    brands: ["Zenbeat", "Voltra", "Aurelo", "Kinetica", "Pixelmark", "Lumio"],
    suppliers: ["Orion Electronics Supply", "Bluewater Imports"],
    variants: ["Black", "White", "Graphite", "Gen 2", "Pro", "Mini"],
  },
  {
    name: "Home & Kitchen",
    skuPrefix: "HOM",
    weight: 17,
    items: [
      ["Cast Iron Skillet 12in", 29, 69],
      ["Chef's Knife 8in", 35, 149],
      ["Stand Mixer", 199, 499],
      ["Air Fryer 5qt", 69, 179],
      ["Espresso Machine", 249, 749],
      ["Linen Duvet Cover", 89, 239],
      ["Bath Towel Set", 29, 89],
      ["Stoneware Dinnerware Set", 59, 189],
      ["French Press", 19, 59],
      ["Ceramic Table Lamp", 45, 149],
      ["Wool Throw Blanket", 49, 139],
      ["Glass Storage Containers", 24, 59],
    ],
    brands: ["Hearthstone", "Maison Verde", "Copperfield", "Nordlys", "Alder & Oak"],
    suppliers: ["Meridian Home Goods", "Keystone Wholesale", "Bluewater Imports"],
    variants: ["Sage", "Oat", "Charcoal", "Terracotta", "Ivory", "Slate"],
  },
  {
    name: "Apparel",
    skuPrefix: "APP",
    weight: 17,
    items: [
      ["Merino Crew Sweater", 69, 139],
      ["Packable Rain Jacket", 79, 219],
      ["Slim Stretch Chinos", 49, 98],
      ["Running Shorts", 24, 55],
      ["Flannel Shirt", 39, 79],
      ["Down Vest", 89, 189],
      ["High-Rise Leggings", 39, 98],
      ["Denim Jacket", 69, 149],
      ["Wool Hiking Socks 3-Pack", 19, 39],
      ["Fleece Hoodie", 45, 99],
    ],
    brands: ["Fieldcrest", "Northbound", "Wren & Wool", "Coastline", "Everpine"],
    suppliers: ["Cedar Valley Apparel", "Keystone Wholesale"],
    variants: ["Navy", "Heather Grey", "Olive", "Black", "Rust", "Sand"],
  },
  {
    name: PERSONAL_CARE_CATEGORY,
    skuPrefix: "PER",
    weight: 10,
    items: [
      ["Sonic Electric Toothbrush", 39, 149],
      ["Ionic Hair Dryer", 49, 229],
      ["Beard Trimmer", 29, 99],
      ["Gentle Facial Cleanser", 12, 32],
      ["Daily Moisturizer SPF 30", 15, 45],
      ["Shampoo & Conditioner Set", 18, 48],
      ["Ceramic Curling Iron", 29, 119],
      ["Body Lotion 16oz", 9, 28],
    ],
    brands: ["Purelle", "Oakmoss", "Serenova", "Glowkind"],
    suppliers: ["Brightleaf Distribution", "Keystone Wholesale"],
    variants: ["Unscented", "Travel Size", "Lavender", "Sensitive", "Original"],
  },
  {
    name: "Sports & Outdoors",
    skuPrefix: "SPO",
    weight: 14,
    items: [
      ["Cork Yoga Mat", 39, 99],
      ["Adjustable Dumbbells", 129, 399],
      ["2-Person Backpacking Tent", 149, 429],
      ["Hiking Backpack 40L", 79, 229],
      ["Insulated Water Bottle", 19, 45],
      ["Carbon Trekking Poles", 49, 159],
      ["Down Sleeping Bag", 119, 349],
      ["Bike Helmet", 45, 149],
      ["Resistance Band Set", 15, 39],
    ],
    brands: ["Ridgeway", "Trailhaus", "Apex Motion", "Blue Summit"],
    suppliers: ["Summit Outdoor Trading", "Keystone Wholesale"],
    variants: ["Forest", "Ember", "Glacier", "Stone", "Regular", "Long"],
  },
  {
    name: "Toys & Games",
    skuPrefix: "TOY",
    weight: 12,
    items: [
      ["Building Blocks Castle Set", 29, 119],
      ["Strategy Board Game", 29, 69],
      ["1000-Piece Jigsaw Puzzle", 15, 29],
      ["Remote Control Rock Crawler", 39, 129],
      ["Plush Fox", 14, 34],
      ["Party Card Game", 12, 25],
      ["Junior Science Kit", 24, 59],
    ],
    brands: ["Tinker Lane", "Hopscotch", "Brightmoor", "Puzzlewood"],
    suppliers: ["Brightleaf Distribution", "Bluewater Imports"],
    variants: ["Classic", "Deluxe", "Travel Edition", "Ages 8+", "Family Edition"],
  },
  {
    name: "Books",
    skuPrefix: "BOO",
    weight: 9,
    items: [
      ["Weeknight Vegetarian Cookbook", 19, 35],
      ["Field Guide to North American Birds", 18, 32],
      ["Hardcover Mystery Novel", 16, 29],
      ["Beginner's Woodworking Handbook", 22, 39],
      ["Illustrated Atlas of the Oceans", 29, 55],
      ["Sourdough Baking Manual", 21, 34],
    ],
    brands: ["Pinecrest Press", "Lantern House", "Quill & Ink"],
    suppliers: ["Pinecrest Publishing Group"],
    variants: ["Hardcover", "Paperback", "2nd Edition", "Signed Edition"],
  },
];

/** Gift cards are fixed-price, sold by the store itself, and never repriced. */
export const GIFT_CARDS: Array<{ sku: string; name: string; price: number }> = [
  { sku: "GFT-0025", name: "Larkspur Digital Gift Card $25", price: 25 },
  { sku: "GFT-0050", name: "Larkspur Digital Gift Card $50", price: 50 },
  { sku: "GFT-0100", name: "Larkspur Digital Gift Card $100", price: 100 },
];
