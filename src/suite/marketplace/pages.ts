/** The back office's pages (GET): listings that paginate, record pages, the carrier tracking widget. */
import type Database from "better-sqlite3";
import {
  allRows,
  formatUsd,
  getRow,
  roundCents,
  escapeHtml,
  htmlElement as el,
  htmlFields as fieldList,
  htmlLink as link,
  htmlTable as dataTable,
  parseSiteUrl,
  queryListing,
  type ListingFilters,
  type ParsedUrl,
} from "../../envs/index.js";
import { ToolFailure } from "../../runtime/index.js";
import { stableHash, webPage } from "./html.js";
import type { WebPage } from "./html.js";
import {
  BACK_OFFICE,
  CARRIERS,
  DISPUTE_STATUSES,
  OPEN_STATUSES,
  PAGE_SIZE,
  REASON_LABEL,
  TRACKING,
  disputeId,
  orderId,
  sellerId,
} from "./rules.js";
import type { Reason } from "./rules.js";

type Row = Record<string, unknown>;
const MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split(" ");

/** "Mar 3, 2025" (and "Mar 3, 2025 14:05" for times), as the back office prints dates. */
export function shortDate(iso: unknown): string {
  if (typeof iso !== "string") return "—";
  const day = `${MONTHS[Number(iso.slice(5, 7)) - 1]} ${Number(iso.slice(8, 10))}, ${iso.slice(0, 4)}`;
  return iso.length > 10 ? `${day} ${iso.slice(11, 16)}` : day;
}
const monthLabel = (month: string): string => `${MONTHS[Number(month.slice(5, 7)) - 1]} ${month.slice(0, 4)}`;
export const statusLabel = (status: unknown): string =>
  String(status)
    .replace(/_/g, " ")
    .replace(/^\w/, (letter) => letter.toUpperCase());

export const parseUrl = (raw: string): ParsedUrl =>
  parseSiteUrl(raw, BACK_OFFICE, {
    invalid: (text) => `'${text}' is not a URL; give a back-office path such as /disputes`,
    blocked: `net::ERR_BLOCKED: only ${BACK_OFFICE} can be opened from this browser`,
  });

/** The CSRF token a form carries: it changes whenever the record it acts on changes. */
export function csrfToken(db: Database.Database, action: string): string {
  const [, section, id] = action.split("/");
  const state =
    section === "disputes"
      ? `${String(getRow(db, "SELECT status FROM disputes WHERE dispute_id = ?", id)?.status)}|${
          getRow<{ n: number }>(db, "SELECT count(*) AS n FROM dispute_actions WHERE dispute_id = ?", id)!.n
        }`
      : String(getRow(db, "SELECT status FROM sellers WHERE seller_id = ?", id)?.status);
  return `${stableHash(`${action}|${state}|hb`).toString(16)}${stableHash(`${state}|${action}`).toString(36)}`;
}

interface Listing {
  title: string;
  filters: ListingFilters;
  sql: string;
  orderBy: string;
  headers: string[];
  cells: (row: Row) => string[];
}

const LISTINGS: Record<string, Listing> = {
  disputes: {
    title: "Disputes",
    filters: { status: { sql: "d.status = ?", values: DISPUTE_STATUSES } },
    sql: "disputes d JOIN orders o ON o.order_id = d.order_id",
    orderBy: "d.opened_on DESC, d.dispute_id DESC",
    headers: ["Case", "Order", "Buyer", "Opened", "Status"],
    cells: (row) => [
      link(`/disputes/${String(row.dispute_id)}`, row.dispute_id),
      link(`/orders/${String(row.order_id)}`, row.order_id),
      escapeHtml(row.buyer),
      shortDate(row.opened_on),
      el("span", { class: `badge ${String(row.status)}` }, statusLabel(row.status)),
    ],
  },
  sellers: {
    title: "Sellers",
    filters: { status: { sql: "status = ?", values: ["active", "on_hold"] } },
    sql: "sellers",
    orderBy: "seller_id",
    headers: ["Seller", "Store name", "Joined", "Account"],
    cells: (row) => [
      link(`/sellers/${String(row.seller_id)}`, row.seller_id),
      escapeHtml(row.name),
      shortDate(row.joined_on),
      statusLabel(row.status),
    ],
  },
  refunds: {
    title: "Refund ledger",
    filters: {
      month: { sql: "substr(issued_on, 1, 7) = ?", values: /^\d{4}-\d{2}$/ },
      status: { sql: "status = ?", values: ["issued", "reversed"] },
    },
    sql: "refunds",
    orderBy: "issued_on DESC, refund_id DESC",
    headers: ["Refund", "Order", "Case", "Amount", "Status", "Issued"],
    cells: (row) => [
      escapeHtml(row.refund_id),
      link(`/orders/${String(row.order_id)}`, row.order_id),
      row.dispute_id ? link(`/disputes/${String(row.dispute_id)}`, row.dispute_id) : "—",
      formatUsd(Number(row.amount)),
      statusLabel(row.status),
      shortDate(row.issued_on),
    ],
  },
};

