import type Database from "better-sqlite3";
import { allRows, formatUsd, getRow, sumCents } from "../../envs/index.js";
import { ToolFailure } from "../../runtime/index.js";
import { link, renderSnapshot, snapshotFields, snapshotTable, text } from "./render-snapshot.js";
import type { SnapshotNode } from "./render-snapshot.js";
import { DISTRICTS, PERMIT_TYPES, PORTAL_HOST, inspectionId, licenseId, permitId } from "./rules.js";

/** What the browser tools return: the address, the title and the accessibility snapshot. */
export interface PortalPage extends Record<string, unknown> {
  url: string;
  title: string;
  snapshot: string;
}

export const PAGE_SIZE = 10;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "Mar 3, 2025", as the portal prints dates. */
export function shortDate(iso: string | null): string {
  if (iso === null) return "—";
  return `${MONTHS[Number(iso.slice(5, 7)) - 1]} ${Number(iso.slice(8, 10))}, ${iso.slice(0, 4)}`;
}

export function titleCase(value: string): string {
  return value.replace(/_/g, " ").replace(/\b\w/g, (letter) => letter.toUpperCase());
}

/** A full page: banner, cookie dialog, breadcrumb, main content and footer, as every portal page has. */
export function portalPage(url: string, title: string, main: SnapshotNode[], crumbs: SnapshotNode[] = []): PortalPage {
  const snapshot = renderSnapshot([
    {
      role: "banner",
      children: [
        link("City of Riverton — Permits & Inspections", "/"),
        {
          role: "navigation",
          name: "Main",
          children: [
            link("Permits", "/permits"),
            link("Inspections", "/inspections"),
            link("Contractors", "/contractors"),
            link("Fees", "/fees"),
          ],
        },
        { role: "button", name: "Sign out" },
      ],
    },
    {
      role: "dialog",
      name: "Cookie consent",
      children: [text("We use cookies to keep you signed in and to measure traffic."), { role: "button", name: "Accept all" }],
    },
    { role: "navigation", name: "Breadcrumb", children: [link("Home", "/"), ...crumbs] },
    { role: "main", children: [{ role: "heading", name: title, attributes: { level: 1 } }, ...main] },
    {
      role: "contentinfo",
      children: [
        text("© 2025 City of Riverton · Department of Building Safety · 210 Civic Plaza"),
        link("Accessibility", "/accessibility"),
        link("Privacy", "/privacy"),
      ],
    },
  ]);
  return { url, title, snapshot };
}

export interface ParsedUrl {
  path: string;
  query: URLSearchParams;
  url: string;
}

export function parsePortalUrl(raw: string): ParsedUrl {
  let parsed: URL;
  try {
    parsed = new URL(raw.trim(), PORTAL_HOST);
  } catch {
    throw new ToolFailure(`'${raw}' is not a URL; give a portal path such as /permits?status=issued`);
  }
  if (parsed.origin !== PORTAL_HOST)
    throw new ToolFailure(`only ${PORTAL_HOST} pages can be opened; give a path such as /permits`);
  const path = parsed.pathname.replace(/\/+$/, "") || "/";
  return { path, query: parsed.searchParams, url: `${path}${parsed.search}` };
}

/** The filters a listing takes: the allowed values of each (null: any value) and unknown ones refused. */
function readFilters(
  parsed: ParsedUrl,
  allowed: Record<string, readonly string[] | RegExp | null>,
): { filters: Map<string, string>; page: number } {
  const filters = new Map<string, string>();
  let page = 1;
  for (const [key, value] of parsed.query) {
    if (key === "page") {
      if (!/^[1-9]\d*$/.test(value)) throw new ToolFailure(`400 Bad Request: page must be a positive integer, got '${value}'`);
      page = Number(value);
      continue;
    }
    const rule = allowed[key];
    if (rule === undefined)
      throw new ToolFailure(
        `400 Bad Request: ${parsed.path} has no filter '${key}'; filters: ${[...Object.keys(allowed), "page"].join(", ")}`,
      );
    const ok = rule === null || (rule instanceof RegExp ? rule.test(value) : rule.includes(value));
    if (!ok)
      throw new ToolFailure(
        `400 Bad Request: ${key}='${value}' is not valid${Array.isArray(rule) ? `; one of ${rule.join(", ")}` : ""}`,
      );
    filters.set(key, value);
  }
  return { filters, page };
}

