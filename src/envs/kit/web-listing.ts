import type Database from "better-sqlite3";
import { ToolFailure } from "../../runtime/index.js";
import type { Row } from "../verify-helpers.js";
import { allRows, getRow } from "./listing.js";

/** An address a browser tool was given: the path without a trailing slash, the query, and path plus query. */
export type ParsedUrl = { path: string; query: URLSearchParams; url: string };

/**
 * Parses an address typed into a browser tool, relative to the site's `origin`. Text that is not a URL fails
 * with `invalid(raw)`, an address on another origin with `blocked`.
 */
export function parseSiteUrl(
  raw: string,
  origin: string,
  messages: { invalid: (raw: string) => string; blocked: string },
): ParsedUrl {
  let parsed: URL;
  try {
    parsed = new URL(raw.trim(), origin);
  } catch {
    throw new ToolFailure(messages.invalid(raw));
  }
  if (parsed.origin !== origin) throw new ToolFailure(messages.blocked);
  const path = parsed.pathname.replace(/\/+$/, "") || "/";
  return { path, query: parsed.searchParams, url: `${path}${parsed.search}` };
}

/** The query filters of a listing page: the SQL condition each adds and the values it accepts. */
export type ListingFilters = Record<string, { sql: string; values: readonly string[] | RegExp }>;

/** A listing page's query: what it selects, from where, in which order, filtered how, how many rows a page. */
export interface ListingQuery {
  from: string;
  /** The columns (default `*`). */
  select?: string;
  orderBy: string;
  filters: ListingFilters;
  pageSize: number;
  /** What the site calls a query key in its 400 answers: `parameter` or `filter`. */
  term: string;
}

/** One page of a listing: its rows, the total that match, the page number and the address of any page. */
export interface ListingPage {
  rows: Row[];
  total: number;
  page: number;
  /** The 1-based position of the first row shown. */
  first: number;
  /** The same listing's address with `page` set to `number`. */
  pageUrl: (number: number) => string;
}

/** The filters and page an address asks of a listing; a bad key or value is a `400 Bad Request` failure. */
function readListingQuery(
  parsed: ParsedUrl,
  listing: ListingQuery,
): { where: string[]; params: string[]; page: number } {
  const [where, params]: [string[], string[]] = [[], []];
  let page = 1;
  for (const [key, value] of parsed.query) {
    const filter = listing.filters[key];
    if (key === "page" && /^[1-9]\d*$/.test(value)) page = Number(value);
    else if (key === "page") throw new ToolFailure("400 Bad Request: page must be a positive integer");
    else if (!filter) {
      const names = [...Object.keys(listing.filters), "page"].join(", ");
      const { term } = listing;
      throw new ToolFailure(`400 Bad Request: ${parsed.path} has no ${term} '${key}'; ${term}s: ${names}`);
    } else if (
      filter.values instanceof RegExp ? !filter.values.test(value) : !filter.values.includes(value)
    ) {
      const allowed = Array.isArray(filter.values) ? `; one of ${filter.values.join(", ")}` : "";
      throw new ToolFailure(`400 Bad Request: ${key}='${value}' is not valid${allowed}`);
    } else {
      where.push(filter.sql);
      params.push(value);
    }
  }
  return { where, params, page };
}

/**
 * The page of a listing that an address asks for (`/permits?status=issued&page=2`): its filters checked
 * against the listing's, the rows of that page and the total that match.
 */
export function queryListing(db: Database.Database, parsed: ParsedUrl, listing: ListingQuery): ListingPage {
  const { where, params, page } = readListingQuery(parsed, listing);
  const clause = where.length === 0 ? "" : `WHERE ${where.join(" AND ")}`;
  const total = getRow<{ n: number }>(
    db,
    `SELECT count(*) AS n FROM ${listing.from} ${clause}`,
    ...params,
  )!.n;
  const sql = `SELECT ${listing.select ?? "*"} FROM ${listing.from} ${clause} ORDER BY ${listing.orderBy} LIMIT ? OFFSET ?`;
  const rows = allRows(db, sql, ...params, listing.pageSize, (page - 1) * listing.pageSize);
  const pageUrl = (number: number): string => {
    const search = new URLSearchParams(parsed.query);
    search.set("page", String(number));
    return `${parsed.path}?${search.toString()}`;
  };
  return { rows, total, page, first: (page - 1) * listing.pageSize + 1, pageUrl };
}