/** One page of a listing: a filter form, 10 rows, a "Showing" line and a pager. */
function listingPage(db: Database.Database, parsed: ParsedUrl, listing: Listing): WebPage {
  const query = { ...listing, from: listing.sql, pageSize: PAGE_SIZE, term: "parameter" };
  const { rows, total, page, first, pageUrl } = queryListing(db, parsed, query);
  const pager = el(
    "nav",
    { class: "pager", "aria-label": "Pagination" },
    el(
      "span",
      {},
      rows.length === 0
        ? `No results (${total} in total)`
        : `Showing ${first}–${first + rows.length - 1} of ${total}`,
    ),
    page > 1 ? ` ${link(pageUrl(page - 1), "‹ Previous", { rel: "prev" })}` : "",
    page * PAGE_SIZE < total ? ` ${link(pageUrl(page + 1), "Next ›", { rel: "next" })}` : "",
  );
  const inputs = Object.keys(listing.filters).map((name) =>
    el("label", {}, escapeHtml(name), el("input", { name, value: parsed.query.get(name) ?? "" })),
  );
  const filterForm = el(
    "form",
    { method: "get", action: parsed.path, class: "filters" },
    ...inputs,
    el("button", {}, "Filter"),
  );
  const table = dataTable(parsed.path.slice(1), listing.title, listing.headers, rows.map(listing.cells));
  return webPage(parsed.url, listing.title, filterForm + table + pager, [[listing.title]]);
}

function requireRecord(db: Database.Database, sql: string, id: string, what: string, search: string): Row {
  const row = getRow(db, sql, id);
  if (!row) throw new ToolFailure(`404 Not Found: no ${what} ${id}; search ${search} to find one`);
  return row;
}

export const orderTotal = (row: Row): number => roundCents(Number(row.item_price) + Number(row.shipping));
const flashOf = (flash?: string): string =>
  flash ? el("div", { class: "flash", role: "status" }, escapeHtml(flash)) : "";

function messageThread(db: Database.Database, id: string): string {
  const rows = allRows(
    db,
    "SELECT * FROM dispute_messages WHERE dispute_id = ? ORDER BY sent_at, message_id",
    id,
  );
  const who: Record<string, string> = { buyer: "Buyer", seller: "Seller", support: "Harborline Support" };
  const items = rows.map((row) =>
    el(
      "article",
      { class: `message from-${String(row.author)}` },
      el(
        "header",
        {},
        el("strong", {}, who[String(row.author)]!),
        " · ",
        el("time", { datetime: String(row.sent_at) }, shortDate(row.sent_at)),
      ),
      el("p", {}, escapeHtml(row.body)),
    ),
  );
  return el("section", { class: "thread" }, el("h2", {}, "Messages"), ...items);
}

function disputeForm(db: Database.Database, id: string): string {
  const action = `/disputes/${id}/actions`;
  const options = ["escalate", "refund_full", "refund_partial", "close_for_seller"].map((value) =>
    el("option", { value }, value),
  );
  return el(
    "form",
    { method: "post", action, id: "case-actions" },
    el("h2", {}, "Case actions"),
    el("input", { type: "hidden", name: "csrf_token", value: csrfToken(db, action) }),
    el("label", {}, "Action ", el("select", { name: "action" }, ...options)),
    el("label", {}, "Refund amount (USD) ", el("input", { name: "amount", inputmode: "decimal" })),
    el("label", {}, "Reason code ", el("input", { name: "reason_code" })),
    el("button", { type: "submit" }, "Submit"),
  );
}

