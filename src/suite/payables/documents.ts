import {
  addDays,
  formatUsd,
  longDate,
  renderMarkdown,
  slug,
  toCsv,
  toJsonDocument,
  type GenerateContext,
  type MarkdownBlock,
} from "../../envs/index.js";
import type { Amendment, HoldPlan, RemittanceExport } from "./generate.js";
import {
  AP_POLICY_PATH,
  CFO_THRESHOLD,
  PRICE_TOLERANCE_PERCENT,
  SECOND_APPROVAL_THRESHOLDS,
  VENDOR_CATEGORIES,
  termsOf,
} from "./rules.js";
import type { Invoice, Payment, Vendor, World } from "./world.js";

/** What the generator decided that the documents must say. */
export interface Plan {
  contractVendors: Vendor[];
  contractTerms: Map<Vendor, string>;
  amendments: Amendment[];
  holds: HoldPlan;
  duplicates: Invoice[];
  remittance: RemittanceExport[];
  disputes: Payment[];
}

export const CONTRACTS_DIR = "contracts/";
export const AMENDMENTS_DIR = "contracts/amendments/";
export const MEMOS_DIR = "memos/";
export const REMITTANCE_DIR = "exports/remittance/";
export const INBOX_DIR = "inbox/";

export function writeDocuments(context: GenerateContext, world: World, plan: Plan): void {
  writePolicy(context);
  writeContracts(context, world, plan);
  writeAmendments(context, plan);
  writeMemos(context, world, plan);
  writeRemittance(context, plan);
  writeInbox(context, plan);
}

function writePolicy(context: GenerateContext): void {
  const effective = addDays(context.referenceDate, -181);
  context.writeFile(
    AP_POLICY_PATH,
    renderMarkdown("Accounts payable policy", [
      `Owner: Controller. Effective ${longDate(effective)}. Applies to every vendor invoice entered in the AP ledger.`,
      { heading: "1. Three-way match" },
      "Before an invoice pending approval can be approved, each merchandise line is matched against its purchase order line and the goods receipts for that line. Freight lines are not matched.",
      {
        bullets: [
          `Price: a line is an exception when its invoiced unit price is more than ${PRICE_TOLERANCE_PERCENT}% above the PO unit price. A price at or below the PO price, or up to ${PRICE_TOLERANCE_PERCENT}% above it, is within tolerance.`,
          "Quantity: a line is an exception when its invoiced quantity exceeds the total quantity received so far on that PO line (all receipts to date). There is no quantity tolerance.",
          "An invoice with at least one exception line is a match exception and goes back to the buyer.",
        ],
      },
      { heading: "2. Approvals" },
      "Every invoice needs a level-1 approval. An invoice whose total is over the threshold for its vendor's category also needs a level-2 (second) approval:",
      {
        table: {
          headers: ["vendor category", "second approval required when the total is over"],
          rows: VENDOR_CATEGORIES.map((category) => [
            category,
            formatUsd(SECOND_APPROVAL_THRESHOLDS[category]),
          ]),
        },
      },
      {
        bullets: [
          "The second approval must be given by a controller or the CFO, and never by the person who gave the level-1 approval.",
          `Invoices with a total over ${formatUsd(CFO_THRESHOLD)} need their second approval from the CFO.`,
          "An invoice exactly at a threshold does not need a second approval.",
        ],
      },
      { heading: "3. Duplicate invoices" },
      "Two invoices are potential duplicates when they are from the same vendor, have the same total, and either:",
      {
        bullets: [
          "their vendor invoice numbers are the same after normalising both (in this order: upper case; remove spaces, hyphens, slashes and periods; drop zeros at the start of a run of digits, so `inv-004471`, `INV 4471` and `INV4471` are the same number), or",
          "they bill the same purchase order with identical merchandise lines (same SKUs, quantities and unit prices).",
        ],
      },
      "Of each duplicate pair, the invoice entered later (the higher AP number) is the duplicate. Void invoices are already cancelled and are ignored.",
      { heading: "4. Payment terms and early-payment discounts" },
      "An invoice's payment terms are the vendor's terms in the vendor master, unless a vendor contract in `contracts/` states payment terms for that vendor; then the contract's terms govern, whatever the invoice was keyed with.",
      {
        bullets: [
          "Due date: invoice date plus the net days of the governing terms.",
          "Discount deadline: invoice date plus the discount days of the governing terms; payment must be released on or before that date.",
          "The discount is the discount percent of the merchandise subtotal only (never freight), rounded to cents.",
          "We take discounts only on approved invoices with no payment recorded against them. Invoices pending approval or on hold are not paid early.",
        ],
      },
      { heading: "5. Aging" },
      "The aging report covers every invoice that is not paid or void, including invoices pending approval and on hold, at its open balance: the total less the amounts and discounts of its payments (void payments do not count). Days past due are counted from the due date under the governing terms to the report date; an invoice not yet past due is `current`.",
      {
        table: {
          headers: ["bucket", "days past due"],
          rows: [
            ["current", "0 or less"],
            ["1-30", "1 to 30"],
            ["31-60", "31 to 60"],
            ["61-90", "61 to 90"],
            ["over_90", "more than 90"],
          ],
        },
      },
      { heading: "6. Payment holds" },
      "Treasury announces vendor payment holds and their release by memo (`memos/`). While a vendor is on payment hold, each of its unpaid invoices (pending approval or approved) is put on hold in the ledger. Paid and void invoices are left alone, and invoices already on hold keep their existing reason.",
    ]),
  );
}

