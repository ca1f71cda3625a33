/**
 * The customs domain's ids, workspace paths and business constants as the generator applies them and the
 * documents state them. Verifiers read the numbers back from the documents (`facts.ts`), not from here.
 */
import { defineIdFormat } from "../../envs/index.js";

export const importerId = defineIdFormat({
  field: "importer_id",
  entity: "importer",
  prefix: "IMP-",
  digits: 4,
});
export const shipmentId = defineIdFormat({
  field: "shipment_id",
  entity: "shipment",
  prefix: "SHP-",
  digits: 5,
  listTool: "list_shipments",
});
export const documentId = defineIdFormat({
  field: "doc_id",
  entity: "document",
  prefix: "DOC-",
  digits: 6,
  listTool: "list_documents",
});
export const entryId = defineIdFormat({
  field: "entry_id",
  entity: "entry",
  prefix: "ENT-",
  digits: 6,
  listTool: "list_entries",
});
export const holdId = defineIdFormat({
  field: "hold_id",
  entity: "hold",
  prefix: "HLD-",
  digits: 5,
  listTool: "list_holds",
});
export const hsCodeFormat = defineIdFormat({
  field: "hs_code",
  entity: "tariff line",
  pattern: /^\d{4}\.\d{2}\.\d{4}$/,
  example: "8471.30.0100",
});

export const PATHS = {
  dutyRules: "memos/duty-and-preference-rules.md",
  deMinimis: "memos/de-minimis.md",
  rates: "rates/currency-rates-june-2025.md",
  fees: "fees/broker-fee-schedule.md",
  advisories: "advisories/",
} as const;

export const DOC_TYPES = [
  "commercial_invoice",
  "packing_list",
  "bill_of_lading",
  "certificate_of_origin",
] as const;
export type DocType = (typeof DOC_TYPES)[number];

/** Preference programs and the origin countries that are members. */
export const PROGRAMS: Record<string, string[]> = {
  USMCA: ["MX", "CA"],
  KORUS: ["KR"],
  AUFTA: ["AU"],
  CLFTA: ["CL"],
};

export interface Country {
  code: string;
  name: string;
  currency: string;
  program: string | null;
}

export const COUNTRIES: Country[] = [
  { code: "CN", name: "CHINA", currency: "CNY", program: null },
  { code: "VN", name: "VIET NAM", currency: "USD", program: null },
  { code: "DE", name: "GERMANY", currency: "EUR", program: null },
  { code: "IT", name: "ITALY", currency: "EUR", program: null },
  { code: "MX", name: "MEXICO", currency: "MXN", program: "USMCA" },
  { code: "CA", name: "CANADA", currency: "CAD", program: "USMCA" },
  { code: "KR", name: "KOREA, REPUBLIC OF", currency: "KRW", program: "KORUS" },
  { code: "AU", name: "AUSTRALIA", currency: "AUD", program: "AUFTA" },
  { code: "JP", name: "JAPAN", currency: "JPY", program: null },
  { code: "GB", name: "UNITED KINGDOM", currency: "GBP", program: null },
  { code: "CL", name: "CHILE", currency: "USD", program: "CLFTA" },
];

/** USD per one unit of each invoice currency (the rates table), and a typical unit price scale. */
export const RATES: Record<string, number> = {
  USD: 1,
  EUR: 1.0843,
  CNY: 0.13852,
  MXN: 0.05421,
  CAD: 0.7319,
  KRW: 0.000731,
  AUD: 0.6624,
  JPY: 0.006412,
  GBP: 1.2715,
};

export interface TariffSpec {
  hs: string;
  description: string;
  unit: string;
  general: number;
  special: Record<string, number>;
  goods: string[];
}

/**
 * The tariff lines the invoices use: HS code | description | unit | general rate % | special rates by program |
 * goods as invoices describe them. Goods carry no digits (the OCR line pattern relies on it).
 */