export function disputePage(db: Database.Database, url: string, id: string, flash?: string): WebPage {
  const sql =
    "SELECT d.*, o.seller_id, o.buyer FROM disputes d JOIN orders o ON o.order_id = d.order_id WHERE d.dispute_id = ?";
  const row = requireRecord(db, sql, id, "case", "/disputes");
  const fields = fieldList([
    ["Case", escapeHtml(id)],
    ["Order", link(`/orders/${String(row.order_id)}`, row.order_id)],
    ["Seller", link(`/sellers/${String(row.seller_id)}`, row.seller_id)],
    ["Buyer", escapeHtml(row.buyer)],
    ["Reason", REASON_LABEL[row.reason as Reason]],
    ["Status", statusLabel(row.status)],
    ["Opened", shortDate(row.opened_on)],
    ["Closed", shortDate(row.closed_on)],
  ]);
  const open = OPEN_STATUSES.includes(String(row.status));
  const main = flashOf(flash) + fields + messageThread(db, id) + (open ? disputeForm(db, id) : "");
  return webPage(url, `Case ${id}`, main, [["Disputes", "/disputes"], [id]]);
}

function orderPage(db: Database.Database, url: string, id: string): WebPage {
  const row = requireRecord(
    db,
    "SELECT * FROM orders WHERE order_id = ?",
    id,
    "order",
    "/disputes or /refunds",
  );
  const refunds = allRows(db, "SELECT * FROM refunds WHERE order_id = ? ORDER BY refund_id", id);
  const carrier = CARRIERS[String(row.tracking_number).slice(0, 2) as keyof typeof CARRIERS];
  const main =
    fieldList([
      ["Order", escapeHtml(id)],
      ["Seller", link(`/sellers/${String(row.seller_id)}`, row.seller_id)],
      ["Buyer", escapeHtml(row.buyer)],
      ["Item", escapeHtml(row.item)],
      ["Item price", formatUsd(Number(row.item_price))],
      ["Shipping", formatUsd(Number(row.shipping))],
      ["Order total", formatUsd(orderTotal(row))],
      ["Ordered", shortDate(row.ordered_on)],
      ["Shipped", shortDate(row.shipped_on)],
      ["Carrier", escapeHtml(carrier)],
      ["Tracking", link(`/tracking/${String(row.tracking_number)}`, row.tracking_number)],
    ]) +
    dataTable(
      "order-refunds",
      "Refunds on this order",
      ["Refund", "Amount", "Status", "Issued"],
      refunds.map((refund) => [
        escapeHtml(refund.refund_id),
        formatUsd(Number(refund.amount)),
        statusLabel(refund.status),
        shortDate(refund.issued_on),
      ]),
    );
  return webPage(url, `Order ${id}`, main, [[id]]);
}

/** The carrier's tracking widget, embedded: scans newest first, as carriers show them. */
function trackingPage(db: Database.Database, url: string, number: string): WebPage {
  const sql =
    "SELECT * FROM tracking_events WHERE tracking_number = ? ORDER BY happened_at DESC, event_id DESC";
  const events = allRows(db, sql, number);
  if (events.length === 0)
    throw new ToolFailure(`404 Not Found: no shipment ${number}; the order page links its tracking`);
  const carrier = CARRIERS[number.slice(0, 2) as keyof typeof CARRIERS];
  const rows = events.map((event) => [
    el("time", { datetime: String(event.happened_at) }, shortDate(event.happened_at)),
    el("span", { class: "scan" }, escapeHtml(event.status)),
    escapeHtml(event.location),
  ]);
  const widget = el(
    "div",
    { class: "carrier-widget", "data-carrier": carrier },
    `<style>.carrier-widget .scan{font-weight:600}</style>`,
    el(
      "p",
      { class: "powered" },
      `Tracking data provided by ${escapeHtml(carrier)}. Times are local to the scan location.`,
    ),
    dataTable("scan-history", `${carrier} shipment ${number}`, ["When", "Scan", "Location"], rows),
  );
  return webPage(url, `Tracking ${number}`, widget, [["Tracking"], [number]]);
}