/** One page of a listing with its "Showing" line and previous/next links. */
function listingPage(
  db: Database.Database,
  parsed: ParsedUrl,
  query: { from: string; where: Array<[string, string | undefined]>; orderBy: string; select: string },
  page: number,
): { rows: Array<Record<string, unknown>>; pager: SnapshotNode } {
  const active = query.where.filter((entry): entry is [string, string] => entry[1] !== undefined);
  const where = active.length === 0 ? "" : `WHERE ${active.map(([sql]) => sql).join(" AND ")}`;
  const params = active.map(([, value]) => value);
  const total = Number(getRow<{ n: number }>(db, `SELECT count(*) AS n FROM ${query.from} ${where}`, ...params)!.n);
  const rows = allRows(
    db,
    `SELECT ${query.select} FROM ${query.from} ${where} ORDER BY ${query.orderBy} LIMIT ? OFFSET ?`,
    ...params,
    PAGE_SIZE,
    (page - 1) * PAGE_SIZE,
  );
  const pageUrl = (number: number): string => {
    const search = new URLSearchParams(parsed.query);
    search.set("page", String(number));
    return `${parsed.path}?${search.toString()}`;
  };
  const first = Math.min(total, (page - 1) * PAGE_SIZE + 1);
  const children: SnapshotNode[] = [
    text(rows.length === 0 ? `No results (${total} in total)` : `Showing ${first}–${first + rows.length - 1} of ${total} results`),
  ];
  if (page > 1) children.push(link("Previous page", pageUrl(page - 1)));
  if (page * PAGE_SIZE < total) children.push(link("Next page", pageUrl(page + 1)));
  return { rows, pager: { role: "navigation", name: "Pagination", children } };
}

const PERMIT_STATUSES = ["applied", "issued", "finaled", "expired", "stop_work"] as const;

function permitsListing(db: Database.Database, parsed: ParsedUrl): PortalPage {
  const { filters, page } = readFilters(parsed, {
    status: PERMIT_STATUSES,
    type: Object.keys(PERMIT_TYPES),
    district: DISTRICTS,
    contractor: licenseId.pattern,
  });
  const { rows, pager } = listingPage(
    db,
    parsed,
    {
      select: `p.permit_id, p.permit_type, p.address, p.district, p.status, p.applied_on,
        (SELECT coalesce(sum(f.amount), 0) - coalesce((SELECT sum(w.amount) FROM fee_waivers w JOIN fees g ON g.fee_id = w.fee_id
           WHERE g.permit_id = p.permit_id AND g.paid_on IS NULL), 0)
           FROM fees f WHERE f.permit_id = p.permit_id AND f.paid_on IS NULL) AS balance`,
      from: "permits p",
      where: [
        ["p.status = ?", filters.get("status")],
        ["p.permit_type = ?", filters.get("type")],
        ["p.district = ?", filters.get("district")],
        ["p.contractor_id = ?", filters.get("contractor")],
      ],
      orderBy: "p.permit_id",
    },
    page,
  );
  const table = snapshotTable(
    "Permits",
    ["Permit", "Type", "Address", "District", "Status", "Applied", "Balance due"],
    rows.map((row) => [
      link(String(row.permit_id), `/permits/${String(row.permit_id)}`),
      titleCase(String(row.permit_type)),
      String(row.address),
      String(row.district),
      titleCase(String(row.status)),
      shortDate(String(row.applied_on)),
      formatUsd(Number(row.balance)),
    ]),
  );
  return portalPage(parsed.url, "Permits", [searchForm("/permits", ["status", "type", "district", "contractor"]), table, pager], [text("Permits")]);
}

function searchForm(action: string, names: string[]): SnapshotNode {
  return {
    role: "search",
    name: `Filter (GET ${action})`,
    children: [...names.map((name) => ({ role: "textbox", name: titleCase(name), attributes: { name } })), { role: "button", name: "Search" }],
  };
}

