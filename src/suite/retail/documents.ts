import {
  addDays,
  draftsToCsv,
  formatUsd,
  longDate,
  previousMonth,
  type GenerateContext,
} from "../../envs/index.js";
import {
  ELECTRONICS_CATEGORY,
  GIFT_CARD_CATEGORY,
  PERSONAL_CARE_CATEGORY,
  STORE_EMAIL_DOMAIN,
  STORE_NAME,
} from "./catalog.js";
import { PATHS } from "./expectations.js";
import type { NoticeDraft, OrderDraft, RetailData } from "./model.js";
import { PRICE_MATCH_POLICY, PROMOTIONS, RETURN_POLICY, SHIPPING } from "./policy.js";

/** Writes the workspace: four policy/memo documents, the watch list, and the scaled batches and logs. */
export function writeRetailDocuments(context: GenerateContext, data: RetailData): void {
  const { faker, random } = context;
  const people = {
    careLead: `${faker.person.firstName()} ${faker.person.lastName()}`,
    controller: `${faker.person.firstName()} ${faker.person.lastName()}`,
    opsManager: `${faker.person.firstName()} ${faker.person.lastName()}`,
  };
  context.writeFile(PATHS.returnsPolicy, returnsPolicy(data.today, people.careLead));
  context.writeFile(PATHS.promotionsPolicy, promotionsPolicy(data.today));
  context.writeFile(PATHS.recallProcedure, recallProcedure(people.opsManager));
  context.writeFile(PATHS.closeMemo, closeMemo(data, people.controller));
  context.writeFile(
    PATHS.watchList,
    draftsToCsv("email, customer_name, reason, added_on, status, added_by", data.watchList),
  );

  for (const date of data.batchDates) {
    const changes = data.priceChanges.filter((change) => change.effectiveDate === date);
    context.writeFile(
      `${PATHS.pricingDir}/price-changes-${date}.csv`,
      draftsToCsv(
        "sku, product_name, old_price, new_price, effective_date, reason, approved_by",
        changes,
        (change) => ({ old_price: change.oldPrice.toFixed(2), new_price: change.newPrice.toFixed(2) }),
      ),
    );
  }

  const productName = new Map(data.products.map((product) => [product.sku, product.name]));
  for (const notice of data.notices) {
    const contact = `${faker.person.firstName()} ${faker.person.lastName()}`;
    context.writeFile(`${PATHS.noticesDir}/${notice.noticeId}.md`, noticeText(notice, productName, contact));
  }

  const exportDays = 3 * context.factors.files;
  for (let day = 1; day <= exportDays; day += 1) {
    const date = addDays(data.today, -day);
    const orders = data.orders.filter((order) => order.placedDate === date);
    context.writeFile(`${PATHS.exportsDir}/orders-${date}.csv`, dailyExport(orders));
  }

  const customerName = new Map(
    data.customers.map((customer) => [customer.id, `${customer.firstName} ${customer.lastName}`]),
  );
  for (let day = 0; day < context.factors.files; day += 1) {
    const date = addDays(data.today, -1 - day * 2);
    const lines: string[] = [
      `# Customer care shift notes — ${longDate(date)}`,
      "",
      `Shift lead: ${people.careLead}`,
      "",
    ];
    const recent = data.orders.filter(
      (order) => order.placedDate <= date && order.placedDate >= addDays(date, -20),
    );
    const templates = [
      (order: OrderDraft): string =>
        `- ${customerName.get(order.customerId)} (customer ${order.customerId}) asked where order ${order.id} is. Sent the tracking link and set expectations.`,
      (order: OrderDraft): string =>
        `- Chat with ${customerName.get(order.customerId)} about order ${order.id}: promo code did not discount every item. Explained the category exclusions in the promotion terms.`,
      (order: OrderDraft): string =>
        `- ${customerName.get(order.customerId)} wanted to change the delivery address on order ${order.id}. Updated before pick.`,
      (order: OrderDraft): string =>
        `- Call from ${customerName.get(order.customerId)} asking whether order ${order.id} can be split into two shipments. Told them no, it ships complete.`,
      (): string =>
        "- Warehouse reports a short backlog on processing orders; tell customers to expect one extra day.",
      (): string =>
        "- Reminder: never promise a price-match credit over chat; the team reviews eligibility against the price-change batches.",
    ];
    const count = random.int(4, 6);
    const written = new Set<string>();
    for (let index = 0; index < count && recent.length > 0; index += 1) {
      const entry = random.pick(templates)(random.pick(recent));
      if (!written.has(entry)) lines.push(entry);
      written.add(entry);
    }
    if (day === 0)
      lines.push(
        `- From ${people.careLead}: the proposal to lengthen the ${ELECTRONICS_CATEGORY} return window to 30 days is still a draft under review. Until the returns policy document is updated, keep applying the current windows.`,
      );
    lines.push("");
    context.writeFile(`${PATHS.supportDir}/shift-notes-${date}.md`, lines.join("\n"));
  }
}