function sellerForm(db: Database.Database, id: string): string {
  const action = `/sellers/${id}/hold`;
  return el(
    "form",
    { method: "post", action, id: "hold-form" },
    el("h2", {}, "Place account on hold"),
    el("input", { type: "hidden", name: "csrf_token", value: csrfToken(db, action) }),
    el("label", {}, "Reason code ", el("input", { name: "reason_code" })),
    el("button", { type: "submit" }, "Place on hold"),
  );
}

export function sellerPage(db: Database.Database, url: string, id: string, flash?: string): WebPage {
  const row = requireRecord(db, "SELECT * FROM sellers WHERE seller_id = ?", id, "seller", "/sellers");
  const metrics = allRows(db, "SELECT * FROM seller_metrics WHERE seller_id = ? ORDER BY month DESC", id);
  const current = (month: string): boolean =>
    month === String(getRow<{ m: string }>(db, "SELECT max(month) AS m FROM seller_metrics")!.m);
  const rows = metrics.map((metric) => [
    `${monthLabel(String(metric.month))}${current(String(metric.month)) ? " (month to date)" : ""}`,
    String(metric.orders),
    String(metric.defects),
    String(metric.late_shipments),
    `${Number(metric.orders) === 0 ? "0.0" : ((100 * Number(metric.defects)) / Number(metric.orders)).toFixed(1)}%`,
  ]);
  const main =
    flashOf(flash) +
    fieldList([
      ["Seller", escapeHtml(id)],
      ["Store name", escapeHtml(row.name)],
      ["Contact", escapeHtml(row.email)],
      ["Joined", shortDate(row.joined_on)],
      ["Account", statusLabel(row.status) + (row.hold_reason ? ` (${escapeHtml(row.hold_reason)})` : "")],
    ]) +
    dataTable(
      "performance",
      "Monthly performance",
      ["Month", "Orders", "Defects", "Late shipments", "Defect rate"],
      rows,
    ) +
    (row.status === "active" ? sellerForm(db, id) : "");
  return webPage(url, String(row.name), main, [["Sellers", "/sellers"], [id]]);
}

function homePage(url: string): WebPage {
  const items = [
    ["/disputes?status=awaiting_seller", "Disputes (parameters: status, page)"],
    ["/sellers", "Sellers (parameters: status, page)"],
    ["/refunds", "Refund ledger (parameters: month as YYYY-MM, status, page)"],
    ["/help", "Desk help"],
  ].map(([href, text]) => el("li", {}, link(href!, text)));
  const intro = el(
    "p",
    {},
    `Listings show ${PAGE_SIZE} rows a page; follow the Next link. Record pages: /disputes/&lt;case&gt;, /orders/&lt;order&gt;, /sellers/&lt;seller&gt;, /tracking/&lt;tracking number&gt;.`,
  );
  return webPage(url, "Seller Disputes Desk", intro + el("ul", {}, ...items));
}

function helpPage(url: string): WebPage {
  const text =
    "Case actions are posted from the case page's form (fields: csrf_token, action, amount, reason_code); seller holds from the seller page. Each form carries its own csrf_token, which changes after every change to the record. The desk's policies are in the shared drive (policies/).";
  return webPage(url, "Desk help", el("p", {}, escapeHtml(text)), [["Help"]]);
}

/** The page at an address, or null when there is none. */
export function renderPage(db: Database.Database, parsed: ParsedUrl): WebPage | null {
  const [section = "", id, ...rest] = parsed.path.split("/").filter(Boolean);
  const { url } = parsed;
  if (rest.length > 0) return null;
  if (section === "") return homePage(url);
  if (section === "help" && id === undefined) return helpPage(url);
  if (id === undefined) return LISTINGS[section] ? listingPage(db, parsed, LISTINGS[section]) : null;
  if (section === "disputes" && disputeId.matches(id)) return disputePage(db, url, id);
  if (section === "orders" && orderId.matches(id)) return orderPage(db, url, id);
  if (section === "sellers" && sellerId.matches(id)) return sellerPage(db, url, id);
  if (section === "tracking" && TRACKING.test(id)) return trackingPage(db, url, id);
  return null;
}