function inspectionsListing(db: Database.Database, parsed: ParsedUrl): PortalPage {
  const { filters, page } = readFilters(parsed, {
    result: ["scheduled", "pass", "fail", "cancelled"],
    from: /^\d{4}-\d{2}-\d{2}$/,
    to: /^\d{4}-\d{2}-\d{2}$/,
  });
  const { rows, pager } = listingPage(
    db,
    parsed,
    {
      select: "inspection_id, permit_id, inspection_type, scheduled_for, inspector, result",
      from: "inspections",
      where: [
        ["result = ?", filters.get("result")],
        ["scheduled_for >= ?", filters.get("from")],
        ["scheduled_for <= ?", filters.get("to")],
      ],
      orderBy: "inspection_id",
    },
    page,
  );
  const table = snapshotTable(
    "Inspections",
    ["Inspection", "Permit", "Type", "Date", "Inspector", "Result"],
    rows.map((row) => [
      link(String(row.inspection_id), `/inspections/${String(row.inspection_id)}`),
      link(String(row.permit_id), `/permits/${String(row.permit_id)}`),
      String(row.inspection_type),
      shortDate(String(row.scheduled_for)),
      String(row.inspector),
      titleCase(String(row.result)),
    ]),
  );
  return portalPage(parsed.url, "Inspections", [searchForm("/inspections", ["result", "from", "to"]), table, pager], [text("Inspections")]);
}

function contractorsListing(db: Database.Database, parsed: ParsedUrl): PortalPage {
  const { filters, page } = readFilters(parsed, { trade: ["general", "electrical", "plumbing", "mechanical"] });
  const { rows, pager } = listingPage(
    db,
    parsed,
    {
      select: "license_id, name, trade, status",
      from: "contractors",
      where: [["trade = ?", filters.get("trade")]],
      orderBy: "license_id",
    },
    page,
  );
  const table = snapshotTable(
    "Licensed contractors",
    ["License", "Name", "Trade", "Status"],
    rows.map((row) => [
      link(String(row.license_id), `/contractors/${String(row.license_id)}`),
      String(row.name),
      titleCase(String(row.trade)),
      titleCase(String(row.status)),
    ]),
  );
  return portalPage(parsed.url, "Licensed contractors", [searchForm("/contractors", ["trade"]), table, pager], [text("Contractors")]);
}

function feesListing(db: Database.Database, parsed: ParsedUrl): PortalPage {
  const { filters, page } = readFilters(parsed, { code: ["PLR", "PMT", "TEC", "REI"], status: ["paid", "unpaid"] });
  const { rows, pager } = listingPage(
    db,
    parsed,
    {
      select: "fee_id, permit_id, fee_code, description, amount, assessed_on, paid_on",
      from: "fees",
      where: [
        ["fee_code = ?", filters.get("code")],
        ["(CASE WHEN paid_on IS NULL THEN 'unpaid' ELSE 'paid' END) = ?", filters.get("status")],
      ],
      orderBy: "fee_id",
    },
    page,
  );
  const table = snapshotTable(
    "Fee ledger",
    ["Fee #", "Permit", "Code", "Description", "Amount", "Assessed", "Paid"],
    rows.map((row) => feeCells(row, true)),
  );
  return portalPage(parsed.url, "Fee ledger", [searchForm("/fees", ["code", "status"]), table, pager], [text("Fees")]);
}

function feeCells(row: Record<string, unknown>, withPermit: boolean): Array<string | SnapshotNode> {
  return [
    String(row.fee_id),
    ...(withPermit ? [link(String(row.permit_id), `/permits/${String(row.permit_id)}`)] : []),
    String(row.fee_code),
    String(row.description),
    formatUsd(Number(row.amount)),
    shortDate(String(row.assessed_on)),
    row.paid_on === null ? "Unpaid" : shortDate(String(row.paid_on)),
  ];
}

export function requirePermit(db: Database.Database, id: string): Record<string, unknown> {
  const row = getRow(
    db,
    "SELECT p.*, c.name AS contractor_name FROM permits p JOIN contractors c ON c.license_id = p.contractor_id WHERE p.permit_id = ?",
    id,
  );
  if (!row) throw new ToolFailure(`404 Not Found: no permit ${id}; search /permits to find permit numbers`);
  return row;
}

