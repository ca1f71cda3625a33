import { previousMonth, type GenerateContext } from "../../envs/index.js";
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
import type { PriceChangeDraft, RefundDraft, RetailData, ReturnDraft } from "./model.js";

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

function insertRows(context: GenerateContext, data: RetailData): void {
  const { db } = context;
  const changesBySku = new Map<string, PriceChangeDraft[]>();
  for (const change of data.priceChanges)
    changesBySku.set(change.sku, [...(changesBySku.get(change.sku) ?? []), change]);
  const insertCustomer = db.prepare(
    "INSERT INTO customers (id, first_name, last_name, email, phone, city, state, postal_code, loyalty_tier, marketing_opt_in, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  for (const customer of data.customers)
    insertCustomer.run(
      customer.id,
      customer.firstName,
      customer.lastName,
      customer.email,
      customer.phone,
      customer.city,
      customer.state,
      customer.postalCode,
      customer.loyaltyTier,
      customer.marketingOptIn ? 1 : 0,
      customer.createdAt,
    );
  const insertProduct = db.prepare(
    "INSERT INTO products (sku, name, category, brand, supplier, unit_price, unit_cost, stock_on_hand, is_active) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  for (const product of data.products)
    insertProduct.run(
      product.sku,
      product.name,
      product.category,
      product.brand,
      product.supplier,
      priceOn(product.sku, data.today, product.basePrice, changesBySku),
      product.unitCost,
      product.stockOnHand,
      1,
    );
  const insertOrder = db.prepare(
    "INSERT INTO orders (id, customer_id, placed_at, status, channel, promo_code, subtotal, discount_total, shipping_fee, tax, total, shipping_method, shipped_at, delivered_at, cancel_reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const insertLine = db.prepare(
    "INSERT INTO order_lines (id, order_id, line_number, sku, quantity, unit_price, discount, line_total) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const insertPayment = db.prepare(
    "INSERT INTO payments (id, order_id, method, card_last4, amount, status, captured_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  for (const order of data.orders) {
    insertOrder.run(
      order.id,
      order.customerId,
      order.placedAt,
      order.status,
      order.channel,
      order.promoCode,
      order.subtotal,
      order.discountTotal,
      order.shippingFee,
      order.tax,
      order.total,
      order.shippingMethod,
      order.shippedAt,
      order.deliveredAt,
      order.cancelReason,
    );
    for (const line of order.lines)
      insertLine.run(
        line.id,
        line.orderId,
        line.lineNumber,
        line.sku,
        line.quantity,
        line.unitPrice,
        line.discount,
        line.lineTotal,
      );
    const paymentStatus =
      order.status === "cancelled"
        ? "voided"
        : order.status === "pending" || order.status === "processing"
          ? "authorized"
          : "captured";
    insertPayment.run(
      order.paymentId,
      order.id,
      order.paymentMethod,
      order.cardLast4,
      order.total,
      paymentStatus,
      paymentStatus === "captured" ? order.shippedAt : null,
    );
  }
  const insertReturn = db.prepare(
    "INSERT INTO returns (id, order_id, order_line_id, sku, quantity, reason, item_condition, customer_comment, requested_at, status, restocking_fee, decision_note) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  for (const item of data.returns)
    insertReturn.run(
      item.id,
      item.orderId,
      item.lineId,
      item.sku,
      item.quantity,
      item.reason,
      item.itemCondition,
      item.comment,
      item.requestedAt,
      item.status,
      item.restockingFee,
      item.decisionNote,
    );
  const insertRefund = db.prepare(
    "INSERT INTO refunds (id, order_id, order_line_id, payment_id, return_id, kind, amount, created_at, note) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  for (const refund of data.refunds)
    insertRefund.run(
      refund.id,
      refund.orderId,
      refund.lineId,
      refund.paymentId,
      refund.returnId,
      refund.kind,
      refund.amount,
      refund.createdAt,
      refund.note,
    );
}

function refreshPaymentStatuses(context: GenerateContext): void {
  context.db.exec(`
    UPDATE payments SET status = CASE
      WHEN (SELECT SUM(amount) FROM refunds WHERE refunds.payment_id = payments.id) >= payments.amount - 0.005 THEN 'refunded'
      ELSE 'partially_refunded' END
    WHERE status = 'captured' AND EXISTS (SELECT 1 FROM refunds WHERE refunds.payment_id = payments.id);
  `);
}
