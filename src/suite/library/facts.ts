/**
 * What an instance's records and documents say, read back for the verifiers with the same patterns the
 * oracles use: MARC records, invoice printouts, shipping notices and the policies' rules.
 */
import type { StateView } from "../../envs/index.js";
import { addDays, allRows, parseMarkdownTable, roundCents, requireFile } from "../../envs/index.js";
import { fundFor, isbnsOf } from "./marc.js";
import { FY_START, PATHS, TODAY } from "./rules.js";

export const INVOICE_LINE =
  /^\s*(\d+)\s+(POL-\d{6})\s+(\d{13})\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*$/;
export const NOTICE_LINE = /^(\d{3})\s+(POL-\d{6})\s+(\S+)\s+(\d+)\s+(\d+)\s+([A-Z]+)\s/;

/** A policy table's rows keyed by their first cell. */
function policyTable(state: StateView, path: string, heading: string): Map<string, string[]> {
  return new Map(parseMarkdownTable(requireFile(state, path), heading).map((row) => [row[0]!, row]));
}

function ruleNumber(text: string, pattern: RegExp): number {
  const match = pattern.exec(text);
  if (!match) throw new Error(`policy text ${pattern} not found`);
  return Number(match[1]);
}

export interface OrderLine {
  line_id: string;
  vendor_id: string;
  order_type: string;
  ordered_on: string;
  bib_id: string;
  fund_code: string;
  quantity: number;
  list_price: number;
  encumbered: number;
  status: string;
  marc: string;
}

export function orderLines(state: StateView): OrderLine[] {
  return allRows<OrderLine>(
    state.db,
    `SELECT l.*, p.vendor_id, p.order_type, p.ordered_on, b.marc FROM order_lines l
       JOIN purchase_orders p ON p.po_id = l.po_id JOIN bibs b ON b.bib_id = l.bib_id ORDER BY l.line_id`,
  );
}

/** ISBN-13 -> the lines on order whose records carry it, for ISBNs on order more than once. */
export function duplicateOrders(state: StateView): Map<string, string[]> {
  const byIsbn = new Map<string, string[]>();
  for (const line of orderLines(state).filter((l) => l.status === "ordered"))
    for (const isbn of isbnsOf(line.marc)) byIsbn.set(isbn, [...(byIsbn.get(isbn) ?? []), line.line_id]);
  return new Map([...byIsbn].filter(([, lines]) => lines.length > 1));
}

/** Lines on order charged to a fund other than the one the policy assigns: line -> the right fund. */
export function misassignedLines(state: StateView): Map<string, string> {
  return new Map(
    orderLines(state)
      .filter((line) => line.status === "ordered" && fundFor(line.marc) !== line.fund_code)
      .map((line) => [line.line_id, fundFor(line.marc)]),
  );
}

/** Each fund's available balance per the fund-accounting policy. */
export function fundBalances(state: StateView): Map<string, number> {
  const effects = policyTable(state, PATHS.accounting, "Transaction kinds");
  const balances = new Map(
    allRows<{ fund_code: string; budget: number }>(state.db, "SELECT fund_code, budget FROM funds").map(
      (f) => [f.fund_code, f.budget],
    ),
  );
  const rows = allRows<{ fund_code: string; kind: string; amount: number }>(
    state.db,
    "SELECT fund_code, kind, amount FROM fund_transactions WHERE posted_on >= ?",
    FY_START,
  );
  for (const row of rows)
    balances.set(
      row.fund_code,
      balances.get(row.fund_code)! + (effects.get(row.kind)![2] === "add" ? 1 : -1) * row.amount,
    );
  return new Map([...balances].map(([fund, value]) => [fund, roundCents(value)]));
}

export interface InvoiceLine {
  lineId: string;
  qty: number;
  net: number;
}

export function invoiceLines(state: StateView, invoiceId: string): InvoiceLine[] {
  const pages = allRows<{ text: string }>(
    state.db,
    "SELECT text FROM invoice_pages WHERE invoice_id = ? ORDER BY page_no",
    invoiceId,
  );
  return pages
    .flatMap((page) => page.text.split("\n"))
    .map((line) => INVOICE_LINE.exec(line))
    .filter((match) => match !== null)
    .map((match) => ({ lineId: match[2]!, qty: Number(match[4]), net: Number(match[7]) }));
}

