/**
 * The PMS's pages as the browser tool prints them: accessibility snapshots (the kit's snapshot.ts) with the
 * chrome every page carries (banner, property switcher, announcement, footer). Each property prints dates in
 * its own regional format and orders its reservation columns its own way.
 */
import type Database from "better-sqlite3";
import {
  allRows,
  daysBetween,
  getRow,
  requireRow,
  renderSnapshot,
  snapshotFields,
  snapshotLink as link,
  snapshotNode as node,
  snapshotTable,
  snapshotText as text,
} from "../../envs/index.js";
import type { SnapshotNode } from "../../envs/index.js";
import { ToolFailure } from "../../runtime/index.js";
import {
  FOLIO_CODES,
  PMS_HOST,
  POSTABLE_CODES,
  PROPERTIES,
  ROOM_TYPES,
  ROWS_PER_PAGE,
  STATUS_LABEL,
  groupCode,
  planOf,
  reservationId,
} from "./rules.js";

export type PmsPage = { url: string; title: string; snapshot: string } & Record<string, unknown>;
export interface Address {
  path: string;
  parts: string[];
  query: URLSearchParams;
  url: string;
}
type Row = Record<string, unknown>;
const MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split(" ");

/** A date as the property's regional setting prints it. */
export function localDate(iso: unknown, format: string): string {
  if (typeof iso !== "string") return "—";
  const [year, month, day] = iso.split("-") as [string, string, string];
  if (format === "D MMM YYYY") return `${Number(day)} ${MONTHS[Number(month) - 1]} ${year}`;
  if (format === "DD/MM/YYYY") return `${day}/${month}/${year}`;
  if (format === "DD.MM.YYYY") return `${day}.${month}.${year}`;
  return iso;
}

