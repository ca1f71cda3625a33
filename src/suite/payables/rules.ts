import { addDays, roundCents, prefixedId } from "../../envs/index.js";

/**
 * The payables rules written once: id formats, payment terms, and the AP policy's numbers. The generator
 * renders them into the workspace documents; verifiers read the documents back where a task depends on
 * them, and use these values only where the document states them verbatim.
 */

export const vendorId = prefixedId("vendor_id", "vendor", "V-", 4, "list_vendors");
export const poId = prefixedId("po_id", "purchase order", "PO-", 5, "list_purchase_orders");
export const invoiceId = prefixedId("invoice_id", "invoice", "AP-", 5, "list_invoices");
export const receiptId = prefixedId("receipt_id", "receipt", "GR-", 5, "list_receipts");
export const paymentId = prefixedId("payment_id", "payment", "PAY-", 5, "list_payments");

export interface PaymentTerms {
  code: string;
  description: string;
  discountPercent: number;
  discountDays: number;
  netDays: number;
}

const terms = (
  code: string,
  description: string,
  discountPercent: number,
  discountDays: number,
  netDays: number,
): PaymentTerms => ({ code, description, discountPercent, discountDays, netDays });

export const PAYMENT_TERMS: readonly PaymentTerms[] = [
  terms("NET30", "Net 30 days", 0, 0, 30),
  terms("NET45", "Net 45 days", 0, 0, 45),
  terms("NET60", "Net 60 days", 0, 0, 60),
  terms("2-10-NET30", "2% 10 days, net 30", 2, 10, 30),
  terms("1-10-NET30", "1% 10 days, net 30", 1, 10, 30),
  terms("1.5-15-NET45", "1.5% 15 days, net 45", 1.5, 15, 45),
];

const TERMS_BY_CODE = new Map(PAYMENT_TERMS.map((terms) => [terms.code, terms]));

export function termsOf(code: string): PaymentTerms {
  const terms = TERMS_BY_CODE.get(code);
  if (!terms) throw new Error(`unknown payment terms '${code}'`);
  return terms;
}

export const VENDOR_CATEGORIES = ["inventory", "packaging", "freight", "facilities", "it_services"] as const;
export type VendorCategory = (typeof VENDOR_CATEGORIES)[number];

/** Three-way match: an invoiced unit price more than this percent above the PO price is an exception. */
export const PRICE_TOLERANCE_PERCENT = 2;

/** Second approval: required when an invoice total is over the category's threshold (dollars). */
export const SECOND_APPROVAL_THRESHOLDS: Record<VendorCategory, number> = {
  inventory: 25_000,
  packaging: 10_000,
  freight: 5_000,
  facilities: 5_000,
  it_services: 2_500,
};
/** Invoices over this total need their second approval from the CFO. */
export const CFO_THRESHOLD = 50_000;

export const AP_POLICY_PATH = "policies/ap-policy.md";

/** The AP policy's invoice number normalisation for duplicate checks. */
export function normaliseInvoiceNumber(text: string): string {
  return text
    .toUpperCase()
    .replace(/[\s\-/.]/g, "")
    .replace(/(^|[^0-9])0+(?=[0-9])/g, "$1");
}

/** An invoice's due date and (when its terms have one) its discount deadline. */
export function dueDate(invoiceDate: string, terms: PaymentTerms): string {
  return addDays(invoiceDate, terms.netDays);
}

export function discountDeadline(invoiceDate: string, terms: PaymentTerms): string | null {
  return terms.discountPercent > 0 ? addDays(invoiceDate, terms.discountDays) : null;
}

export function discountAmount(subtotal: number, terms: PaymentTerms): number {
  return roundCents((subtotal * terms.discountPercent) / 100);
}

/** The approvers of the AP team: name and role. */
export const APPROVERS: ReadonlyArray<{ name: string; role: "ap_clerk" | "controller" | "cfo" }> = [
  { name: "Dana Whitfield", role: "ap_clerk" },
  { name: "Luis Ortega", role: "ap_clerk" },
  { name: "Priya Raman", role: "ap_clerk" },
  { name: "Megan Cho", role: "controller" },
  { name: "Tom Baptiste", role: "controller" },
  { name: "Helen Marsh", role: "cfo" },
];

/** Aging buckets by days past due, as the AP policy names them. */
export const AGING_BUCKETS = ["current", "1-30", "31-60", "61-90", "over_90"] as const;

export function agingBucket(daysPastDue: number): (typeof AGING_BUCKETS)[number] {
  if (daysPastDue <= 0) return "current";
  if (daysPastDue <= 30) return "1-30";
  if (daysPastDue <= 60) return "31-60";
  if (daysPastDue <= 90) return "61-90";
  return "over_90";
}

/** Vendor contracts are JSON files directly in `contracts/` (amendments live in `contracts/amendments/`). */
export const CONTRACTS_DIR_PATTERN = /^contracts\/[^/]+\.json$/;

/** Today in every instance (the suite's fixed reference date). */
export const TODAY = "2025-06-30";
