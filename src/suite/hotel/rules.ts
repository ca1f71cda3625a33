/**
 * The hotel group's fixed facts: its properties (each with its own regional settings and listing layout),
 * room types, rate plans, folio codes and the PMS address. The rules that turn on them (fees, city tax,
 * attrition, room assignment) are written into workspace documents from here, never read from here by tasks.
 */
import { defineIdFormat } from "../../envs/index.js";

export const PMS_HOST = "https://pms.larkspurhotels.eu";
export const ROWS_PER_PAGE = 10;

export interface Property {
  code: string;
  name: string;
  city: string;
  /** How this property's pages print dates (its regional setting). */
  dateFormat: "D MMM YYYY" | "DD/MM/YYYY" | "YYYY-MM-DD" | "DD.MM.YYYY";
  /** The reservation listing's columns, in this property's order and wording. */
  columns: string[];
  /** City tax: per adult per night (capped) or a percentage of the room rate. */
  cityTax: { basis: "adult-night"; rate: number; maxNights: number } | { basis: "percent"; rate: number };
}

/** Properties in the order the group opened them; a scale with `files` factor f runs the first max(2, f). */
export const PROPERTIES: Property[] = [
  {
    code: "HBR",
    name: "Larkspur Harbour",
    city: "Cork",
    dateFormat: "D MMM YYYY",
    columns: ["Reservation", "Guest", "Arrival", "Departure", "Room", "Status", "Balance"],
    cityTax: { basis: "adult-night", rate: 3, maxNights: 7 },
  },
  {
    code: "MDW",
    name: "Larkspur Meadow",
    city: "Lyon",
    dateFormat: "DD/MM/YYYY",
    columns: ["Reservation", "Arrival", "Departure", "Guest", "Status", "Room", "Balance"],
    cityTax: { basis: "adult-night", rate: 2.2, maxNights: 5 },
  },
  {
    code: "OLD",
    name: "Larkspur Old Town",
    city: "Tallinn",
    dateFormat: "YYYY-MM-DD",
    columns: ["Reservation", "Status", "Guest", "Room", "Check-in", "Check-out", "Balance"],
    cityTax: { basis: "percent", rate: 5 },
  },
  {
    code: "RVR",
    name: "Larkspur Riverside",
    city: "Munich",
    dateFormat: "DD.MM.YYYY",
    columns: ["Reservation", "Guest", "Room", "Arrival", "Departure", "Balance", "Status"],
    cityTax: { basis: "adult-night", rate: 4, maxNights: 14 },
  },
];

export const propertyCount = (files: number): number => Math.max(2, Math.min(PROPERTIES.length, files));

export const ROOM_TYPES: Record<string, { name: string; base: number }> = {
  STD: { name: "Standard Double", base: 112 },
  TWN: { name: "Twin", base: 118 },
  DLX: { name: "Deluxe King", base: 154 },
  STE: { name: "Junior Suite", base: 238 },
};

export interface RatePlan {
  code: string;
  name: string;
  factor: number;
  /** Days before arrival up to which cancelling is free (null: never free / per contract). */
  freeDays: number | null;
  lateFeePct: number;
  noShowFeePct: number;
  terms: string;
}

export const RATE_PLANS: RatePlan[] = [
  {
    code: "BAR",
    name: "Flexible rate",
    factor: 1,
    freeDays: 2,
    lateFeePct: 100,
    noShowFeePct: 100,
    terms: "pay at the hotel",
  },
  {
    code: "CORP",
    name: "Corporate",
    factor: 0.9,
    freeDays: 1,
    lateFeePct: 50,
    noShowFeePct: 100,
    terms: "pay at the hotel or direct bill",
  },
  {
    code: "ADV",
    name: "Advance purchase",
    factor: 0.82,
    freeDays: null,
    lateFeePct: 0,
    noShowFeePct: 0,
    terms: "prepaid at booking, non-refundable",
  },
  {
    code: "GRP",
    name: "Group",
    factor: 0,
    freeDays: null,
    lateFeePct: 0,
    noShowFeePct: 0,
    terms: "per the group contract",
  },
];
export const planOf = (code: string): RatePlan => RATE_PLANS.find((plan) => plan.code === code)!;

export const STATUS_LABEL: Record<string, string> = {
  booked: "Confirmed",
  in_house: "In house",
  checked_out: "Checked out",
  cancelled: "Cancelled",
  no_show: "No-show",
};

export const PAYMENT_METHODS = [
  "Card on file",
  "Cash",
  "Direct bill (city ledger)",
  "Channel collect (virtual card)",
];
export const DIRECT_BILL = PAYMENT_METHODS[2]!;

/** Folio codes; the last four may be posted from the folio's form. */
export const FOLIO_CODES: Record<string, string> = {
  ROOM: "Room charge",
  BKFST: "Breakfast",
  FNB: "Restaurant & bar",
  PARK: "Parking",
  PAY: "Payment",
  CTAX: "City tax",
  NOSHOW: "No-show fee",
  LATECXL: "Late cancellation fee",
  MISC: "Miscellaneous",
};
export const POSTABLE_CODES = ["CTAX", "NOSHOW", "LATECXL", "MISC"];

export const CHANNELS = ["Direct", "Phone", "Booking.com", "Expedia"];
export const OTA_CHANNELS = ["Booking.com", "Expedia"];
export const EXPEDIA_COMMISSION_PCT = 18;

/** Group contract terms (written into policies/group-blocks.md). */
export const ATTRITION_PCT = 80;
export const WRITE_OFF_BELOW = 10;

export const reservationId = defineIdFormat({
  field: "reservation_id",
  entity: "reservation",
  prefix: "R-",
  digits: 6,
  listTool: "list_reservations",
});
export const groupCode = /^GB-\d{4}$/;