function permitPage(db: Database.Database, parsed: ParsedUrl, id: string, flash?: string): PortalPage {
  const permit = requirePermit(db, id);
  const inspections = allRows(
    db,
    "SELECT inspection_id, inspection_type, scheduled_for, inspector, result FROM inspections WHERE permit_id = ? ORDER BY scheduled_for, inspection_id",
    id,
  );
  const orders = allRows(db, "SELECT reason_code, issued_on FROM stop_work_orders WHERE permit_id = ? ORDER BY order_id", id);
  const main: SnapshotNode[] = [];
  if (flash) main.push({ role: "status", text: flash });
  main.push(
    { role: "text", text: `Status: ${titleCase(String(permit.status))}` },
    snapshotFields([
      ["Permit number", id],
      ["Type", titleCase(String(permit.permit_type))],
      ["Address", String(permit.address)],
      ["District", String(permit.district)],
      ["Applicant", String(permit.applicant)],
      ["Contractor", link(`${String(permit.contractor_name)} (${String(permit.contractor_id)})`, `/contractors/${String(permit.contractor_id)}`)],
      ["Work description", String(permit.description)],
      ["Valuation", formatUsd(Number(permit.valuation))],
      ["Applied", shortDate(permit.applied_on as string)],
      ["Issued", shortDate(permit.issued_on as string | null)],
      ["Expires", shortDate(permit.expires_on as string | null)],
    ]),
    snapshotTable(
      "Inspections",
      ["Inspection", "Type", "Date", "Inspector", "Result"],
      inspections.map((row) => [
        link(String(row.inspection_id), `/inspections/${String(row.inspection_id)}`),
        String(row.inspection_type),
        shortDate(String(row.scheduled_for)),
        String(row.inspector),
        titleCase(String(row.result)),
      ]),
    ),
  );
  if (orders.length > 0)
    main.push({
      role: "list",
      name: "Stop-work orders",
      children: orders.map((row) => ({ role: "listitem", text: `${String(row.reason_code)} issued ${shortDate(String(row.issued_on))}` })),
    });
  main.push(
    link("Fees and payments", `/permits/${id}/fees`),
    link("Schedule inspection", `/permits/${id}/inspections/new`),
    link("Issue stop-work order", `/permits/${id}/stop-work`),
  );
  return portalPage(parsed.url, `Permit ${id}`, main, [link("Permits", "/permits"), text(id)]);
}

function feesPage(db: Database.Database, parsed: ParsedUrl, id: string, flash?: string): PortalPage {
  requirePermit(db, id);
  const fees = allRows(db, "SELECT * FROM fees WHERE permit_id = ? ORDER BY fee_id", id);
  const waivers = allRows<{ fee_id: number; amount: number; reason: string; recorded_on: string; paid_on: string | null }>(
    db,
    "SELECT w.fee_id, w.amount, w.reason, w.recorded_on, f.paid_on FROM fee_waivers w JOIN fees f ON f.fee_id = w.fee_id WHERE w.permit_id = ? ORDER BY w.waiver_id",
    id,
  );
  const unpaid = fees.filter((fee) => fee.paid_on === null).map((fee) => Number(fee.amount));
  const waived = waivers.filter((waiver) => waiver.paid_on === null).map((waiver) => -waiver.amount);
  const main: SnapshotNode[] = [];
  if (flash) main.push({ role: "status", text: flash });
  main.push(
    snapshotTable("Fees", ["Fee #", "Code", "Description", "Amount", "Assessed", "Paid"], fees.map((row) => feeCells(row, false))),
    snapshotTable(
      "Waivers",
      ["Fee #", "Amount", "Reason", "Recorded"],
      waivers.map((row) => [String(row.fee_id), formatUsd(row.amount), row.reason, shortDate(row.recorded_on)]),
    ),
    { role: "text", text: `Balance due: ${formatUsd(sumCents([...unpaid, ...waived]))}` },
    link("Record fee waiver", `/permits/${id}/fees/waiver`),
  );
  return portalPage(parsed.url, `Fees for permit ${id}`, main, [link("Permits", "/permits"), link(id, `/permits/${id}`), text("Fees")]);
}

