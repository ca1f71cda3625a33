/** The acquisitions department's fixed vocabulary: id shapes, funds, vendors, notice codes, file paths. */
import { defineIdFormat, prefixedId } from "../../envs/index.js";

export const vendorId = prefixedId("vendor_id", "vendor", "VEN-", 3, "list_vendors");
export const fundCode = defineIdFormat({
  field: "fund_code",
  entity: "fund",
  pattern: /^[A-Z]{2,4}$/,
  example: "AFIC",
  listTool: "list_funds",
});
export const bibId = prefixedId("bib_id", "bib record", "BIB-", 5, "list_bibs");
export const poId = prefixedId("po_id", "purchase order", "PO-", 5, "list_order_lines");
export const lineId = prefixedId("line_id", "order line", "POL-", 6, "list_order_lines");
export const invoiceId = prefixedId("invoice_id", "invoice", "INV-", 5, "list_invoices");
export const requestId = prefixedId("request_id", "purchase request", "REQ-", 5, "list_patron_requests");

export const TODAY = "2025-06-30";
export const FY_START = "2024-07-01";

/** Fund codes with their names and budgets (dollars) at v0; budgets grow with the scale. */
export const FUNDS: Array<[string, string, number]> = [
  ["AFIC", "Adult fiction", 42000],
  ["ANF", "Adult nonfiction", 38000],
  ["JUV", "Children's materials", 30000],
  ["YA", "Teen materials", 16000],
  ["LPRT", "Large print", 9000],
  ["AV", "Audiovisual", 21000],
];

/** Vendors: name, discount off list (percent), claim interval in days (null = the policy's default). */
export const VENDORS: Array<[string, number, number | null]> = [
  ["Harbor Book Jobbers", 40, 45],
  ["Northgate Library Services", 38, null],
  ["Prairie Books Wholesale", 42, 90],
  ["Lakeside Media Services", 15, 30],
  ["Crestline Publishers Direct", 25, null],
  ["Meridian Academic Supply", 35, 75],
];
export const DEFAULT_CLAIM_DAYS = 60;
export const RECENT_CLAIM_DAYS = 30;

/** Shipping-notice status codes, and the ones the cancellation policy cancels. */
export const NOTICE_CODES: Record<string, string> = {
  SH: "SHIPPED",
  BO: "BACKORDERED",
  NYP: "NOT YET PUBLISHED",
  OP: "OUT OF PRINT",
  OSI: "OUT OF STOCK INDEFINITELY",
  PC: "PUBLICATION CANCELLED",
};
export const CANCEL_CODES = ["OP", "OSI", "PC"];

/** Invoice review tolerance: the greater of this share of the expected net unit price and this amount. */
export const PRICE_TOLERANCE_PCT = 2;
export const PRICE_TOLERANCE_USD = 0.25;

/** Patron purchase requests: price caps per format, the oldest publication year, approvals per patron and year. */
export const FORMAT_CAPS: Array<[string, number]> = [
  ["hardcover", 45],
  ["paperback", 25],
  ["large print", 40],
  ["audiobook cd", 60],
  ["dvd", 30],
];
export const OLDEST_PUB_YEAR = 2022;
export const MAX_APPROVALS = 3;

export const PATHS = {
  development: "policies/collection-development.md",
  accounting: "policies/fund-accounting.md",
  invoices: "policies/invoice-review.md",
  claims: "policies/claims-and-cancellations.md",
};