function returnsPolicy(today: string, owner: string): string {
  const windows = RETURN_POLICY.categoryWindowDays;
  return `# ${STORE_NAME} — Returns & Refunds Policy (internal)

Version 4.3 · Owner: ${owner}, Customer Care Operations · Effective ${longDate(addDays(today, -160))}

This is the policy customer care applies to every return request (RMA). Each request is either
**approved**, **rejected** or **escalated**. Work through the sections in the order of section 6.

## 1. Return windows

The window is counted in calendar days from the date the order was delivered to the date the customer
submitted the return request. A request submitted on the last day of the window is on time.

| Category | Window |
|----------|--------|
| ${ELECTRONICS_CATEGORY} | ${windows[ELECTRONICS_CATEGORY]} days |
| Apparel | ${windows.Apparel} days |
| All other categories | ${RETURN_POLICY.standardWindowDays} days |

Items returned as \`defective\` or \`damaged_in_transit\` (the return reason) may be returned within
${RETURN_POLICY.defectWindowDays} days of delivery in every category, or within the category window if that is longer.

## 2. Items we cannot take back

- **${GIFT_CARD_CATEGORY}** are final sale and never returnable.
- **${PERSONAL_CARE_CATEGORY}** items are returnable only while unopened (item condition \`unopened\`), whatever
  the return reason, for hygiene reasons.

## 3. Restocking fee

Opened ${ELECTRONICS_CATEGORY} (item condition \`opened\`) returned for any reason other than \`defective\` or
\`damaged_in_transit\` carry a **${RETURN_POLICY.restockingFeePercent}% restocking fee** on the merchandise value. Record the fee
percentage when you approve. No other return carries a fee.

## 4. Approval limit

Customer care may approve returns whose merchandise value is at most ${formatUsd(RETURN_POLICY.approvalThresholdUsd)}. Above that, escalate to a
manager with a short note instead of approving.

Merchandise value is what the customer paid for the units being returned: the order line's line total
divided by the line quantity, times the quantity being returned (before any restocking fee).

## 5. Fraud screening

Check the customer's email address against the fraud watch list (\`${PATHS.watchList}\`). If the address
is listed with status \`active\` (compare addresses case-insensitively), escalate the request to the Risk
team and take no other decision. Entries with status \`cleared\` have been reviewed and no longer apply.

## 6. Decision order

1. Customer on the active fraud watch list (section 5): **escalate**.
2. Item not returnable (section 2): **reject**.
3. Request outside the return window (section 1): **reject**.
4. Merchandise value above the approval limit (section 4): **escalate**.
5. Otherwise **approve**, with the restocking fee of section 3 where it applies.

## 7. After approval

The customer receives a prepaid label. When the warehouse receives the item the RMA moves to
\`received\`, and the refund (merchandise value minus any restocking fee) is issued to the original
payment method within 5 business days. Original shipping fees are refunded only for \`defective\` and
\`damaged_in_transit\` returns.
`;
}

