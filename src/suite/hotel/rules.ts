/**
 * The hotel group's fixed facts: its properties (each with its own regional settings and listing layout),
 * room types, rate plans, folio codes and the PMS address. The rules that turn on them (fees, city tax,
 * attrition, room assignment) are written into workspace documents from here; verifiers read the documents.
 */
import { defineIdFormat } from "../../envs/index.js";

export const PMS_HOST = "https://pms.larkspurhotels.eu";
export const ROWS_PER_PAGE = 10;

export interface Property {
  code: string;
  name: string;
  city: string;
  /** How this property's pages print dates (its regional setting). */
  dateFormat: string;
  /** The reservation listing's columns, in this property's order and wording. */
  columns: string[];
  /** City tax: per adult per night (capped) or a percentage of the room rate. */
  cityTax: { basis: "adult-night"; rate: number; maxNights: number } | { basis: "percent"; rate: number };
}

/** `code;name;city;date format;listing columns after Reservation;city tax`: `3/7` is €3 per adult per night
 * for up to 7 nights, `4%` a percentage of the rate (4% of whole cents never lands on a half cent; 5% would). */
const property = (line: string): Property => {
  const [code = "", name = "", city = "", dateFormat = "", columns = "", tax = ""] = line.split(";");
  const [rate, maxNights] = tax.replace("%", "").split("/").map(Number) as [number, number];
  const cityTax = tax.endsWith("%")
    ? { basis: "percent" as const, rate }
    : { basis: "adult-night" as const, rate, maxNights };
  return { code, name, city, dateFormat, columns: ["Reservation", ...columns.split(",")], cityTax };
};

/** Properties in the order the group opened them; a scale with `files` factor f runs the first max(2, f). */
export const PROPERTIES: Property[] = [
  property("HBR;Larkspur Harbour;Cork;D MMM YYYY;Guest,Arrival,Departure,Room,Status,Balance;3/7"),
  property("MDW;Larkspur Meadow;Lyon;DD/MM/YYYY;Arrival,Departure,Guest,Status,Room,Balance;2.2/5"),
  property("OLD;Larkspur Old Town;Tallinn;YYYY-MM-DD;Status,Guest,Room,Check-in,Check-out,Balance;4%"),
  property("RVR;Larkspur Riverside;Munich;DD.MM.YYYY;Guest,Room,Arrival,Departure,Balance,Status;4/14"),
];

export const propertyCount = (files: number): number => Math.max(2, Math.min(PROPERTIES.length, files));

export const ROOM_TYPES: Record<string, { name: string; base: number }> = {
  STD: { name: "Standard Double", base: 112 },
  TWN: { name: "Twin", base: 118 },
  DLX: { name: "Deluxe King", base: 154 },
  STE: { name: "Junior Suite", base: 238 },
};

/** Rate plans: price factor, days of free cancellation (null: never free), late and no-show fees in % of a night. */
export interface RatePlan {
  code: string;
  name: string;
  factor: number;
  freeDays: number | null;
  lateFeePct: number;
  noShowFeePct: number;
  terms: string;
}
const plan = (code: string, name: string, numbers: Array<number | null>, terms: string): RatePlan => {
  const [factor, freeDays, lateFeePct, noShowFeePct] = numbers as [number, number | null, number, number];
  return { code, name, factor, freeDays, lateFeePct, noShowFeePct, terms };
};
export const RATE_PLANS: RatePlan[] = [
  plan("BAR", "Flexible rate", [1, 2, 100, 100], "pay at the hotel"),
  plan("CORP", "Corporate", [0.9, 1, 50, 100], "pay at the hotel or direct bill"),
  plan("ADV", "Advance purchase", [0.82, null, 0, 0], "prepaid at booking, non-refundable"),
  plan("GRP", "Group", [0, null, 0, 0], "per the group contract"),
];
export const planOf = (code: string): RatePlan => RATE_PLANS.find((item) => item.code === code)!;

export const STATUS_LABEL: Record<string, string> = {
  booked: "Confirmed",
  in_house: "In house",
  checked_out: "Checked out",
  cancelled: "Cancelled",
  no_show: "No-show",
};

export const DIRECT_BILL = "Direct bill (city ledger)";
export const CHANNEL_COLLECT = "Channel collect (virtual card)";

/** Folio codes; the last four may be posted from the folio's form. */
export const FOLIO_CODES: Record<string, string> = Object.fromEntries(
  "ROOM Room charge|BKFST Breakfast|FNB Restaurant & bar|PARK Parking|PAY Payment|CTAX City tax|NOSHOW No-show fee|LATECXL Late cancellation fee|MISC Miscellaneous"
    .split("|")
    .map((item) => [item.slice(0, item.indexOf(" ")), item.slice(item.indexOf(" ") + 1)]),
);
export const POSTABLE_CODES = ["CTAX", "NOSHOW", "LATECXL", "MISC"];

export const OTA_CHANNELS = ["Booking.com", "Expedia"];
export const EXPEDIA_COMMISSION_PCT = 18;
/** Group contract and receivables terms (written into the policies). */
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
