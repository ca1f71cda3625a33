import type Database from "better-sqlite3";
import { ToolFailure } from "../../runtime/index.js";
import {
  allRows,
  formatUsd,
  getRow,
  renderSnapshot,
  snapshotFields,
  snapshotLink as link,
  snapshotNode as node,
  snapshotTable,
  snapshotText as text,
  roundCents,
  parseSiteUrl,
  queryListing,
  type ListingFilters,
  type ParsedUrl,
} from "../../envs/index.js";
import type { SnapshotNode } from "../../envs/index.js";
import { DISTRICTS, PERMIT_TYPES, PORTAL_HOST, inspectionId, licenseId, permitId } from "./rules.js";

/** What the browser tools return: the address, the title and the accessibility snapshot. */
export type PortalPage = { url: string; title: string; snapshot: string } & Record<string, unknown>;

type Row = Record<string, unknown>;
export const PAGE_SIZE = 10;
const MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split(" ");

/** "Mar 3, 2025", as the portal prints dates. */
export function shortDate(iso: unknown): string {
  if (typeof iso !== "string") return "—";
  return `${MONTHS[Number(iso.slice(5, 7)) - 1]} ${Number(iso.slice(8, 10))}, ${iso.slice(0, 4)}`;
}

export function titleCase(value: unknown): string {
  return String(value)
    .replace(/_/g, " ")
    .replace(/\b\w/g, (letter) => letter.toUpperCase());
}

const recordLink = (section: string, id: unknown): SnapshotNode =>
  link(String(id), `/${section}/${String(id)}`);

/** A full page: banner, cookie dialog, breadcrumb, main content and footer, as every portal page has. */
export function portalPage(url: string, title: string, main: SnapshotNode[], crumbs: SnapshotNode[] = []) {
  const sections = ["Permits", "Inspections", "Contractors", "Fees"];
  const snapshot = renderSnapshot([
    node("banner", undefined, [
      link("City of Riverton — Permits & Inspections", "/"),
      node(
        "navigation",
        "Main",
        sections.map((name) => link(name, `/${name.toLowerCase()}`)),
      ),
      node("button", "Sign out"),
    ]),
    node("dialog", "Cookie consent", [
      text("We use cookies to keep you signed in and to measure traffic."),
      node("button", "Accept all"),
    ]),
    node("navigation", "Breadcrumb", [link("Home", "/"), ...crumbs]),
    node("main", undefined, [{ role: "heading", name: title, attributes: { level: 1 } }, ...main]),
    node("contentinfo", undefined, [
      text("© 2025 City of Riverton · Department of Building Safety · 210 Civic Plaza"),
      link("Accessibility", "/accessibility"),
      link("Privacy", "/privacy"),
    ]),
  ]);
  return { url, title, snapshot } satisfies PortalPage;
}

export const parsePortalUrl = (raw: string): ParsedUrl =>
  parseSiteUrl(raw, PORTAL_HOST, {
    invalid: (text) => `'${text}' is not a URL; give a portal path such as /permits?status=issued`,
    blocked: `only ${PORTAL_HOST} pages can be opened; give a path such as /permits`,
  });