function promotionsPolicy(today: string): string {
  const rows = PROMOTIONS.map((promotion) => {
    const eligible = promotion.onlyCategories
      ? promotion.onlyCategories.join(", ")
      : `All categories except ${promotion.excludedCategories.join(" and ")}`;
    const until =
      promotion.endOffsetDays > 100 ? "until further notice" : addDays(today, promotion.endOffsetDays);
    const from = promotion.startOffsetDays < -300 ? "ongoing" : addDays(today, promotion.startOffsetDays);
    return `| \`${promotion.code}\` | ${promotion.title} | ${promotion.percentOff}% off | ${eligible} | ${from} | ${until} |`;
  });
  return `# ${STORE_NAME} — Promotion Terms & Price-Match Guarantee

## Promotion codes

One code per order. The discount is applied to each eligible order line at checkout and shown as the
line's \`discount\`; ineligible lines are charged in full.

| Code | Promotion | Discount | Eligible categories | Valid from | Valid to |
|------|-----------|----------|---------------------|------------|----------|
${rows.join("\n")}

Free standard shipping on orders of ${formatUsd(SHIPPING.freeThresholdUsd)} or more after discounts; otherwise ${formatUsd(SHIPPING.standardFeeUsd)}.
Expedited shipping is ${formatUsd(SHIPPING.expeditedFeeUsd)}.

## Price-match guarantee

If we lower the price of something you bought from us shortly after you bought it, we credit you the
difference.

- **Qualifying reductions.** Every price change is published in a price-change batch (\`${PATHS.pricingDir}/\`).
  A row whose \`new_price\` is lower than its \`old_price\` is a reduction. Reductions with reason
  ${PRICE_MATCH_POLICY.excludedReasons.map((reason) => `\`${reason}\``).join(", ")} never qualify. Price increases are ignored.
- **Window.** The reduction's \`effective_date\` must be after the order date and no more than
  ${PRICE_MATCH_POLICY.standardWindowDays} calendar days after it; **Gold** loyalty members get ${PRICE_MATCH_POLICY.goldWindowDays} days. (An order placed on the
  effective date already paid the new price.)
- **Amount.** Per order line: (unit price on the order line − the lowest qualifying new price within
  the window) × quantity, when that is positive. The unit price is compared before any promo-code
  discount. A customer's credit is the sum over their order lines.
- **Not eligible.** Lines of cancelled orders; lines with a return on file in any status other than
  \`rejected\`; lines that already received a price-match credit (a refund of kind \`price_match\`):
  each line is matched at most once. Gift cards are never repriced.

Credits are paid as refunds to the original payment method.
`;
}

function recallProcedure(owner: string): string {
  return `# Supplier Recall Procedure (SOP-OPS-07)

Owner: ${owner}, Fulfilment Operations

Suppliers send notices to supplier-notices@${STORE_EMAIL_DOMAIN}; operations files each one in \`${PATHS.noticesDir}/\`.

## Notice types

- **Product recall**: the SKUs listed under "Affected products" are recalled.
- **Recall update**: amends an earlier recall. SKUs under "Removed from recall scope" are no longer
  recalled (the stock was cleared); SKUs under "Added to recall scope" are now recalled.
- **Packaging change**, **Product discontinuation**, **Wholesale cost change**: informational only. No
  action on customer orders.

Apply notices in the order they were issued. The recall scope is every SKU recalled and not since
removed.

## What to do with customer orders

1. Cancel, in full, every order that has **not shipped** (status \`pending\` or \`processing\`) and
   contains at least one SKU in the recall scope. Use cancellation reason \`supplier_recall\`. Cancelling
   voids the payment authorization; nothing else is needed.
2. Orders that are already \`shipped\` or \`delivered\` are **not** cancelled: customer care contacts those
   customers with return instructions.
3. Orders already cancelled need no action.
4. Send the list of cancelled order ids to the recall tracker.
`;
}