export const TARIFF: TariffSpec[] = `
8471.30.0100 | Portable automatic data processing machines | No. | 0 |  | Portable computers aluminium housing;Rugged tablet terminals
8517.62.0090 | Machines for reception of voice or data | No. | 0 |  | Wireless access points;Network switches managed
8516.60.4060 | Cooking stoves, ranges and ovens | No. | 2.7 | USMCA=0 KORUS=0 | Countertop convection ovens;Induction cooking ranges
8418.10.0090 | Combined refrigerator-freezers | No. | 1.9 | USMCA=0 KORUS=0 AUFTA=0 | Combination refrigerator freezers
8708.30.5090 | Brakes and servo-brakes, parts thereof | kg | 2.5 | USMCA=0 KORUS=0 CLFTA=0 | Brake caliper assemblies;Disc brake pads ceramic
8708.99.8180 | Other parts and accessories of motor vehicles | kg | 2.5 | USMCA=0 KORUS=0 | Steering column brackets;Radiator support panels
4011.10.1000 | New pneumatic radial tires, passenger cars | No. | 4 | USMCA=0 KORUS=0 CLFTA=0 | Radial passenger tires
6110.20.2079 | Sweaters and pullovers of cotton | doz. | 16.5 | USMCA=0 KORUS=0 AUFTA=0 | Cotton knit pullovers;Cotton crew neck sweaters
6204.62.4011 | Women's trousers of cotton | doz. | 16.6 | USMCA=0 KORUS=3.3 | Womens cotton trousers;Cotton chino pants ladies
6403.99.9065 | Footwear with leather uppers | prs. | 10 | USMCA=0 KORUS=2 | Leather ankle boots;Leather dress shoes
9403.60.8081 | Other wooden furniture | No. | 0 |  | Solid oak side tables;Walnut bookcases
9401.71.0031 | Upholstered seats with metal frames | No. | 0 |  | Upholstered office chairs
3924.10.4000 | Tableware and kitchenware of plastics | kg | 3.4 | USMCA=0 KORUS=0 AUFTA=0 CLFTA=0 | Plastic food storage containers;Melamine serving bowls
7323.93.0080 | Table and kitchenware of stainless steel | No. | 2 | USMCA=0 KORUS=0 | Stainless steel cookware sets;Stainless mixing bowls
2204.21.5040 | Wine of fresh grapes, containers not over two liters | liters | 6.3 | USMCA=0 AUFTA=0 CLFTA=0 | Red wine cases;Sparkling white wine
0806.10.2000 | Fresh grapes | kg | 2.9 | USMCA=0 CLFTA=0 AUFTA=0 | Fresh table grapes
9503.00.0073 | Toys and models with electric motors | No. | 0 |  | Remote control cars;Motorised building kits
8504.40.9580 | Static converters, power supplies | No. | 1.5 | USMCA=0 KORUS=0 | Power supply units;Battery chargers industrial
9018.90.8000 | Other medical instruments and appliances | No. | 0 |  | Patient monitoring cables;Surgical instrument trays
7318.15.2095 | Threaded bolts of iron or steel | kg | 0 |  | Hex head bolts zinc plated;Carriage bolts galvanised
4202.92.3131 | Travel bags with outer surface of textile | No. | 17.6 | USMCA=0 KORUS=0 | Nylon travel duffels;Rolling carry on bags
8443.32.1040 | Printers, laser type | No. | 0 |  | Laser label printers
`
  .trim()
  .split("\n")
  .map((row) => {
    const [hs, description, unit, general, special, goods] = row.split(" | ") as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const rates = special
      .split(" ")
      .filter(Boolean)
      .map((pair) => pair.split("="));
    return {
      hs,
      description,
      unit,
      general: Number(general),
      special: Object.fromEntries(rates.map(([program, rate]) => [program, Number(rate)])),
      goods: goods.split(";"),
    };
  });

/** The tariff line of an HS code the invoices use. */
export const tariffSpec = (hs: string): TariffSpec => TARIFF.find((spec) => spec.hs === hs)!;

/** Chapters that the de-minimis memo excludes (they always need a formal entry). */
export const DE_MINIMIS_EXCLUDED_CHAPTERS: Array<[string, string]> = [
  ["22", "Beverages, spirits and vinegar"],
  ["61", "Apparel, knitted or crocheted"],
  ["64", "Footwear"],
];
export const DE_MINIMIS_USD = 800;
/** A declared value that differs from the invoice total by less than this (invoice currency) is rounding. */
export const VALUE_TOLERANCE = 1;

/** Broker fee bands on the entered value in USD: [from, to (inclusive), fee]. */
export const FEE_BANDS: Array<[number, number | null, number]> = [
  [0, 2500, 95],
  [2500.01, 10000, 145],
  [10000.01, 50000, 210],
  [50000.01, null, 325],
];
export const FEE_INCLUDED_LINES = 5;
export const FEE_PER_EXTRA_LINE = 6.5;
export const FEE_ISF_OCEAN = 35;
