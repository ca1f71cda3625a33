/** Products a restaurant group buys: name, category, base unit, units per case and a typical case price. */
export interface Product {
  name: string;
  category: string;
  unit: "ea" | "kg" | "l";
  pack: number;
  price: number;
  /** Base units one recipe batch typically uses; 0 for what no recipe uses (paper, cleaning). */
  batch: number;
}

function p(
  name: string,
  category: string,
  unit: Product["unit"],
  pack: number,
  price: number,
  batch: number,
): Product {
  return { name, category, unit, pack, price, batch };
}

export const PRODUCTS: readonly Product[] = [
  p("Roma tomatoes", "produce", "kg", 11, 24, 2),
  p("Yellow onions", "produce", "kg", 22, 19, 1.5),
  p("Romaine hearts", "produce", "ea", 24, 31, 6),
  p("Lemons", "produce", "ea", 115, 42, 8),
  p("Russet potatoes", "produce", "kg", 22, 21, 4),
  p("Garlic, peeled", "produce", "kg", 2.5, 18, 0.2),
  p("Flat-leaf parsley", "produce", "ea", 30, 22, 3),
  p("Avocados", "produce", "ea", 48, 58, 10),
  p("Chicken breast", "protein", "kg", 9, 78, 3),
  p("Ground beef 80/20", "protein", "kg", 9, 74, 3.5),
  p("Atlantic salmon fillet", "protein", "kg", 4.5, 96, 2),
  p("Pork shoulder", "protein", "kg", 16, 88, 4),
  p("Shrimp 16/20", "protein", "kg", 4.5, 82, 1.5),
  p("Bacon, sliced", "protein", "kg", 7, 61, 1),
  p("Whole milk", "dairy", "l", 16, 21, 2),
  p("Heavy cream", "dairy", "l", 12, 48, 1),
  p("Unsalted butter", "dairy", "kg", 16, 112, 0.5),
  p("Mozzarella, shredded", "dairy", "kg", 9, 63, 1.5),
  p("Parmesan, grated", "dairy", "kg", 2.5, 41, 0.3),
  p("Large eggs", "dairy", "ea", 180, 54, 24),
  p("All-purpose flour", "dry goods", "kg", 22, 18, 2),
  p("Arborio rice", "dry goods", "kg", 10, 39, 1.5),
  p("Spaghetti", "dry goods", "kg", 9, 22, 2),
  p("Extra virgin olive oil", "dry goods", "l", 12, 96, 0.4),
  p("Granulated sugar", "dry goods", "kg", 22, 27, 0.8),
  p("Crushed tomatoes #10", "dry goods", "ea", 6, 29, 2),
  p("Burger buns", "bakery", "ea", 96, 34, 24),
  p("Sourdough loaves", "bakery", "ea", 12, 38, 2),
  p("French fries 3/8", "frozen", "kg", 13, 39, 4),
  p("Vanilla ice cream", "frozen", "l", 11, 52, 2),
  p("Puff pastry sheets", "frozen", "ea", 40, 47, 4),
  p("Cola syrup", "beverage", "l", 19, 96, 0),
  p("Coffee beans", "beverage", "kg", 5, 84, 0.5),
  p("Orange juice", "beverage", "l", 8, 33, 2),
  p("Paper napkins", "paper", "ea", 3000, 38, 0),
  p("Take-out boxes", "paper", "ea", 200, 44, 0),
  p("Nitrile gloves", "paper", "ea", 1000, 49, 0),
  p("Sanitizer concentrate", "cleaning", "l", 8, 64, 0),
  p("Dish detergent", "cleaning", "l", 19, 71, 0),
];

export const VARIANTS = ["", "organic", "local", "premium", "value"];

/** The storage area (count sheet) where a category is kept. */
export const AREA_OF: Record<string, string> = {
  produce: "Walk-in cooler",
  protein: "Walk-in cooler",
  dairy: "Walk-in cooler",
  "dry goods": "Dry store",
  bakery: "Dry store",
  frozen: "Freezer",
  beverage: "Bar",
  paper: "Dry store",
  cleaning: "Chemicals & paper",
};
export const AREAS = ["Walk-in cooler", "Freezer", "Dry store", "Bar", "Chemicals & paper"];

export const SUPPLIER_NAMES = [
  "Harbor Foodservice",
  "Greenline Produce",
  "Prime Cut Meats",
  "Valley Dairy Co-op",
  "Summit Dry Goods",
  "Baywater Seafood",
  "Northside Bakery Supply",
  "Keystone Paper & Janitorial",
  "Cascade Beverage",
  "Redwood Specialty Foods",
  "Metro Restaurant Depot",
  "Orchard Fresh",
  "Bluefin Provisions",
  "Golden Grain Distributors",
];

export const LOCATION_NAMES = [
  ["Downtown", "Portland"],
  ["Pearl District", "Portland"],
  ["Riverside", "Vancouver"],
  ["Eastside", "Portland"],
  ["Lake Oswego", "Lake Oswego"],
  ["Beaverton", "Beaverton"],
  ["Airport", "Portland"],
  ["Hillsboro", "Hillsboro"],
  ["Salem Center", "Salem"],
  ["Gresham Station", "Gresham"],
] as const;

export const RECIPE_CATEGORIES = ["starter", "main", "dessert"] as const;
export const RECIPE_WORDS: Record<(typeof RECIPE_CATEGORIES)[number], string[]> = {
  starter: [
    "Caesar salad",
    "Tomato bruschetta",
    "Garlic shrimp",
    "Avocado toast",
    "Onion soup",
    "Fries basket",
  ],
  main: [
    "Classic burger",
    "Salmon plate",
    "Chicken risotto",
    "Spaghetti pomodoro",
    "Pulled pork sandwich",
    "Shrimp pasta",
    "Roast chicken",
  ],
  dessert: ["Vanilla sundae", "Lemon tart", "Custard pastry", "Sourdough pudding"],
};