/** Pending invoice -> its lines failing the invoice-review checks (every pending invoice, maybe empty). */
export function invoiceProblems(state: StateView): Map<string, string[]> {
  const policy = requireFile(state, PATHS.invoices);
  const pct = ruleNumber(policy, /greater of ([\d.]+)% of the expected/);
  const usd = ruleNumber(policy, /net unit price and \$(\d+\.\d+)/);
  const vendors = allRows<{ vendor_id: string; discount_pct: number }>(state.db, "SELECT * FROM vendors");
  const discounts = new Map(vendors.map((v) => [v.vendor_id, v.discount_pct]));
  const lines = new Map(orderLines(state).map((line) => [line.line_id, line]));
  const pending = allRows<{ invoice_id: string }>(
    state.db,
    "SELECT * FROM invoices WHERE status = 'pending'",
  );
  return new Map(
    pending.map(({ invoice_id }) => [
      invoice_id,
      invoiceLines(state, invoice_id)
        .filter((printed) => {
          const order = lines.get(printed.lineId)!;
          const expected = roundCents(order.list_price * (1 - discounts.get(order.vendor_id)! / 100));
          return (
            printed.qty > order.quantity ||
            Math.abs(printed.net - expected) > Math.max((expected * pct) / 100, usd) + 1e-9
          );
        })
        .map((printed) => printed.lineId),
    ]),
  );
}

/** Lines the claiming policy says to claim today. */
export function claimsDue(state: StateView): string[] {
  const policy = requireFile(state, PATHS.claims);
  const intervals = policyTable(state, PATHS.claims, "Claim intervals");
  const fallback = ruleNumber(policy, /Vendors not listed below get (\d+) days/);
  const recent = ruleNumber(policy, /claimed in the last (\d+) days/);
  const recentlyClaimed = new Set(
    allRows<{ line_id: string }>(
      state.db,
      "SELECT line_id FROM claims WHERE claimed_on >= ?",
      addDays(TODAY, -recent),
    ).map((c) => c.line_id),
  );
  return orderLines(state)
    .filter(
      (line) => line.status === "ordered" && line.order_type === "firm" && !recentlyClaimed.has(line.line_id),
    )
    .filter(
      (line) => line.ordered_on < addDays(TODAY, -Number(intervals.get(line.vendor_id)?.[2] ?? fallback)),
    )
    .map((line) => line.line_id);
}

/** Line -> its current notice status (the latest-dated notice listing it). */
export function noticeStatuses(state: StateView): Map<string, string> {
  const latest = new Map<string, [string, string]>();
  for (const path of state.listFiles().filter((file) => file.startsWith("notices/"))) {
    const text = requireFile(state, path);
    const date = /NOTICE DATE: (\d{4}-\d{2}-\d{2})/.exec(text)![1]!;
    for (const match of text.split("\n").map((line) => NOTICE_LINE.exec(line)))
      if (match && (latest.get(match[2]!)?.[0] ?? "") < date) latest.set(match[2]!, [date, match[6]!]);
  }
  return new Map([...latest].map(([line, [, code]]) => [line, code]));
}

/** Lines on order the cancellation policy cancels. */
export function linesToCancel(state: StateView): OrderLine[] {
  const codes = policyTable(state, PATHS.claims, "Notice status codes");
  const statuses = noticeStatuses(state);
  return orderLines(state).filter(
    (line) => line.status === "ordered" && codes.get(statuses.get(line.line_id) ?? "")?.[2] === "cancel",
  );
}

/** Pending request -> approve or decline, per the collection-development policy. */
export function requestDecisions(state: StateView): Map<string, "approve" | "decline"> {
  const policy = requireFile(state, PATHS.development);
  const caps = policyTable(state, PATHS.development, "Format price caps");
  const oldest = ruleNumber(policy, /published before (\d{4})/);
  const limit = ruleNumber(policy, /at most (\d+) requests approved/);
  const requests = allRows<{
    request_id: string;
    patron_id: string;
    requested_on: string;
    format: string;
    pub_year: number;
    list_price: number;
    status: string;
    decided_on: string | null;
  }>(state.db, "SELECT * FROM patron_requests ORDER BY requested_on, request_id");
  const approved = new Map<string, number>();
  const approve = (patron: string): Map<string, number> =>
    approved.set(patron, (approved.get(patron) ?? 0) + 1);
  for (const request of requests)
    if (request.status === "approved" && request.decided_on! >= FY_START) approve(request.patron_id);
  const decisions = new Map<string, "approve" | "decline">();
  for (const request of requests.filter((r) => r.status === "pending")) {
    const eligible =
      request.list_price <= Number(caps.get(request.format)![1]!.replace(/[$,]/g, "")) &&
      request.pub_year >= oldest;
    const ok = eligible && (approved.get(request.patron_id) ?? 0) < limit;
    if (ok) approve(request.patron_id);
    decisions.set(request.request_id, ok ? "approve" : "decline");
  }
  return decisions;
}
