/** The back office's form posts: case actions on a dispute and placing a seller on hold. */
import type Database from "better-sqlite3";
import {
  REFERENCE_DATE,
  allRows,
  escapeHtml,
  formatUsd,
  getRow,
  htmlElement as el,
  insertRow,
  roundCents,
  updateEntity,
} from "../../envs/index.js";
import { ToolFailure } from "../../runtime/index.js";
import { webPage } from "./html.js";
import type { WebPage } from "./html.js";
import { csrfToken, disputePage, orderTotal, sellerPage, statusLabel } from "./pages.js";
import type { ParsedUrl } from "../../envs/index.js";
import { OPEN_STATUSES, disputeId, refundId, sellerId } from "./rules.js";

type Fields = Map<string, string>;

/** The page a post with a missing or stale token gets: HTTP 403, an ordinary page. */
function forbidden(url: string): WebPage {
  const text =
    "Your form token is missing or has expired (CSRF check failed). Nothing was saved. Reload the page to get a fresh form and submit again.";
  return webPage(
    url,
    "403 Forbidden",
    el("div", { class: "error", role: "alert" }, escapeHtml(text)),
    [],
    403,
  );
}

function problem(page: WebPage, message: string): WebPage {
  const alert = el(
    "div",
    { class: "error", role: "alert" },
    `There is a problem with this request: ${escapeHtml(message)}`,
  );
  return {
    ...page,
    status: 422,
    html: page.html.replace('<main id="content">', `<main id="content">${alert}`),
  };
}

function nextRefundId(db: Database.Database): string {
  const last = getRow<{ id: string | null }>(db, "SELECT max(refund_id) AS id FROM refunds")!.id;
  return refundId.format(last ? Number(last.slice(3)) + 1 : 1);
}

function parseAmount(text: string | undefined): number | null {
  const amount = Number((text ?? "").replace(/[$,\s]/g, ""));
  return text && amount > 0 && Math.abs(roundCents(amount) - amount) < 1e-9 ? amount : null;
}

/** A case action: escalate, refund in full or in part (closing the case), or close in the seller's favour. */
function caseAction(db: Database.Database, id: string, fields: Fields): WebPage | string {
  const row = getRow<Record<string, unknown>>(
    db,
    "SELECT d.*, o.item_price, o.shipping FROM disputes d JOIN orders o ON o.order_id = d.order_id WHERE dispute_id = ?",
    id,
  );
  if (!row) throw new ToolFailure(`404 Not Found: no case ${id}; search /disputes to find one`);
  const action = fields.get("action") ?? "";
  const status = String(row.status);
  if (!OPEN_STATUSES.includes(status))
    return `case ${id} is ${statusLabel(status).toLowerCase()}; only open cases take actions`;
  const log = (extra: Record<string, unknown>): void => {
    insertRow(db, "dispute_actions", {
      dispute_id: id,
      action,
      acted_on: REFERENCE_DATE,
      reason_code: null,
      amount: null,
      ...extra,
    });
  };
  if (action === "escalate") {
    const code = fields.get("reason_code")?.trim();
    if (!code) return "a reason code is required to escalate";
    if (status === "escalated") return `case ${id} is already escalated`;
    updateEntity(db, "disputes", disputeId, id, { status: "escalated" });
    log({ reason_code: code });
    return disputePage(db, `/disputes/${id}`, id, `Case ${id} escalated to Harborline Support (${code}).`);
  }
  if (action === "refund_full" || action === "refund_partial") {
    const amount = parseAmount(fields.get("amount"));
    if (amount === null)
      return "amount must be a positive dollar amount with at most two decimals, e.g. 24.90";
    const refunded = allRows<{ amount: number }>(
      db,
      "SELECT amount FROM refunds WHERE order_id = ? AND status = 'issued'",
      row.order_id,
    );
    const left = roundCents(orderTotal(row) - refunded.reduce((sum, item) => sum + item.amount, 0));
    if (amount > left + 1e-9)
      return `amount exceeds what is left to refund on the order (${formatUsd(left)})`;
    const refund = nextRefundId(db);
    insertRow(db, "refunds", {
      refund_id: refund,
      order_id: row.order_id,
      dispute_id: id,
      amount,
      status: "issued",
      issued_on: REFERENCE_DATE,
    });
    updateEntity(db, "disputes", disputeId, id, { status: "refunded", closed_on: REFERENCE_DATE });
    log({ amount });
    return disputePage(
      db,
      `/disputes/${id}`,
      id,
      `Refund ${refund} of ${formatUsd(amount)} issued; case closed.`,
    );
  }
  if (action === "close_for_seller") {
    updateEntity(db, "disputes", disputeId, id, { status: "closed", closed_on: REFERENCE_DATE });
    log({});
    return disputePage(db, `/disputes/${id}`, id, `Case ${id} closed in the seller's favour.`);
  }
  return "action must be one of escalate, refund_full, refund_partial, close_for_seller";
}

function placeHold(db: Database.Database, id: string, fields: Fields): WebPage | string {
  const row = getRow(db, "SELECT status FROM sellers WHERE seller_id = ?", id);
  if (!row) throw new ToolFailure(`404 Not Found: no seller ${id}; search /sellers to find one`);
  const code = fields.get("reason_code")?.trim();
  if (row.status !== "active") return `seller ${id} is already on hold`;
  if (!code) return "a reason code is required";
  updateEntity(db, "sellers", sellerId, id, { status: "on_hold", hold_reason: code });
  return sellerPage(db, `/sellers/${id}`, id, `Seller ${id} placed on hold (${code}).`);
}

/** Posts a form. A bad token or bad values come back as ordinary pages (403, or the record with an alert). */
export function submitForm(
  db: Database.Database,
  parsed: ParsedUrl,
  fields: Record<string, string>,
): WebPage {
  const [section, id = "", tail, ...rest] = parsed.path.split("/").filter(Boolean);
  const values = new Map(Object.entries(fields).map(([key, value]) => [key, String(value)]));
  const isCase = section === "disputes" && disputeId.matches(id) && tail === "actions";
  const isHold = section === "sellers" && sellerId.matches(id) && tail === "hold";
  if ((!isCase && !isHold) || rest.length > 0)
    throw new ToolFailure(
      `405 Method Not Allowed: ${parsed.path} takes no posts; forms post to /disputes/<case>/actions and /sellers/<seller>/hold`,
    );
  if (values.get("csrf_token") !== csrfToken(db, parsed.path)) return forbidden(parsed.url);
  const outcome = isCase ? caseAction(db, id, values) : placeHold(db, id, values);
  if (typeof outcome !== "string") return outcome;
  const page = isCase ? disputePage(db, `/disputes/${id}`, id) : sellerPage(db, `/sellers/${id}`, id);
  return problem(page, outcome);
}
