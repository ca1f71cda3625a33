import { defineIdFormat } from "../../envs/index.js";

/** One id shape per entity: the generator formats with these, the back office's routes match them. */
export const sellerId = defineIdFormat({ field: "seller_id", entity: "seller", prefix: "SL-", digits: 5 });
export const orderId = defineIdFormat({ field: "order_id", entity: "order", prefix: "ORD-", digits: 7 });
export const disputeId = defineIdFormat({
  field: "dispute_id",
  entity: "dispute",
  prefix: "DSP-",
  digits: 5,
});
export const refundId = defineIdFormat({ field: "refund_id", entity: "refund", prefix: "RF-", digits: 6 });
export const TRACKING = /^[A-Z]{2}\d{10}$/;

export const BACK_OFFICE = "https://backoffice.harborline.market";
export const PAGE_SIZE = 10;

/** The dispute-resolution policy's numbers (written into the policy document, read back by verifiers). */
export const RESPONSE_WINDOW = { not_received: 3, not_as_described: 5 } as const;
export type Reason = keyof typeof RESPONSE_WINDOW;
export const REASON_LABEL: Record<Reason, string> = {
  not_received: "Item not received",
  not_as_described: "Not as described",
};
export const ESCALATION_CODE = "NO-SELLER-RESPONSE";
export const HOLD_CODE = "DEFECT-RATE";
/** Seller performance: the defect-rate limit (percent) over the last complete months, and the minimum volume. */
export const DEFECT_LIMIT_PCT = 2.5;
export const DEFECT_WINDOW_MONTHS = 3;
export const DEFECT_MIN_ORDERS = 40;

export const DISPUTE_STATUSES = [
  "awaiting_seller",
  "seller_responded",
  "escalated",
  "refunded",
  "closed",
] as const;
export const OPEN_STATUSES = ["awaiting_seller", "seller_responded", "escalated"];

export const CARRIERS = { UP: "Parcelway", SF: "SwiftFreight", NX: "Nexpost" } as const;

/** How a buyer answers a partial-refund offer: the first group accepts it, the second does not. */
export const ACCEPTS = [
  "I accept the partial refund, thank you.",
  "Deal, I accept. Please send it.",
  "OK, I accept that offer and will keep the item.",
];
export const DECLINES = [
  "I do not accept a partial refund. I want to return it for my money back.",
  "No, that is not enough. I won't accept less than a full refund.",
];
/** A buyer message accepts the offer when it opens with one of the accepting phrases. */
export const ACCEPT_OPENINGS = ["I accept", "Deal, I accept", "OK, I accept"];