function closeMemo(data: RetailData, controller: string): string {
  const month = previousMonth(data.today);
  const testers = data.customers.filter((customer) => customer.kind === "test");
  return `# Month-end close: ${month.label}

From: ${controller}, Finance
To: E-commerce Operations
Date: ${longDate(addDays(data.today, -1))}

**Closing period: ${month.start} to ${month.end}**

Please send net merchandise revenue by product category for the closing period. Conventions:

- Include orders placed in the closing period (by order date) in any status except \`cancelled\`.
- Merchandise revenue is the sum of order line totals (after promo-code discounts). Shipping fees and
  sales tax are not revenue.
- Subtract every refund recorded against those order lines (return refunds, price-match credits,
  courtesy credits), whenever it was issued: refunds follow the month of the original order.
- Gift card sales are deferred revenue until redeemed: leave the ${GIFT_CARD_CATEGORY} category out entirely.
- Exclude orders placed by the QA test accounts used by the checkout monitoring bot:
${testers.map((tester) => `  - customer #${tester.id} (${tester.firstName} ${tester.lastName})`).join("\n")}
- Staff purchases (employee accounts on @${STORE_EMAIL_DOMAIN}) are genuine sales and stay in.

Round each category to cents. Thanks!
`;
}

const NOTICE_BODIES: Record<NoticeDraft["type"], string> = {
  "Product recall":
    "During routine quality testing we identified a manufacturing defect in the products below that may create a safety hazard for consumers. Out of caution we are voluntarily recalling them. Please stop selling them immediately and do not ship any units to customers.",
  "Recall update":
    "Following further laboratory testing we are amending the scope of our earlier recall notice.",
  "Packaging change":
    "We are moving the products below to recyclable packaging. Item dimensions and weight are unchanged; you may receive both packaging versions for a few weeks. No action is required on customer orders.",
  "Product discontinuation":
    "The products below will be discontinued at the end of the current quarter. Open purchase orders will be fulfilled; please plan replacements for your catalogue.",
  "Wholesale cost change":
    "Due to freight and raw-material costs, the wholesale cost of the products below will increase by 4-7% from next month. Retail pricing is at your discretion.",
};

/** The third column of a notice's "Affected products" table: its heading and the value on every row. */
const AFFECTED_COLUMN: Record<Exclude<NoticeDraft["type"], "Recall update">, [string, string]> = {
  "Product recall": ["Lots", "All lots"],
  "Packaging change": ["Detail", "New recyclable carton"],
  "Product discontinuation": ["Detail", "Last order date end of quarter"],
  "Wholesale cost change": ["Detail", "Cost +4-7%"],
};

function noticeText(notice: NoticeDraft, productName: Map<string, string>, contact: string): string {
  const table = (skus: string[], third: string, value: string): string =>
    [
      `| SKU | Product | ${third} |`,
      "|-----|---------|------|",
      ...skus.map((sku) => `| ${sku} | ${productName.get(sku) ?? ""} | ${value} |`),
    ].join("\n");
  const header = [
    `# Supplier notice ${notice.noticeId}`,
    "",
    `- Supplier: ${notice.supplier}`,
    `- Issued: ${notice.issued}`,
    `- Notice type: ${notice.type}`,
    ...(notice.amends ? [`- Amends: ${notice.amends}`] : []),
    "",
    "Dear retail partner,",
    "",
    NOTICE_BODIES[notice.type],
    "",
  ];
  const sections: string[] = [];
  if (notice.type === "Recall update") {
    if (notice.removed.length > 0)
      sections.push(
        "## Removed from recall scope",
        "",
        table(notice.removed, "Note", "Cleared after independent lab testing"),
        "",
      );
    if (notice.added.length > 0)
      sections.push("## Added to recall scope", "", table(notice.added, "Lots", "All lots"), "");
  } else {
    const [third, value] = AFFECTED_COLUMN[notice.type];
    sections.push("## Affected products", "", table(notice.affected, third, value), "");
  }
  return [
    ...header,
    ...sections,
    "Regards,",
    "",
    `${contact}`,
    `Quality & Compliance, ${notice.supplier}`,
    "",
  ].join("\n");
}

function dailyExport(orders: OrderDraft[]): string {
  return draftsToCsv(
    "order_id, placed_at, customer_id, channel, line_count, units, subtotal, discount, shipping, tax, total, promo_code, payment_method",
    orders,
    (order) => ({
      order_id: order.id,
      line_count: order.lines.length,
      units: order.lines.reduce((sum, line) => sum + line.quantity, 0),
      subtotal: order.subtotal.toFixed(2),
      discount: order.discountTotal.toFixed(2),
      shipping: order.shippingFee.toFixed(2),
      tax: order.tax.toFixed(2),
      total: order.total.toFixed(2),
    }),
  );
}
