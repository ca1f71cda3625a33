/** In-memory drafts the generator builds before writing rows and documents. */

export interface ProductDraft {
  sku: string;
  name: string;
  category: string;
  brand: string;
  supplier: string;
  basePrice: number;
  unitCost: number;
  stockOnHand: number;
  popularity: number;
}

export interface CustomerDraft {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  city: string;
  state: string;
  postalCode: string;
  loyaltyTier: "standard" | "silver" | "gold";
  marketingOptIn: boolean;
  createdAt: string;
  kind: "shopper" | "test" | "employee";
  weight: number;
}

export interface LineDraft {
  id: number;
  orderId: number;
  lineNumber: number;
  sku: string;
  quantity: number;
  unitPrice: number;
  discount: number;
  lineTotal: number;
}

export type OrderStatus = "pending" | "processing" | "shipped" | "delivered" | "cancelled";

export interface OrderDraft {
  id: number;
  customerId: number;
  placedDate: string;
  placedAt: string;
  daysAgo: number;
  status: OrderStatus;
  channel: string;
  promoCode: string | null;
  lines: LineDraft[];
  subtotal: number;
  discountTotal: number;
  shippingFee: number;
  tax: number;
  total: number;
  shippingMethod: "standard" | "expedited";
  shippedAt: string | null;
  deliveredAt: string | null;
  cancelReason: string | null;
  paymentId: number;
  paymentMethod: string;
  cardLast4: string | null;
  /** Generator-only: never cancelled (test-account orders finance must see). */
  pinned: boolean;
}

export interface PriceChangeDraft {
  sku: string;
  productName: string;
  oldPrice: number;
  newPrice: number;
  effectiveDate: string;
  reason: string;
  approvedBy: string;
}

export interface ReturnDraft {
  id: number;
  orderId: number;
  lineId: number;
  sku: string;
  quantity: number;
  reason: string;
  itemCondition: "unopened" | "opened" | "damaged";
  comment: string | null;
  requestedAt: string;
  status: "requested" | "approved" | "rejected" | "escalated" | "received" | "refunded";
  restockingFee: number;
  decisionNote: string | null;
}

export interface RefundDraft {
  id: number;
  orderId: number;
  lineId: number;
  paymentId: number;
  returnId: number | null;
  kind: "return" | "price_match" | "goodwill";
  amount: number;
  createdAt: string;
  note: string | null;
  /** Generator-only: the return this refund pays out, to link ids once returns are numbered. */
  source?: ReturnDraft;
}

export interface WatchListEntry {
  email: string;
  customerName: string;
  reason: string;
  addedOn: string;
  status: "active" | "cleared";
  addedBy: string;
}

export interface NoticeDraft {
  noticeId: string;
  supplier: string;
  issued: string;
  type:
    | "Product recall"
    | "Recall update"
    | "Packaging change"
    | "Product discontinuation"
    | "Wholesale cost change";
  amends: string | null;
  affected: string[];
  removed: string[];
  added: string[];
}

export interface RetailData {
  today: string;
  products: ProductDraft[];
  customers: CustomerDraft[];
  orders: OrderDraft[];
  priceChanges: PriceChangeDraft[];
  batchDates: string[];
  returns: ReturnDraft[];
  refunds: RefundDraft[];
  watchList: WatchListEntry[];
  notices: NoticeDraft[];
  merchandisers: string[];
}