function writeContracts(context: GenerateContext, world: World, plan: Plan): void {
  plan.contractVendors.forEach((vendor, index) => {
    const amendment = plan.amendments.find((item) => item.vendor === vendor);
    const contractId = amendment?.contractId ?? `VC-2024-${String(112 + index * 5).padStart(3, "0")}`;
    const terms = termsOf(plan.contractTerms.get(vendor) ?? vendor.terms);
    context.writeFile(
      `${CONTRACTS_DIR}${slug(vendor.name)}.json`,
      toJsonDocument({
        contract_id: contractId,
        type: "supply agreement",
        vendor_id: vendor.id,
        vendor_name: vendor.name,
        effective_from: addDays(world.today, -300 + index * 3),
        effective_to: addDays(world.today, 400 + index * 5),
        payment_terms: {
          terms_code: terms.code,
          description: terms.description,
          note: "These terms apply to every invoice under this agreement and replace any terms on the vendor's invoice forms.",
        },
        pricing: vendor.catalog.map((item) => ({
          sku: item.sku,
          description: item.description,
          unit_price: item.price,
        })),
        freight: "Prepaid and added to the invoice as a separate line.",
        signed_by: { vendor: `${vendor.name} sales director`, buyer: "Rosa Delgado, Purchasing Manager" },
      }),
    );
  });
}

function writeAmendments(context: GenerateContext, plan: Plan): void {
  for (const amendment of plan.amendments) {
    const effective = addDays(context.referenceDate, 1);
    context.writeFile(
      `${AMENDMENTS_DIR}${slug(amendment.vendor.name)}-price-amendment.md`,
      renderMarkdown(`Amendment No. 2 to supply agreement ${amendment.contractId}`, [
        `Between ${amendment.vendor.name} (vendor ${amendment.vendor.id}) and our company. Signed ${longDate(addDays(context.referenceDate, -4))}, effective ${longDate(effective)}.`,
        "Citing higher raw-material costs, the vendor raises the unit prices below. All other prices and terms of the agreement are unchanged.",
        { heading: "Revised unit prices" },
        {
          table: {
            headers: ["SKU", "description", "previous price", "new price"],
            rows: amendment.prices.map((price) => [
              price.item.sku,
              price.item.description,
              formatUsd(price.item.price),
              formatUsd(price.newPrice),
            ]),
          },
        },
        { heading: "Application to open orders" },
        "The new prices apply to this vendor's open purchase orders, on every line for a revised SKU that has not had any quantity received yet. A line with any quantity received keeps its original price for the whole line. Closed and cancelled orders are not repriced.",
      ]),
    );
  }
}

/** A memo to Accounts Payable in `memos/`, dated and named `<date>-<name>.md`. */
function writeMemo(
  context: GenerateContext,
  date: string,
  name: string,
  from: string,
  title: string,
  blocks: MarkdownBlock[],
): void {
  context.writeFile(
    `${MEMOS_DIR}${date}-${name}.md`,
    renderMarkdown(title, [`From: ${from}\nTo: Accounts Payable\nDate: ${longDate(date)}`, ...blocks]),
  );
}

