/** Fixed reference data of the airline: its hub, the spokes it serves with their distances, its fleet types. */

export const HUB = { code: "BOS", name: "Boston Logan International", city: "Boston", country: "US" };

/** Spoke stations in the order the network grows with the scale: code, name, city, country, km from the hub. */
export const SPOKES: ReadonlyArray<readonly [string, string, string, string, number]> = [
  ["PWM", "Portland International Jetport", "Portland", "US", 160],
  ["DTW", "Detroit Metropolitan", "Detroit", "US", 1015],
  ["YUL", "Montreal Trudeau", "Montreal", "CA", 405],
  ["CLT", "Charlotte Douglas", "Charlotte", "US", 1180],
  ["BGR", "Bangor International", "Bangor", "US", 325],
  ["ATL", "Hartsfield-Jackson Atlanta", "Atlanta", "US", 1520],
  ["BTV", "Burlington International", "Burlington", "US", 300],
  ["PHL", "Philadelphia International", "Philadelphia", "US", 450],
  ["JAX", "Jacksonville International", "Jacksonville", "US", 1630],
  ["YYZ", "Toronto Pearson", "Toronto", "CA", 715],
  ["SYR", "Syracuse Hancock", "Syracuse", "US", 425],
  ["RDU", "Raleigh-Durham", "Raleigh", "US", 985],
  ["ALB", "Albany International", "Albany", "US", 230],
  ["ORD", "Chicago O'Hare", "Chicago", "US", 1390],
  ["BWI", "Baltimore/Washington", "Baltimore", "US", 595],
  ["SAV", "Savannah/Hilton Head", "Savannah", "US", 1450],
  ["ROC", "Greater Rochester", "Rochester", "US", 540],
  ["YOW", "Ottawa Macdonald-Cartier", "Ottawa", "CA", 440],
  ["CLE", "Cleveland Hopkins", "Cleveland", "US", 905],
  ["BUF", "Buffalo Niagara", "Buffalo", "US", 635],
  ["MSP", "Minneapolis-Saint Paul", "Minneapolis", "US", 1810],
  ["IAD", "Washington Dulles", "Washington", "US", 665],
  ["PIT", "Pittsburgh International", "Pittsburgh", "US", 800],
  ["YQB", "Quebec City Lesage", "Quebec City", "CA", 540],
  ["CHS", "Charleston International", "Charleston", "US", 1340],
  ["ORF", "Norfolk International", "Norfolk", "US", 750],
  ["MYR", "Myrtle Beach International", "Myrtle Beach", "US", 1250],
  ["HPN", "Westchester County", "White Plains", "US", 240],
  ["RIC", "Richmond International", "Richmond", "US", 760],
  ["YHZ", "Halifax Stanfield", "Halifax", "CA", 660],
  ["CMH", "John Glenn Columbus", "Columbus", "US", 1030],
  ["BDL", "Bradley International", "Hartford", "US", 150],
  ["GSO", "Piedmont Triad", "Greensboro", "US", 1000],
];

export interface AircraftType {
  code: string;
  name: string;
  seats: number;
}

export const AIRCRAFT_TYPES: readonly AircraftType[] = [
  { code: "AT46", name: "ATR 42-600", seats: 48 },
  { code: "B190", name: "Beechcraft 1900D", seats: 19 },
  { code: "SF34", name: "Saab 340B", seats: 34 },
  { code: "JS41", name: "BAe Jetstream 41", seats: 29 },
];

export const TIERS = ["blue", "silver", "gold", "platinum"] as const;

/** "Now" in the operations control centre: the reference date at 11:40. */
export const NOW_TIME = "11:40";

/** Compensation bands of the policy: up to `maxKm`, owed from `minutes` of arrival delay, per passenger. */
export const BAND_THRESHOLDS = [
  { band: "A", maxKm: 800, minutes: 120, amount: 150 },
  { band: "B", maxKm: 1500, minutes: 180, amount: 300 },
  { band: "C", maxKm: Infinity, minutes: 240, amount: 450 },
];
export const HUB_MCT = 35;
export const UM_MCT = 60;