/** A search page: its filters (SQL and allowed values), its query (by default `*` from the table its path names), its table. */
interface Listing {
  title: string;
  filters: ListingFilters;
  select?: string;
  from?: string;
  orderBy: string;
  headers: string[];
  cells: (row: Row) => Array<string | SnapshotNode>;
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const BALANCE_SQL = `(SELECT coalesce(sum(f.amount), 0) FROM fees f WHERE f.permit_id = p.permit_id AND f.paid_on IS NULL)
  - (SELECT coalesce(sum(w.amount), 0) FROM fee_waivers w JOIN fees f ON f.fee_id = w.fee_id
      WHERE w.permit_id = p.permit_id AND f.paid_on IS NULL)`;

const LISTINGS: Record<string, Listing> = {
  permits: {
    title: "Permits",
    filters: {
      status: { sql: "p.status = ?", values: ["applied", "issued", "finaled", "expired", "stop_work"] },
      type: { sql: "p.permit_type = ?", values: Object.keys(PERMIT_TYPES) },
      district: { sql: "p.district = ?", values: DISTRICTS },
      contractor: { sql: "p.contractor_id = ?", values: licenseId.pattern },
    },
    select: `p.*, ${BALANCE_SQL} AS balance`,
    from: "permits p",
    orderBy: "p.permit_id",
    headers: ["Permit", "Type", "Address", "District", "Status", "Applied", "Balance due"],
    cells: (row) => [
      recordLink("permits", row.permit_id),
      titleCase(row.permit_type),
      String(row.address),
      String(row.district),
      titleCase(row.status),
      shortDate(row.applied_on),
      formatUsd(Number(row.balance)),
    ],
  },
  inspections: {
    title: "Inspections",
    filters: {
      result: { sql: "result = ?", values: ["scheduled", "pass", "fail", "cancelled"] },
      from: { sql: "scheduled_for >= ?", values: ISO_DAY },
      to: { sql: "scheduled_for <= ?", values: ISO_DAY },
    },
    orderBy: "inspection_id",
    headers: ["Inspection", "Permit", "Type", "Date", "Inspector", "Result"],
    cells: (row) => [
      recordLink("inspections", row.inspection_id),
      recordLink("permits", row.permit_id),
      String(row.inspection_type),
      shortDate(row.scheduled_for),
      String(row.inspector),
      titleCase(row.result),
    ],
  },
  contractors: {
    title: "Licensed contractors",
    filters: { trade: { sql: "trade = ?", values: ["general", "electrical", "plumbing", "mechanical"] } },
    orderBy: "license_id",
    headers: ["License", "Name", "Trade", "Status"],
    cells: (row) => [
      recordLink("contractors", row.license_id),
      String(row.name),
      titleCase(row.trade),
      titleCase(row.status),
    ],
  },
  fees: {
    title: "Fee ledger",
    filters: {
      code: { sql: "fee_code = ?", values: ["PLR", "PMT", "TEC", "REI"] },
      status: {
        sql: "(CASE WHEN paid_on IS NULL THEN 'unpaid' ELSE 'paid' END) = ?",
        values: ["paid", "unpaid"],
      },
    },
    orderBy: "fee_id",
    headers: ["Fee #", "Permit", "Code", "Description", "Amount", "Assessed", "Paid"],
    cells: (row) => feeCells(row, true),
  },
};

function feeCells(row: Row, withPermit: boolean): Array<string | SnapshotNode> {
  return [
    String(row.fee_id),
    ...(withPermit ? [recordLink("permits", row.permit_id)] : []),
    String(row.fee_code),
    String(row.description),
    formatUsd(Number(row.amount)),
    shortDate(row.assessed_on),
    row.paid_on === null ? "Unpaid" : shortDate(row.paid_on),
  ];
}

/** The filters of the address, checked against the listing's (unknown or invalid ones are a 400). */
/** One page of a search: filter box, 10 rows, a "Showing" line and previous/next links. */
function listingPage(db: Database.Database, parsed: ParsedUrl, listing: Listing, table: string): PortalPage {
  const query = { ...listing, from: listing.from ?? table, pageSize: PAGE_SIZE, term: "filter" };
  const { rows, total, page, first, pageUrl } = queryListing(db, parsed, query);
  const showing = `Showing ${first}–${first + rows.length - 1} of ${total}`;
  const pager = [
    text(rows.length === 0 ? `No results (${total} in total)` : showing),
    ...(page > 1 ? [link("Previous page", pageUrl(page - 1))] : []),
    ...(page * PAGE_SIZE < total ? [link("Next page", pageUrl(page + 1))] : []),
  ];
  const filterBox = node("search", `Filter (GET ${parsed.path})`, [
    ...Object.keys(listing.filters).map((name) => node("textbox", titleCase(name), undefined, { name })),
    node("button", "Search"),
  ]);
  const results = snapshotTable(listing.title, listing.headers, rows.map(listing.cells));
  const main = [filterBox, results, node("navigation", "Pagination", pager)];
  return portalPage(parsed.url, listing.title, main, [text(listing.title)]);
}

/** A record by id, or the portal's 404 naming the search page that lists them. */
function requireRecord(db: Database.Database, sql: string, id: string, what: string, search: string): Row {
  const row = getRow(db, sql, id);
  if (!row) throw new ToolFailure(`404 Not Found: no ${what} ${id}; search ${search} to find one`);
  return row;
}

const PERMIT_SQL = `SELECT p.*, c.name AS contractor_name, ${BALANCE_SQL} AS balance FROM permits p
  JOIN contractors c ON c.license_id = p.contractor_id WHERE p.permit_id = ?`;
export const requirePermit = (db: Database.Database, id: string): Row =>
  requireRecord(db, PERMIT_SQL, id, "permit", "/permits");
export const requireInspection = (db: Database.Database, id: string): Row =>
  requireRecord(db, "SELECT * FROM inspections WHERE inspection_id = ?", id, "inspection", "/inspections");

const flashOf = (flash?: string): SnapshotNode[] => (flash ? [{ role: "status", text: flash }] : []);

export function permitPage(db: Database.Database, url: string, id: string, flash?: string): PortalPage {
  const permit = requirePermit(db, id);
  const history = "SELECT * FROM inspections WHERE permit_id = ? ORDER BY scheduled_for, inspection_id";
  const inspections = allRows(db, history, id);
  const orders = allRows(db, "SELECT * FROM stop_work_orders WHERE permit_id = ? ORDER BY order_id", id);
  const contractor = `${String(permit.contractor_name)} (${String(permit.contractor_id)})`;
  const main = [
    ...flashOf(flash),
    text(`Status: ${titleCase(permit.status)}`),
    snapshotFields([
      ["Permit number", id],
      ["Type", titleCase(permit.permit_type)],
      ["Address", String(permit.address)],
      ["District", String(permit.district)],
      ["Applicant", String(permit.applicant)],
      ["Contractor", link(contractor, `/contractors/${String(permit.contractor_id)}`)],
      ["Work description", String(permit.description)],
      ["Valuation", formatUsd(Number(permit.valuation))],
      ["Applied", shortDate(permit.applied_on)],
      ["Issued", shortDate(permit.issued_on)],
      ["Expires", shortDate(permit.expires_on)],
    ]),
    snapshotTable(
      "Inspections",
      ["Inspection", "Type", "Date", "Inspector", "Result"],
      inspections.map((row) => LISTINGS.inspections!.cells(row).filter((_, index) => index !== 1)),
    ),
    ...orders.map((row) =>
      text(`Stop-work order ${String(row.reason_code)} issued ${shortDate(row.issued_on)}`),
    ),
    link("Fees and payments", `/permits/${id}/fees`),
    link("Schedule inspection", `/permits/${id}/inspections/new`),
    link("Issue stop-work order", `/permits/${id}/stop-work`),
  ];
  return portalPage(url, `Permit ${id}`, main, [link("Permits", "/permits"), text(id)]);
}

export function feesPage(db: Database.Database, url: string, id: string, flash?: string): PortalPage {
  const { balance } = requirePermit(db, id);
  const fees = allRows(db, "SELECT * FROM fees WHERE permit_id = ? ORDER BY fee_id", id);
  const waivers = allRows(db, "SELECT * FROM fee_waivers WHERE permit_id = ? ORDER BY waiver_id", id);
  const main = [
    ...flashOf(flash),
    snapshotTable(
      "Fees",
      ["Fee #", "Code", "Description", "Amount", "Assessed", "Paid"],
      fees.map((row) => feeCells(row, false)),
    ),
    snapshotTable(
      "Waivers",
      ["Fee #", "Amount", "Reason", "Recorded"],
      waivers.map((row) => [
        String(row.fee_id),
        formatUsd(Number(row.amount)),
        String(row.reason),
        shortDate(row.recorded_on),
      ]),
    ),
    text(`Balance due: ${formatUsd(roundCents(Number(balance)))}`),
    link("Record fee waiver", `/permits/${id}/fees/waiver`),
  ];
  const crumbs = [link("Permits", "/permits"), link(id, `/permits/${id}`), text("Fees")];
  return portalPage(url, `Fees for permit ${id}`, main, crumbs);
}

export function inspectionPage(db: Database.Database, url: string, id: string, flash?: string): PortalPage {
  const row = requireInspection(db, id);
  const notes = String(row.notes) || "No notes yet.";
  const main = [
    ...flashOf(flash),
    snapshotFields([
      ["Permit", recordLink("permits", row.permit_id)],
      ["Inspection type", String(row.inspection_type)],
      [row.result === "scheduled" ? "Scheduled for" : "Inspected on", shortDate(row.scheduled_for)],
      ["Inspector", String(row.inspector)],
      ["Result", titleCase(row.result)],
    ]),
    node("region", "Inspector notes", [{ role: "paragraph", text: notes }]),
    ...(row.result === "scheduled" ? [link("Reassign inspector", `/inspections/${id}/reassign`)] : []),
  ];
  return portalPage(url, `Inspection ${id}`, main, [link("Inspections", "/inspections"), text(id)]);
}

function contractorPage(db: Database.Database, url: string, id: string): PortalPage {
  const sql = "SELECT * FROM contractors WHERE license_id = ?";
  const row = requireRecord(db, sql, id, "license", "/contractors");
  const main = [
    text(`License status: ${titleCase(row.status)}`),
    snapshotFields([
      ["License number", id],
      ["Trade", titleCase(row.trade)],
      ["License expires", shortDate(row.license_expires)],
      ["Insurance expires", shortDate(row.insurance_expires)],
      ["Phone", String(row.phone)],
    ]),
    link("Permits by this contractor", `/permits?contractor=${id}`),
  ];
  return portalPage(url, String(row.name), main, [link("Contractors", "/contractors"), text(id)]);
}

function homePage(url: string): PortalPage {
  return portalPage(url, "Permits & Inspections staff portal", [
    text(
      `Search pages take filters in the query string and show ${PAGE_SIZE} results a page; follow Next page.`,
    ),
    node("list", "Pages", [
      link("Permits (filters: status, type, district, contractor)", "/permits?status=issued"),
      link("Inspections (filters: result, from, to as YYYY-MM-DD)", "/inspections?result=scheduled"),
      link("Contractors (filter: trade)", "/contractors"),
      link("Fee ledger (filters: code, status paid/unpaid)", "/fees?status=unpaid"),
    ]),
  ]);
}

/** The page at a portal address (forms' own pages are in forms.ts), or null when there is none. */
export function renderPortalPage(db: Database.Database, parsed: ParsedUrl): PortalPage | null {
  const [section = "", id, ...rest] = parsed.path.split("/").filter(Boolean);
  const { url } = parsed;
  if (section === "") return homePage(url);
  if (id === undefined) return LISTINGS[section] ? listingPage(db, parsed, LISTINGS[section], section) : null;
  const tail = rest.join("/");
  if (section === "permits" && permitId.matches(id) && tail === "") return permitPage(db, url, id);
  if (section === "permits" && permitId.matches(id) && tail === "fees") return feesPage(db, url, id);
  if (section === "inspections" && inspectionId.matches(id) && tail === "")
    return inspectionPage(db, url, id);
  if (section === "contractors" && licenseId.matches(id) && tail === "") return contractorPage(db, url, id);
  return null;
}
