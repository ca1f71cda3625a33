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
  listTool: "list_importers",
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
  listTool: "list_tariff_lines",
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

/** The tariff lines the invoices use; descriptions of goods carry no digits (the OCR reader relies on it). */
export const TARIFF: TariffSpec[] = [
  {
    hs: "8471.30.0100",
    description: "Portable automatic data processing machines",
    unit: "No.",
    general: 0,
    special: {},
    goods: ["Portable computers aluminium housing", "Rugged tablet terminals"],
  },
  {
    hs: "8517.62.0090",
    description: "Machines for reception of voice or data",
    unit: "No.",
    general: 0,
    special: {},
    goods: ["Wireless access points", "Network switches managed"],
  },
  {
    hs: "8516.60.4060",
    description: "Cooking stoves, ranges and ovens",
    unit: "No.",
    general: 2.7,
    special: { USMCA: 0, KORUS: 0 },
    goods: ["Countertop convection ovens", "Induction cooking ranges"],
  },
  {
    hs: "8418.10.0090",
    description: "Combined refrigerator-freezers",
    unit: "No.",
    general: 1.9,
    special: { USMCA: 0, KORUS: 0, AUFTA: 0 },
    goods: ["Combination refrigerator freezers"],
  },
  {
    hs: "8708.30.5090",
    description: "Brakes and servo-brakes, parts thereof",
    unit: "kg",
    general: 2.5,
    special: { USMCA: 0, KORUS: 0, CLFTA: 0 },
    goods: ["Brake caliper assemblies", "Disc brake pads ceramic"],
  },
  {
    hs: "8708.99.8180",
    description: "Other parts and accessories of motor vehicles",
    unit: "kg",
    general: 2.5,
    special: { USMCA: 0, KORUS: 0 },
    goods: ["Steering column brackets", "Radiator support panels"],
  },
  {
    hs: "4011.10.1000",
    description: "New pneumatic radial tires, passenger cars",
    unit: "No.",
    general: 4,
    special: { USMCA: 0, KORUS: 0, CLFTA: 0 },
    goods: ["Radial passenger tires"],
  },
  {
    hs: "6110.20.2079",
    description: "Sweaters and pullovers of cotton",
    unit: "doz.",
    general: 16.5,
    special: { USMCA: 0, KORUS: 0, AUFTA: 0 },
    goods: ["Cotton knit pullovers", "Cotton crew neck sweaters"],
  },
  {
    hs: "6204.62.4011",
    description: "Women's trousers of cotton",
    unit: "doz.",
    general: 16.6,
    special: { USMCA: 0, KORUS: 3.3 },
    goods: ["Womens cotton trousers", "Cotton chino pants ladies"],
  },
  {
    hs: "6403.99.9065",
    description: "Footwear with leather uppers",
    unit: "prs.",
    general: 10,
    special: { USMCA: 0, KORUS: 2 },
    goods: ["Leather ankle boots", "Leather dress shoes"],
  },
  {
    hs: "9403.60.8081",
    description: "Other wooden furniture",
    unit: "No.",
    general: 0,
    special: {},
    goods: ["Solid oak side tables", "Walnut bookcases"],
  },
  {
    hs: "9401.71.0031",
    description: "Upholstered seats with metal frames",
    unit: "No.",
    general: 0,
    special: {},
    goods: ["Upholstered office chairs"],
  },
  {
    hs: "3924.10.4000",
    description: "Tableware and kitchenware of plastics",
    unit: "kg",
    general: 3.4,
    special: { USMCA: 0, KORUS: 0, AUFTA: 0, CLFTA: 0 },
    goods: ["Plastic food storage containers", "Melamine serving bowls"],
  },
  {
    hs: "7323.93.0080",
    description: "Table and kitchenware of stainless steel",
    unit: "No.",
    general: 2,
    special: { USMCA: 0, KORUS: 0 },
    goods: ["Stainless steel cookware sets", "Stainless mixing bowls"],
  },
  {
    hs: "2204.21.5040",
    description: "Wine of fresh grapes, containers not over two liters",
    unit: "liters",
    general: 6.3,
    special: { USMCA: 0, AUFTA: 0, CLFTA: 0 },
    goods: ["Red wine cases", "Sparkling white wine"],
  },
  {
    hs: "0806.10.2000",
    description: "Fresh grapes",
    unit: "kg",
    general: 2.9,
    special: { USMCA: 0, CLFTA: 0, AUFTA: 0 },
    goods: ["Fresh table grapes"],
  },
  {
    hs: "9503.00.0073",
    description: "Toys and models with electric motors",
    unit: "No.",
    general: 0,
    special: {},
    goods: ["Remote control cars", "Motorised building kits"],
  },
  {
    hs: "8504.40.9580",
    description: "Static converters, power supplies",
    unit: "No.",
    general: 1.5,
    special: { USMCA: 0, KORUS: 0 },
    goods: ["Power supply units", "Battery chargers industrial"],
  },
  {
    hs: "9018.90.8000",
    description: "Other medical instruments and appliances",
    unit: "No.",
    general: 0,
    special: {},
    goods: ["Patient monitoring cables", "Surgical instrument trays"],
  },
  {
    hs: "7318.15.2095",
    description: "Threaded bolts of iron or steel",
    unit: "kg",
    general: 0,
    special: {},
    goods: ["Hex head bolts zinc plated", "Carriage bolts galvanised"],
  },
  {
    hs: "4202.92.3131",
    description: "Travel bags with outer surface of textile",
    unit: "No.",
    general: 17.6,
    special: { USMCA: 0, KORUS: 0 },
    goods: ["Nylon travel duffels", "Rolling carry on bags"],
  },
  {
    hs: "8443.32.1040",
    description: "Printers, laser type",
    unit: "No.",
    general: 0,
    special: {},
    goods: ["Laser label printers"],
  },
];

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
