import { defineIdFormat, roundCents } from "../../envs/index.js";

/** Ids, document paths and the business rules the generator writes into the workspace documents. */
export const customerId = defineIdFormat({
  field: "customer_id",
  entity: "customer",
  prefix: "CUS-",
  digits: 5,
  listTool: "list_customers",
});
export const subscriptionId = defineIdFormat({
  field: "subscription_id",
  entity: "subscription",
  prefix: "SUB-",
  digits: 5,
  listTool: "list_subscriptions",
});
export const invoiceId = defineIdFormat({
  field: "invoice_id",
  entity: "invoice",
  prefix: "INV-",
  digits: 6,
  listTool: "list_invoices",
});
export const paymentId = defineIdFormat({
  field: "payment_id",
  entity: "payment",
  prefix: "PAY-",
  digits: 6,
  listTool: "list_payments",
});
export const creditNoteId = defineIdFormat({
  field: "credit_note_id",
  entity: "credit note",
  prefix: "CN-",
  digits: 5,
  listTool: "list_credit_notes",
});

export const PATHS = {
  dunning: "policies/dunning-policy.md",
  priceBook: "policies/price-book.md",
  pricingMemo: "memos/2025-05-pricing-change.md",
  sla: "policies/sla-credit-policy.md",
  uptime: "reports/uptime-2025-05.csv",
  creditPolicy: "policies/credit-request-policy.md",
  contractsDir: "contracts",
  inboxDir: "support/inbox",
  /** Written by the receivables-aging task only. */
  aging: "policies/receivables-aging.md",
} as const;

/** The negotiated terms of an enterprise contract, as its excerpt in the workspace states them. */
export interface ContractTerms {
  contract_id: string;
  customer_id: string;
  subscription_id: string;
  discount_pct: number;
  discount_cap_per_invoice: number;
  committed_seats: number;
  max_seats: number;
}

export interface PlanSpec {
  code: string;
  name: string;
  seatPrice: number;
  includedCalls: number;
  slaEligible: boolean;
  /** Graduated tiers over the calls beyond the included allowance: [from, to | null, price per 1000]. */
  tiers: Array<[number, number | null, number]>;
}

export const PLANS: PlanSpec[] = [
  {
    code: "STARTER",
    name: "Starter",
    seatPrice: 15,
    includedCalls: 50_000,
    slaEligible: false,
    tiers: [
      [0, 100_000, 0.9],
      [100_000, null, 0.7],
    ],
  },
  {
    code: "TEAM",
    name: "Team",
    seatPrice: 39,
    includedCalls: 200_000,
    slaEligible: false,
    tiers: [
      [0, 250_000, 0.6],
      [250_000, 1_000_000, 0.45],
      [1_000_000, null, 0.3],
    ],
  },
  {
    code: "BUSINESS",
    name: "Business",
    seatPrice: 69,
    includedCalls: 500_000,
    slaEligible: true,
    tiers: [
      [0, 500_000, 0.5],
      [500_000, 2_000_000, 0.35],
      [2_000_000, null, 0.2],
    ],
  },
  {
    code: "ENTERPRISE",
    name: "Enterprise",
    seatPrice: 119,
    includedCalls: 2_000_000,
    slaEligible: true,
    tiers: [
      [0, 2_000_000, 0.3],
      [2_000_000, null, 0.18],
    ],
  },
];

/** Graduated pricing: each slice of the overage is priced at its own tier. */
export function graduatedCharge(overage: number, tiers: PlanSpec["tiers"]): number {
  let charge = 0;
  for (const [from, to, price] of tiers) {
    if (overage <= from) break;
    const slice = Math.min(overage, to ?? Infinity) - from;
    charge += (slice / 1000) * price;
  }
  return roundCents(charge);
}

export const DUNNING = {
  /** Retry attempt number -> days after the first failed attempt. */
  retryDays: [
    [2, 3],
    [3, 7],
    [4, 14],
  ] as Array<[number, number]>,
  hardDeclines: ["stolen_card", "do_not_honor", "account_closed"],
  softDeclines: ["insufficient_funds", "card_expired", "processing_error"],
  suspendAfterDays: 45,
};

export const PRICE_CHANGE = {
  announcedOn: "2025-05-12",
  effective: "2025-07-01",
  grandfatherStartedBefore: "2025-04-01",
  newPrices: { TEAM: 45, BUSINESS: 79 } as Record<string, number>,
};

export const SLA = {
  month: "2025-05",
  days: 31,
  /** Monthly uptime below `below` percent earns `creditPct` percent of the month's seat charges. */
  tiers: [
    [99.9, 10],
    [99.0, 25],
    [95.0, 50],
  ] as Array<[number, number]>,
};

export const CREDIT_REQUESTS = { windowDays: 30, capPct: 20 };
