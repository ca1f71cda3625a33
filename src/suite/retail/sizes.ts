/** Base sizes at v0; the big tables are multiplied by `factors.rows`. */
export const BASE_SIZES = {
  products: 54,
  customers: 92,
  orders: 168,
  saleOrders: 15,
  requestedReturns: 14,
  historyDays: 92,
  testAccounts: 4,
};