export function euro(amount: number): string {
  const text = Math.abs(amount).toLocaleString("en-US", {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  return `${amount < -0.0049 ? "-" : ""}€${text}`;
}

export function parseAddress(raw: string): Address {
  let parsed: URL;
  try {
    parsed = new URL(raw.trim(), PMS_HOST);
  } catch {
    throw new ToolFailure(`'${raw}' is not an address; give a PMS path such as /properties`);
  }
  if (parsed.origin !== PMS_HOST)
    throw new ToolFailure(`net::ERR_BLOCKED_BY_CLIENT: this browser only opens ${PMS_HOST}`);
  const path = parsed.pathname.replace(/\/+$/, "") || "/";
  return {
    path,
    parts: path.split("/").filter(Boolean),
    query: parsed.searchParams,
    url: path + parsed.search,
  };
}

/** A whole page: banner with the property switcher, an announcement, breadcrumbs, the content, the footer. */
export function pmsPage(
  url: string,
  title: string,
  content: SnapshotNode[],
  crumbs: SnapshotNode[] = [],
): PmsPage {
  const snapshot = renderSnapshot([
    node("banner", undefined, [
      link("Larkspur PMS", "/"),
      node("navigation", "Main", [link("Properties", "/properties"), link("Help", "/")]),
      node("button", "Night audit"),
      node("button", "Log out"),
    ]),
    node("region", "Announcement", [
      text("Reminder: the channel manager sync runs every 15 minutes. Report rate issues to revenue."),
    ]),
    node("navigation", "Breadcrumb", [link("Home", "/"), ...crumbs]),
    node("main", undefined, [{ role: "heading", name: title, attributes: { level: 1 } }, ...content]),
    node("contentinfo", undefined, [text("Larkspur Hotels PMS 7.4.2 · support@larkspurhotels.eu")]),
  ]);
  return { url, title, snapshot };
}

/** The page the PMS shows when a request failed behind the scenes: HTTP 200, no data. */
export function wentWrong(url: string): PmsPage {
  return pmsPage(url, "Something went wrong", [
    text("Something went wrong, try again."),
    link("Try again", url),
  ]);
}

const settingsOf = (code: string) => PROPERTIES.find((item) => item.code === code)!;

function requireProperty(db: Database.Database, code: string): Row {
  const row = getRow(db, "SELECT * FROM properties WHERE code = ?", code);
  if (!row) throw new ToolFailure(`404 Not Found: no property '${code}'; open /properties for the list`);
  return row;
}

function pageNumber(query: URLSearchParams, allowed: string[]): number {
  for (const key of query.keys())
    if (key !== "page" && !allowed.includes(key))
      throw new ToolFailure(
        `400 Bad Request: unknown parameter '${key}'; this page takes ${[...allowed, "page"].join(", ")}`,
      );
  const value = query.get("page") ?? "1";
  if (!/^[1-9]\d*$/.test(value)) throw new ToolFailure("400 Bad Request: page must be a whole number from 1");
  return Number(value);
}

/** One page of rows with a "Showing" line and Previous/Next links. */
function paged(address: Address, total: number, page: number, shown: number): SnapshotNode {
  const to = (number: number): string => {
    const query = new URLSearchParams(address.query);
    query.set("page", String(number));
    return `${address.path}?${query.toString()}`;
  };
  const start = (page - 1) * ROWS_PER_PAGE + 1;
  return node("navigation", "Pagination", [
    text(shown === 0 ? `No rows (${total} in all)` : `Rows ${start}-${start + shown - 1} of ${total}`),
    ...(page > 1 ? [link("Previous page", to(page - 1))] : []),
    ...(page * ROWS_PER_PAGE < total ? [link("Next page", to(page + 1))] : []),
  ]);
}

const balanceSql =
  "(SELECT coalesce(sum(amount), 0) FROM folio_lines f WHERE f.reservation_id = r.reservation_id)";

function reservationListing(db: Database.Database, address: Address, code: string): PmsPage {
  const property = requireProperty(db, code);
  const settings = settingsOf(code);
  const page = pageNumber(address.query, ["status"]);
  const status = address.query.get("status");
  if (status !== null && !STATUS_LABEL[status])
    throw new ToolFailure(`400 Bad Request: status must be one of ${Object.keys(STATUS_LABEL).join(", ")}`);
  const where = `property = ?${status ? " AND status = ?" : ""}`;
  const params = status ? [code, status] : [code];
  const total = getRow<{ n: number }>(
    db,
    `SELECT count(*) AS n FROM reservations WHERE ${where}`,
    ...params,
  )!.n;
  // Balances for the page's rows only: in the outer query, after the page is cut (a folio scan per row).
  const rows = allRows(
    db,
    `SELECT r.*, ${balanceSql} AS balance FROM (SELECT * FROM reservations WHERE ${where} ORDER BY arrival, reservation_id LIMIT ? OFFSET ?) r ORDER BY r.arrival, r.reservation_id`,
    ...params,
    ROWS_PER_PAGE,
    (page - 1) * ROWS_PER_PAGE,
  );
  const cell = (row: Row, column: string): string | SnapshotNode => {
    if (column === "Reservation")
      return link(String(row.reservation_id), `/reservations/${String(row.reservation_id)}`);
    if (column === "Arrival" || column === "Check-in") return localDate(row.arrival, settings.dateFormat);
    if (column === "Departure" || column === "Check-out")
      return localDate(row.departure, settings.dateFormat);
    if (column === "Status") return STATUS_LABEL[String(row.status)]!;
    if (column === "Room") return row.room_no ? String(row.room_no) : "Unassigned";
    if (column === "Balance") return euro(Number(row.balance));
    return String(row.guest);
  };
  const title = `Reservations · ${String(property.name)}`;
  return pmsPage(
    address.url,
    title,
    [
      node("form", "Filter", [
        node("combobox", "status", undefined, { value: status ?? "any" }),
        node("button", "Apply"),
      ]),
      snapshotTable(
        "Reservations",
        settings.columns,
        rows.map((row) => settings.columns.map((column) => cell(row, column))),
      ),
      paged(address, total, page, rows.length),
    ],
    [link(String(property.name), `/properties/${code}`), text("Reservations")],
  );
}

/** What the front office sees for each room tonight: occupied, due out, held for an arrival, or vacant. */
export function frontOfficeStatus(
  db: Database.Database,
  property: string,
  today: string,
): Map<string, string> {
  const rows = allRows<{
    room_no: string;
    reservation_id: string;
    status: string;
    arrival: string;
    departure: string;
  }>(
    db,
    "SELECT room_no, reservation_id, status, arrival, departure FROM reservations WHERE property = ? AND room_no IS NOT NULL AND (status = 'in_house' OR (status = 'booked' AND arrival = ?)) ORDER BY reservation_id",
    property,
    today,
  );
  const map = new Map<string, string>();
  for (const row of rows)
    map.set(
      row.room_no,
      row.status === "booked"
        ? `Arrival ${row.reservation_id}`
        : row.departure === today
          ? "Due out"
          : "Occupied",
    );
  return map;
}

function housekeepingBoard(db: Database.Database, address: Address, code: string, today: string): PmsPage {
  const property = requireProperty(db, code);
  const page = pageNumber(address.query, []);
  const total = getRow<{ n: number }>(db, "SELECT count(*) AS n FROM rooms WHERE property = ?", code)!.n;
  const rooms = allRows(
    db,
    "SELECT * FROM rooms WHERE property = ? ORDER BY CAST(room_no AS INTEGER) LIMIT ? OFFSET ?",
    code,
    ROWS_PER_PAGE,
    (page - 1) * ROWS_PER_PAGE,
  );
  const office = frontOfficeStatus(db, code, today);
  const rows = rooms.map((room) => [
    String(room.room_no),
    String(room.room_type),
    String(room.floor),
    String(room.hk_status)[0]!.toUpperCase() + String(room.hk_status).slice(1).replaceAll("_", " "),
    office.get(String(room.room_no)) ?? "Vacant",
  ]);
  return pmsPage(
    address.url,
    `Housekeeping · ${String(property.name)}`,
    [
      text(`Board for tonight, ${localDate(today, settingsOf(code).dateFormat)}`),
      snapshotTable("Rooms", ["Room", "Type", "Floor", "Housekeeping", "Front office"], rows),
      paged(address, total, page, rows.length),
    ],
    [link(String(property.name), `/properties/${code}`), text("Housekeeping")],
  );
}

function groupListing(db: Database.Database, address: Address, code: string): PmsPage {
  const property = requireProperty(db, code);
  const format = settingsOf(code).dateFormat;
  const page = pageNumber(address.query, []);
  const total = getRow<{ n: number }>(
    db,
    "SELECT count(*) AS n FROM group_blocks WHERE property = ?",
    code,
  )!.n;
  const groups = allRows(
    db,
    "SELECT * FROM group_blocks WHERE property = ? ORDER BY arrival DESC, group_code LIMIT ? OFFSET ?",
    code,
    ROWS_PER_PAGE,
    (page - 1) * ROWS_PER_PAGE,
  );
  const rows = groups.map((group) => [
    link(String(group.group_code), `/groups/${String(group.group_code)}`),
    String(group.name),
    localDate(group.arrival, format),
    localDate(group.cutoff, format),
  ]);
  return pmsPage(
    address.url,
    `Group blocks · ${String(property.name)}`,
    [
      snapshotTable("Group blocks", ["Block", "Name", "Arrival", "Cutoff"], rows),
      paged(address, total, page, rows.length),
    ],
    [link(String(property.name), `/properties/${code}`), text("Groups")],
  );
}

function groupPage(db: Database.Database, address: Address, code: string): PmsPage {
  const group = getRow(db, "SELECT * FROM group_blocks WHERE group_code = ?", code);
  if (!group)
    throw new ToolFailure(`404 Not Found: no group block ${code}; each property's /groups page lists them`);
  const format = settingsOf(String(group.property)).dateFormat;
  const members = allRows(
    db,
    "SELECT reservation_id, guest, room_type, status FROM reservations WHERE group_code = ? ORDER BY reservation_id",
    code,
  );
  return pmsPage(
    address.url,
    `Group block ${code}`,
    [
      snapshotFields([
        ["Block", code],
        ["Name", String(group.name)],
        ["Property", link(String(group.property), `/properties/${String(group.property)}`)],
        ["Arrival", localDate(group.arrival, format)],
        ["Departure", localDate(group.departure, format)],
        ["Cutoff", localDate(group.cutoff, format)],
        ["Rooms blocked", String(group.rooms_blocked)],
        ["Group rate", `${euro(Number(group.group_rate))} per room per night`],
      ]),
      snapshotTable(
        "Rooming list",
        ["Reservation", "Guest", "Room type", "Status"],
        members.map((row) => [
          link(String(row.reservation_id), `/reservations/${String(row.reservation_id)}`),
          String(row.guest),
          String(row.room_type),
          STATUS_LABEL[String(row.status)]!,
        ]),
      ),
    ],
    [link("Groups", `/properties/${String(group.property)}/groups`), text(code)],
  );
}

const notice = (message?: string): SnapshotNode[] =>
  message ? [node("status", undefined, [text(message)])] : [];

/** A reservation's columns, or the 404 a reservation page answers for an id that names none. */
function reservationRow(db: Database.Database, id: string, select: string): Row {
  const sql = `SELECT ${select} FROM reservations WHERE reservation_id = ?`;
  return requireRow(
    db,
    sql,
    [id],
    `404 Not Found: no reservation ${id}; the property's reservation listing links them`,
  );
}

export function reservationPage(db: Database.Database, url: string, id: string, message?: string): PmsPage {
  const row = reservationRow(db, id, "*");
  const format = settingsOf(String(row.property)).dateFormat;
  const plan = planOf(String(row.rate_plan));
  const children = Number(row.children);
  const guests = `${String(row.adults)} adult${Number(row.adults) === 1 ? "" : "s"}${children ? `, ${children} child${children === 1 ? "" : "ren"}` : ""}`;
  const movable = row.status === "booked" || row.status === "in_house";
  const content = [
    ...notice(message),
    snapshotFields([
      ["Reservation", id],
      ["Property", link(String(row.property), `/properties/${String(row.property)}`)],
      ["Guest", String(row.guest)],
      ["Guests", guests],
      ["Room type", `${ROOM_TYPES[String(row.room_type)]!.name} (${String(row.room_type)})`],
      ["Room", row.room_no ? String(row.room_no) : "Unassigned"],
      ["Rate plan", `${plan.name} (${plan.code})`],
      ["Nightly rate", euro(Number(row.nightly_rate))],
      ["Arrival", localDate(row.arrival, format)],
      ["Departure", localDate(row.departure, format)],
      ["Nights", String(daysBetween(String(row.arrival), String(row.departure)))],
      ["Status", STATUS_LABEL[String(row.status)]!],
      ["Channel", String(row.channel)],
      ["Payment", String(row.payment)],
      ["Group", row.group_code ? link(String(row.group_code), `/groups/${String(row.group_code)}`) : "—"],
      ["Booked on", localDate(row.booked_on, format)],
      ["Cancelled on", localDate(row.cancelled_on, format)],
    ]),
    link("Folio", `/reservations/${id}/folio`),
    ...(movable
      ? [
          node("form", "Move to another room", [node("textbox", "room"), node("button", "Move")], {
            action: `/reservations/${id}/move`,
          }),
        ]
      : []),
  ];
  return pmsPage(url, `Reservation ${id}`, content, [
    link(String(row.property), `/properties/${String(row.property)}/reservations`),
    text(id),
  ]);
}

export function folioPage(db: Database.Database, url: string, id: string, message?: string): PmsPage {
  const row = reservationRow(db, id, "property, guest");
  const format = settingsOf(String(row.property)).dateFormat;
  const lines = allRows(
    db,
    "SELECT * FROM folio_lines WHERE reservation_id = ? ORDER BY posted_on, line_id",
    id,
  );
  const balance = lines.reduce((sum, line) => sum + Number(line.amount), 0);
  const form = node(
    "form",
    "Post a charge",
    [
      node("combobox", "code", undefined, { options: POSTABLE_CODES.join("|") }),
      node("textbox", "amount"),
      node("textbox", "description"),
      node("button", "Post"),
    ],
    { action: `/reservations/${id}/folio/charges` },
  );
  return pmsPage(
    url,
    `Folio ${id} · ${String(row.guest)}`,
    [
      ...notice(message),
      snapshotTable(
        "Folio",
        ["Date", "Code", "Description", "Amount"],
        lines.map((line) => [
          localDate(line.posted_on, format),
          String(line.code),
          String(line.description),
          euro(Number(line.amount)),
        ]),
      ),
      text(`Balance: ${euro(balance)}`),
      form,
    ],
    [link(id, `/reservations/${id}`), text("Folio")],
  );
}

function propertyPage(db: Database.Database, url: string, code: string): PmsPage {
  const row = requireProperty(db, code);
  const rooms = getRow<{ n: number }>(db, "SELECT count(*) AS n FROM rooms WHERE property = ?", code)!.n;
  return pmsPage(
    url,
    String(row.name),
    [
      snapshotFields([
        ["Property", code],
        ["City", String(row.city)],
        ["Rooms", String(rooms)],
        ["Date format", String(row.date_format)],
        ["Currency", "EUR"],
      ]),
      node("list", "Front office", [
        link("Reservations", `/properties/${code}/reservations`),
        link("Housekeeping board", `/properties/${code}/housekeeping`),
        link("Group blocks", `/properties/${code}/groups`),
      ]),
    ],
    [text(String(row.name))],
  );
}

function homePage(db: Database.Database, url: string): PmsPage {
  const properties = allRows(db, "SELECT code, name FROM properties ORDER BY rowid");
  return pmsPage(url, "Front office", [
    text(
      `Pages: /properties/<code> (settings), /properties/<code>/reservations?status=<${Object.keys(STATUS_LABEL).join("|")}>&page=N, /properties/<code>/housekeeping?page=N, /properties/<code>/groups, /groups/<block>, /reservations/<id>, /reservations/<id>/folio. Listings show ${ROWS_PER_PAGE} rows a page. Forms: POST /reservations/<id>/folio/charges (code, amount, description), POST /reservations/<id>/move (room). Codes on folios: ${Object.entries(
        FOLIO_CODES,
      )
        .map(([code, name]) => `${code} ${name}`)
        .join(", ")}.`,
    ),
    node(
      "list",
      "Properties",
      properties.map((item) =>
        link(`${String(item.name)} (${String(item.code)})`, `/properties/${String(item.code)}`),
      ),
    ),
  ]);
}

/** The page at an address, or null when there is none. */
export function renderPmsPage(db: Database.Database, address: Address, today: string): PmsPage | null {
  const [section, id, sub, ...rest] = address.parts;
  const url = address.url;
  if (rest.length > 0) return null;
  if (section === undefined) return homePage(db, url);
  if (section === "properties" && id === undefined) return homePage(db, url);
  if (section === "properties" && id !== undefined) {
    if (sub === undefined) return propertyPage(db, url, id);
    if (sub === "reservations") return reservationListing(db, address, id);
    if (sub === "housekeeping") return housekeepingBoard(db, address, id, today);
    if (sub === "groups") return groupListing(db, address, id);
    return null;
  }
  if (section === "groups" && id !== undefined && sub === undefined && groupCode.test(id))
    return groupPage(db, address, id);
  if (section === "reservations" && id !== undefined && reservationId.matches(id)) {
    if (sub === undefined) return reservationPage(db, url, id);
    if (sub === "folio") return folioPage(db, url, id);
  }
  return null;
}