const TREASURY = "Treasury (Nadia Petrov)";
const STOP_PAYMENT =
  "Effective immediately, please stop payment to the vendors below until Treasury releases the hold in writing:";

function writeMemos(context: GenerateContext, world: World, plan: Plan): void {
  const { holds } = plan;
  const { today } = world;
  const files = holds.batches.length;
  holds.batches.forEach((batch, index) => {
    const date = addDays(today, -16 + index * 3);
    writeMemo(context, date, "treasury-payment-holds", TREASURY, "Vendor payment holds", [
      STOP_PAYMENT,
      { bullets: batch.map((entry) => `${entry.vendor.name}: ${entry.reason}`) },
      "Existing holds from earlier memos stay in place unless a memo releases them. Questions to treasury@distributor.example.com.",
    ]);
  });
  writeMemo(context, addDays(today, -2), "treasury-hold-released", TREASURY, "Payment hold released", [
    `We confirmed the new remittance details of ${holds.released.name} by phone with their controller. The payment hold on ${holds.released.name} is lifted as of today; their invoices may go through the normal approval flow again. All other current holds remain in place.`,
  ]);
  writeMemo(context, addDays(today, -77), "treasury-payment-holds", TREASURY, "Vendor payment holds", [
    STOP_PAYMENT,
    { bullets: [`${holds.oldHold.name}: W-9 on file has expired`] },
  ]);
  writeMemo(context, addDays(today, -45), "treasury-hold-released", TREASURY, "Payment hold released", [
    `A current W-9 from ${holds.oldHold.name} is now on file. The payment hold on ${holds.oldHold.name} is lifted; all other current holds remain in place.`,
  ]);
  const noise = [
    [
      "Independence Day payment run",
      "The bank is closed on Friday, July 4. The weekly payment run moves to Thursday, July 3; invoices due on the 4th go out on the 3rd. Cut-off for approvals is Wednesday noon.",
    ],
    [
      "Quarter-end close calendar",
      "Q2 close: accruals for goods received but not invoiced are due on the second business day of July. Please clear match exceptions with buyers before then.",
    ],
    [
      "New scanning inbox for vendor invoices",
      "Vendors should send invoices to invoices@distributor.example.com from now on. Paper invoices received at the warehouses are scanned weekly.",
    ],
    [
      "Reminder: W-9 collection",
      "Purchasing is collecting updated W-9 forms from vendors whose forms are older than three years. This does not put anyone on hold by itself.",
    ],
  ];
  noise.slice(0, files - 1).forEach(([title, body], index) => {
    writeMemo(context, addDays(today, -30 + index * 6), slug(title!), "AP Manager (Carla Jensen)", title!, [
      body!,
    ]);
  });
}

function writeRemittance(context: GenerateContext, plan: Plan): void {
  for (const item of plan.remittance)
    context.writeFile(
      `${REMITTANCE_DIR}remittance-${item.run}.csv`,
      toCsv(
        ["bank_reference", "payee", "amount", "value_date", "method"],
        item.lines.map((line) => [line.reference, line.payee, line.amount.toFixed(2), item.run, line.method]),
      ),
    );
}

/** Vendor emails disputing discounts we deducted: unstructured mail the dispute task reads. */
function writeInbox(context: GenerateContext, plan: Plan): void {
  const openings = ["Hello AP team,", "Good morning,", "Hi there,", "Dear Accounts Payable,"];
  plan.disputes.forEach((payment, index) => {
    const vendor = payment.invoice.vendor;
    const sent = addDays(payment.paidOn, 4 + (index % 5));
    context.writeFile(
      `${INBOX_DIR}${sent}-${slug(vendor.name)}-${payment.reference.toLowerCase()}.md`,
      renderMarkdown(`Re: remittance ${payment.reference}`, [
        `From: ${vendor.email}\nTo: ap@distributor.example.com\nDate: ${longDate(sent)}`,
        openings[index % openings.length]!,
        `we received your payment ${payment.reference} dated ${longDate(payment.paidOn)} for our invoice ${payment.invoice.number}. It is short by ${formatUsd(payment.discountTaken)}, which you deducted as an early-payment discount. As far as we can see the discount period had passed (or does not apply under our agreement), so please send the difference or tell us why the deduction stands.`,
        `Thanks,\nAccounts Receivable\n${vendor.name}`,
      ]),
    );
  });
}
