import { ELECTRONICS_CATEGORY, GIFT_CARD_CATEGORY, PERSONAL_CARE_CATEGORY } from "./catalog.js";

/**
 * The store's business rules. The generator writes them into the workspace policy documents (the only
 * place an agent can learn them) and the verifiers apply the same values, so the two cannot drift.
 */
export const RETURN_POLICY = {
  standardWindowDays: 30,
  categoryWindowDays: { [ELECTRONICS_CATEGORY]: 15, Apparel: 45 } as Record<string, number>,
  defectReasons: ["defective", "damaged_in_transit"],
  defectWindowDays: 60,
  finalSaleCategories: [GIFT_CARD_CATEGORY],
  unopenedOnlyCategories: [PERSONAL_CARE_CATEGORY],
  restockingFeePercent: 15,
  restockingFeeCategories: [ELECTRONICS_CATEGORY],
  approvalThresholdUsd: 400,
};

export interface ReturnFacts {
  category: string;
  reason: string;
  itemCondition: string;
  daysSinceDelivery: number;
  /** Line total per unit times the returned quantity, before any restocking fee. */
  merchandiseValue: number;
  customerWatchListed: boolean;
}

export interface ReturnDecision {
  status: "approved" | "rejected" | "escalated";
  restockingFeePercent: number;
  rule: string;
}

export function returnWindowDays(category: string, reason: string): number {
  const categoryWindow = RETURN_POLICY.categoryWindowDays[category] ?? RETURN_POLICY.standardWindowDays;
  return RETURN_POLICY.defectReasons.includes(reason)
    ? Math.max(categoryWindow, RETURN_POLICY.defectWindowDays)
    : categoryWindow;
}

/** The policy's decision order: fraud screen, non-returnable items, window, approval threshold, fee. */
export function decideReturn(facts: ReturnFacts): ReturnDecision {
  if (facts.customerWatchListed)
    return { status: "escalated", restockingFeePercent: 0, rule: "fraud watch list" };
  if (RETURN_POLICY.finalSaleCategories.includes(facts.category))
    return { status: "rejected", restockingFeePercent: 0, rule: "final sale" };
  if (RETURN_POLICY.unopenedOnlyCategories.includes(facts.category) && facts.itemCondition !== "unopened")
    return { status: "rejected", restockingFeePercent: 0, rule: "opened hygiene item" };
  if (facts.daysSinceDelivery > returnWindowDays(facts.category, facts.reason))
    return { status: "rejected", restockingFeePercent: 0, rule: "outside return window" };
  if (facts.merchandiseValue > RETURN_POLICY.approvalThresholdUsd)
    return { status: "escalated", restockingFeePercent: 0, rule: "above approval threshold" };
  const fee =
    RETURN_POLICY.restockingFeeCategories.includes(facts.category) &&
    facts.itemCondition === "opened" &&
    !RETURN_POLICY.defectReasons.includes(facts.reason)
      ? RETURN_POLICY.restockingFeePercent
      : 0;
  return { status: "approved", restockingFeePercent: fee, rule: fee > 0 ? "approve with fee" : "approve" };
}

export const PRICE_MATCH_POLICY = {
  standardWindowDays: 14,
  goldWindowDays: 30,
  excludedReasons: ["clearance"],
};

export function priceMatchWindowDays(loyaltyTier: string): number {
  return loyaltyTier === "gold" ? PRICE_MATCH_POLICY.goldWindowDays : PRICE_MATCH_POLICY.standardWindowDays;
}

export interface Promotion {
  code: string;
  title: string;
  percentOff: number;
  /** Categories the code never discounts. */
  excludedCategories: string[];
  /** When set, the only categories the code discounts. */
  onlyCategories: string[] | null;
  /** Validity relative to the reference date, in days (negative = before). */
  startOffsetDays: number;
  endOffsetDays: number;
}

export const PROMOTIONS: Promotion[] = [
  {
    code: "SAVE10",
    title: "Newsletter welcome code",
    percentOff: 10,
    excludedCategories: [GIFT_CARD_CATEGORY],
    onlyCategories: null,
    startOffsetDays: -400,
    endOffsetDays: 200,
  },
  {
    code: "FLASH20",
    title: "Outdoor & apparel flash sale",
    percentOff: 20,
    excludedCategories: [GIFT_CARD_CATEGORY],
    onlyCategories: ["Apparel", "Sports & Outdoors"],
    startOffsetDays: -44,
    endOffsetDays: -40,
  },
  {
    code: "SALE15",
    title: "Seasonal sale event",
    percentOff: 15,
    excludedCategories: [GIFT_CARD_CATEGORY, ELECTRONICS_CATEGORY],
    onlyCategories: null,
    startOffsetDays: -3,
    endOffsetDays: 3,
  },
];

export function promotionApplies(promotion: Promotion, category: string): boolean {
  if (promotion.excludedCategories.includes(category)) return false;
  return promotion.onlyCategories === null || promotion.onlyCategories.includes(category);
}

export const CANCEL_REASONS = [
  "customer_request",
  "payment_failed",
  "out_of_stock",
  "supplier_recall",
  "fraud_suspected",
] as const;

export const SHIPPING = {
  freeThresholdUsd: 75,
  standardFeeUsd: 6.95,
  expeditedFeeUsd: 14.95,
  taxRate: 0.0725,
};