function inspectionPage(db: Database.Database, parsed: ParsedUrl, id: string, flash?: string): PortalPage {
  const row = getRow(db, "SELECT * FROM inspections WHERE inspection_id = ?", id);
  if (!row) throw new ToolFailure(`404 Not Found: no inspection ${id}; see /inspections`);
  const main: SnapshotNode[] = [];
  if (flash) main.push({ role: "status", text: flash });
  const notes = String(row.notes);
  main.push(
    snapshotFields([
      ["Permit", link(String(row.permit_id), `/permits/${String(row.permit_id)}`)],
      ["Inspection type", String(row.inspection_type)],
      [row.result === "scheduled" ? "Scheduled for" : "Inspected on", shortDate(String(row.scheduled_for))],
      ["Inspector", String(row.inspector)],
      ["Result", titleCase(String(row.result))],
    ]),
    {
      role: "region",
      name: "Inspector notes",
      children: [{ role: "paragraph", text: notes === "" ? "No notes yet." : notes }],
    },
  );
  if (row.result === "scheduled") main.push(link("Reassign inspector", `/inspections/${id}/reassign`));
  return portalPage(parsed.url, `Inspection ${id}`, main, [link("Inspections", "/inspections"), text(id)]);
}

function contractorPage(db: Database.Database, parsed: ParsedUrl, id: string): PortalPage {
  const row = getRow(db, "SELECT * FROM contractors WHERE license_id = ?", id);
  if (!row) throw new ToolFailure(`404 Not Found: no contractor license ${id}; see /contractors`);
  return portalPage(
    parsed.url,
    String(row.name),
    [
      { role: "text", text: `License status: ${titleCase(String(row.status))}` },
      snapshotFields([
        ["License number", id],
        ["Trade", titleCase(String(row.trade))],
        ["License expires", shortDate(String(row.license_expires))],
        ["Insurance expires", shortDate(String(row.insurance_expires))],
        ["Phone", String(row.phone)],
      ]),
      link("Permits by this contractor", `/permits?contractor=${id}`),
    ],
    [link("Contractors", "/contractors"), text(id)],
  );
}

function homePage(parsed: ParsedUrl): PortalPage {
  return portalPage(parsed.url, "Permits & Inspections staff portal", [
    text("Search pages take filters in the query string and show 10 results a page; follow the Next page link for more."),
    {
      role: "list",
      name: "Pages",
      children: [
        link("Permits (filters: status, type, district, contractor)", "/permits?status=issued"),
        link("Inspections (filters: result, from, to as YYYY-MM-DD)", "/inspections?result=scheduled"),
        link("Contractors (filter: trade)", "/contractors"),
        link("Fee ledger (filters: code, status paid/unpaid)", "/fees?status=unpaid"),
      ],
    },
  ]);
}

/** The page at a portal address (the forms' own pages are in forms.ts). */
export function renderPortalPage(db: Database.Database, parsed: ParsedUrl): PortalPage | null {
  const parts = parsed.path.split("/").filter(Boolean);
  if (parts.length === 0) return homePage(parsed);
  const [section, id, sub] = parts;
  if (id === undefined) {
    if (section === "permits") return permitsListing(db, parsed);
    if (section === "inspections") return inspectionsListing(db, parsed);
    if (section === "contractors") return contractorsListing(db, parsed);
    if (section === "fees") return feesListing(db, parsed);
    return null;
  }
  if (section === "permits" && permitId.matches(id)) {
    if (parts.length === 2) return permitPage(db, parsed, id);
    if (parts.length === 3 && sub === "fees") return feesPage(db, parsed, id);
  }
  if (parts.length === 2 && section === "inspections" && inspectionId.matches(id)) return inspectionPage(db, parsed, id);
  if (parts.length === 2 && section === "contractors" && licenseId.matches(id)) return contractorPage(db, parsed, id);
  return null;
}

export { permitPage, feesPage, inspectionPage };
