import type { GenerateContext } from "../../envs/index.js";
import { addDays, longDate, renderEmail, renderMarkdown } from "../../envs/index.js";
import {
  ACCEPT_OPENINGS,
  DEFECT_LIMIT_PCT,
  DEFECT_MIN_ORDERS,
  DEFECT_WINDOW_MONTHS,
  ESCALATION_CODE,
  HOLD_CODE,
  REASON_LABEL,
  RESPONSE_WINDOW,
} from "./rules.js";

export const DISPUTE_POLICY = "policies/dispute-resolution.md";
export const PERFORMANCE_POLICY = "policies/seller-performance.md";
export const REFUND_POLICY = "policies/refund-ledger.md";
export const SCAN_REFERENCE = "reference/carrier-scans.md";
const WORDS = ["zero", "one", "two", "three", "four", "five", "six"];

function writePolicies(context: GenerateContext, today: string): void {
  context.writeFile(
    DISPUTE_POLICY,
    renderMarkdown("Dispute resolution policy (disputes desk)", [
      `Version 4, in force since ${longDate(addDays(today, -210))}. Applies to every case opened on Harborline Market.`,
      { heading: "Seller response windows" },
      "A seller must answer a new case in the case thread within the window below, counted in business days (Monday to Friday) from the day the case was opened. The deadline is the last day of the window: a case still awaiting the seller on a later day is overdue. E-mails to the desk do not count as a response.",
      {
        table: {
          headers: ["case reason", "response window (business days)"],
          rows: Object.entries(RESPONSE_WINDOW).map(([reason, days]) => [
            REASON_LABEL[reason as keyof typeof RESPONSE_WINDOW],
            days,
          ]),
        },
      },
      `Escalate each overdue case with the case action "escalate" and reason code ${ESCALATION_CODE}.`,
      { heading: "Escalated item-not-received cases" },
      `The desk decides escalated item-not-received cases on the carrier's tracking alone, read from the tracking page linked on the order. The carrier's most recent scan decides: when it shows the parcel delivered (see ${SCAN_REFERENCE}), close the case for the seller ("close_for_seller"); otherwise refund the buyer in full ("refund_full"): the order total, item price plus shipping.`,
      { heading: "Partial-refund offers" },
      `On a not-as-described case where the seller has responded, a seller may offer a partial refund in the thread. When the buyer's most recent message accepts the offer (it begins with "${ACCEPT_OPENINGS.join('", "')}"), settle the case with "refund_partial" for the amount of the seller's most recent offer. A buyer who declines, or has not answered, is left alone.`,
    ]),
  );
  context.writeFile(
    PERFORMANCE_POLICY,
    renderMarkdown("Seller performance standards", [
      `Issued by Marketplace Quality, ${longDate(addDays(today, -120))}.`,
      { heading: "Order defect rate" },
      `A seller's order defect rate is the defects divided by the orders over the last ${WORDS[DEFECT_WINDOW_MONTHS]} complete calendar months, pooled (total defects over total orders, not an average of the monthly rates). The month in progress is never counted.`,
      `The limit is ${DEFECT_LIMIT_PCT}%. A seller above it is over the limit, but only when they had at least ${DEFECT_MIN_ORDERS} orders over those months; smaller sellers are reviewed by hand instead.`,
      { heading: "Performance holds" },
      `Place an active seller who is over the limit on hold from their seller page with reason code ${HOLD_CODE}. Sellers already on hold are left as they are.`,
    ]),
  );
  context.writeFile(
    REFUND_POLICY,
    renderMarkdown("Refund ledger: how to read it", [
      "Every refund paid to a buyer is a row of the refund ledger (/refunds), issued or reversed.",
      {
        bullets: [
          "A reversed refund was clawed back by the payment processor before it settled: it paid nothing and is left out of every refund total.",
          "An order is overpaid when its issued refunds add up to more than the order total; the overpayment is the difference.",
          "Refunds are attributed to the seller of the order (shown on the order page), in the month they were issued.",
        ],
      },
    ]),
  );
  context.writeFile(
    SCAN_REFERENCE,
    renderMarkdown("Carrier scan reference", [
      "Parcelway, SwiftFreight and Nexpost scans, as the tracking widget shows them (newest scan first).",
      {
        table: {
          headers: ["scan", "meaning", "delivered?"],
          rows: [
            ["Label created", "The seller printed a label; the carrier does not have the parcel yet", "no"],
            ["In transit / Arrived at facility", "Moving through the network", "no"],
            ["Out for delivery", "On the van for delivery today", "no"],
            ["Delivery attempted", "Nobody could take the parcel; a notice was left", "no"],
            ["Delivered", "Handed over or left at the address", "yes"],
            ["Delivered to parcel locker", "Placed in a parcel locker; the buyer was sent the code", "yes"],
            ["Returned to sender", "On its way back to the seller", "no"],
          ],
        },
      },
    ]),
  );
}

const NOISE: Array<[string, string, string]> = [
  [
    "Parcelway Business <noreply@parcelway.example>",
    "Service notice",
    "Sorting delays at our Memphis hub may add a day to some shipments this week.",
  ],
  [
    "IT Service Desk <it@harborline.market>",
    "Back office maintenance",
    "The back office may show a browser check page or 503 errors during the nightly deploy; reload and it will pass.",
  ],
  [
    "Marketplace Quality <quality@harborline.market>",
    "Monthly metrics refreshed",
    "Seller performance tables were refreshed on the first of the month.",
  ],
  [
    "Desk lead <lead@harborline.market>",
    "Reminder",
    "Please keep case notes in the case thread, not in e-mail.",
  ],
  [
    "Finance Ops <finance@harborline.market>",
    "Refund reconciliation",
    "We are reconciling double-paid refunds for the quarter; the ledger is the source of truth.",
  ],
];

/** A seller writing to the desk (such e-mails are not responses in the case thread). */
function sellerEmail(context: GenerateContext, sent: string): string {
  const { faker, random } = context;
  const name = faker.person.fullName();
  return renderEmail(
    {
      From: `${name} <${faker.internet.email()}>`,
      To: "disputes@harborline.market",
      Sent: longDate(sent),
      Subject: `Re: case DSP-${random.int(20000, 29999)}`,
    },
    [
      "Hello,",
      "I already replied to the buyer by e-mail and shipped a replacement. Please close the case.",
      name,
    ],
  );
}

/** The workspace: three policies, the carrier scan reference and the desk inbox (nine e-mails per file factor). */
export function writeMarketplaceDocuments(context: GenerateContext): void {
  const { random, referenceDate: today } = context;
  writePolicies(context, today);
  const count = 9 * context.factors.files;
  for (let index = 1; index <= count; index += 1) {
    const sent = addDays(today, -random.int(1, 25));
    const [from, subject, body] = random.pick(NOISE);
    const text = random.chance(0.4)
      ? sellerEmail(context, sent)
      : renderEmail(
          { From: from, To: "disputes@harborline.market", Sent: longDate(sent), Subject: subject },
          [body],
        );
    context.writeFile(`inbox/${String(index).padStart(3, "0")}.eml`, text);
  }
}
