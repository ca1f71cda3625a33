import { groupBy, insertDrafts, previousMonth, type GenerateContext } from "../../envs/index.js";
import { writeRetailDocuments } from "./documents.js";
import { makePriceChanges, makeProducts, priceOn } from "./generate-catalog.js";
import { makeCustomers, testAccountIds } from "./generate-customers.js";
import { makeNotices } from "./generate-notices.js";
import { assignFulfilment, makeOrderSkeletons, priceOrders } from "./generate-orders.js";
import { plantPriceMatchHistory } from "./generate-price-match.js";
import {
  makeGoodwillRefunds,
  makeHistoricalReturns,
  makeRequestedReturnsAndWatchList,
  numberReturnsAndRefunds,
} from "./generate-returns.js";
import type { OrderDraft, RefundDraft, RetailData, ReturnDraft } from "./model.js";

/**
 * Fills the store for one scale: catalogue and price history, customers, orders priced from that history,
 * fulfilment, returns and refunds, supplier notices, then the workspace documents. The steps run in this
 * order because each one plants data the next relies on (e.g. recall notices name SKUs of open orders).
 */
export function generateRetail(context: GenerateContext): void {
  const { random, faker, factors } = context;
  const today = context.referenceDate.slice(0, 10);
  const closeMonth = previousMonth(today);
  const merchandisers = [0, 1, 2].map(() => `${faker.person.firstName()} ${faker.person.lastName()}`);

  const products = makeProducts(random, factors.rows);
  const productBySku = new Map(products.map((product) => [product.sku, product]));
  const customers = makeCustomers(context);
  const orders = makeOrderSkeletons(random, today, customers, products, closeMonth, factors.rows);
  const { priceChanges, batchDates } = makePriceChanges(
    random,
    today,
    products,
    orders,
    factors,
    merchandisers,
  );
  priceOrders(orders, productBySku, priceChanges);
  assignFulfilment(random, today, orders, closeMonth, testAccountIds(customers));

  const returns: ReturnDraft[] = [];
  const refunds: RefundDraft[] = [];
  makeHistoricalReturns(random, today, orders, productBySku, returns, refunds);
  makeGoodwillRefunds(random, today, orders, refunds, factors.rows, closeMonth, testAccountIds(customers));
  const watchList = makeRequestedReturnsAndWatchList(context, orders, customers, productBySku, returns);
  const notices = makeNotices(random, today, orders, products, factors);

  numberReturnsAndRefunds(returns, refunds);
  const data: RetailData = {
    today,
    products,
    customers,
    orders,
    priceChanges,
    batchDates,
    returns,
    refunds,
    watchList,
    notices,
    merchandisers,
  };
  insertRows(context, data);
  plantPriceMatchHistory(context, data);
  refreshPaymentStatuses(context);
  writeRetailDocuments(context, data);
}

/** The columns each table's rows are written with, in the schema's order. */
const COLUMNS = {
  customers:
    "id, first_name, last_name, email, phone, city, state, postal_code, loyalty_tier, marketing_opt_in, created_at",
  products: "sku, name, category, brand, supplier, unit_price, unit_cost, stock_on_hand, is_active",
  orders:
    "id, customer_id, placed_at, status, channel, promo_code, subtotal, discount_total, shipping_fee, tax, total, shipping_method, shipped_at, delivered_at, cancel_reason",
  orderLines: "id, order_id, line_number, sku, quantity, unit_price, discount, line_total",
  payments: "id, order_id, method, card_last4, amount, status, captured_at",
  returns:
    "id, order_id, order_line_id, sku, quantity, reason, item_condition, customer_comment, requested_at, status, restocking_fee, decision_note",
  refunds: "id, order_id, order_line_id, payment_id, return_id, kind, amount, created_at, note",
};

function insertRows(context: GenerateContext, data: RetailData): void {
  const { db } = context;
  const changesBySku = groupBy(data.priceChanges, (change) => change.sku);
  insertDrafts(db, "customers", COLUMNS.customers, data.customers);
  insertDrafts(db, "products", COLUMNS.products, data.products, (product) => ({
    unit_price: priceOn(product.sku, data.today, product.basePrice, changesBySku),
    is_active: 1,
  }));
  insertDrafts(db, "orders", COLUMNS.orders, data.orders);
  insertDrafts(
    db,
    "order_lines",
    COLUMNS.orderLines,
    data.orders.flatMap((order) => order.lines),
  );
  insertDrafts(db, "payments", COLUMNS.payments, data.orders, payment);
  insertDrafts(db, "returns", COLUMNS.returns, data.returns, (item) => ({
    order_line_id: item.lineId,
    customer_comment: item.comment,
  }));
  insertDrafts(db, "refunds", COLUMNS.refunds, data.refunds, (refund) => ({ order_line_id: refund.lineId }));
}

/** An order's payment: voided when cancelled, authorized until it ships, then captured at shipping. */
function payment(order: OrderDraft): Record<string, unknown> {
  const status =
    order.status === "cancelled"
      ? "voided"
      : order.status === "pending" || order.status === "processing"
        ? "authorized"
        : "captured";
  return {
    id: order.paymentId,
    order_id: order.id,
    method: order.paymentMethod,
    amount: order.total,
    status,
    captured_at: status === "captured" ? order.shippedAt : null,
  };
}

function refreshPaymentStatuses(context: GenerateContext): void {
  context.db.exec(`
    UPDATE payments SET status = CASE
      WHEN (SELECT SUM(amount) FROM refunds WHERE refunds.payment_id = payments.id) >= payments.amount - 0.005 THEN 'refunded'
      ELSE 'partially_refunded' END
    WHERE status = 'captured' AND EXISTS (SELECT 1 FROM refunds WHERE refunds.payment_id = payments.id);
  `);
}
