import type Database from "better-sqlite3";
import { z } from "zod";
import { ToolFailure, defineTool, type ToolDefinition } from "../../runtime/index.js";
import type { ToolContext } from "../define-domain.js";
import type { Row } from "../verify-helpers.js";
import type { IdFormat } from "./ids.js";
import { cachedStatement } from "./statements.js";

/** The largest `per_page` a list tool accepts. */
export const MAX_PER_PAGE = 50;
/** The `per_page` a list tool uses when the caller gives none. */
export const DEFAULT_PER_PAGE = 20;

/** The `page` argument of every list tool: 1-based, default 1. */
export const pageSchema = z.number().int().min(1).default(1).describe("Page number, starting at 1");

/** The `per_page` argument of every list tool: 1..50, default 20. */
export const perPageSchema = z
  .number()
  .int()
  .min(1)
  .max(MAX_PER_PAGE)
  .default(DEFAULT_PER_PAGE)
  .describe(`Items per page (1-${MAX_PER_PAGE})`);

/** Both paging arguments, to spread into a list tool's input schema: `z.object({ ...filters, ...pagingFields })`. */
export const pagingFields = { page: pageSchema, per_page: perPageSchema };

/** A calendar date argument (`YYYY-MM-DD`) whose error says what was expected. */
export const isoDateSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "expected a date as YYYY-MM-DD");

/** An optional text filter (at least one character): `query: optionalText("Fragment of the name")`. */
export function optionalText(description: string) {
  return z.string().min(1).optional().describe(description);
}

/** An optional whole-number filter, e.g. a numeric id: `customer_id: optionalInt("Only this customer's orders")`. */
export function optionalInt(description: string) {
  return z.number().int().optional().describe(description);
}

/** An optional filter that takes one of `values`: `status: optionalChoice(STATUSES, "Only orders in this status")`. */
export function optionalChoice<const Values extends readonly [string, ...string[]]>(
  values: Values,
  description: string,
) {
  return z.enum(values).optional().describe(description);
}

/** An optional date filter (`YYYY-MM-DD`): `due_before: optionalDate("Only invoices due before this date")`. */
export function optionalDate(description: string) {
  return isoDateSchema.optional().describe(description);
}

/**
 * A WHERE condition of a listing: SQL text with `?` placeholders and their values, or plain SQL without
 * placeholders. `null`, `undefined` and `false` entries are skipped, so optional filters read as a list:
 * `[when(status, "status = ?"), activeOnly && "active = 1"]`.
 */
export type SqlCondition = string | { sql: string; params: readonly unknown[] } | null | undefined | false;

/**
 * The condition `sql` bound to `value` when the caller gave a value (not `undefined` or `null`), else
 * nothing. `sql` may hold several placeholders for the same value (`lower(a) LIKE ? OR lower(b) LIKE ?`).
 */
export function when(value: unknown, sql: string): SqlCondition {
  if (value === undefined || value === null) return null;
  const placeholders = sql.split("?").length - 1;
  return { sql, params: Array.from({ length: Math.max(1, placeholders) }, () => value) };
}

/** The paging envelope every list tool returns beside its items (under a key named for the items). */
export interface PageEnvelope {
  page: number;
  per_page: number;
  total: number;
  has_more: boolean;
}

/** What `listPage` needs: the items' key, the SQL pieces and the page asked for. */
export interface ListPageOptions<Item = Row> {
  /** The result key of the items, e.g. `customers`. */
  key: string;
  /** The FROM clause (a table or a join), e.g. `students s JOIN programs p ON p.program_id = s.program_id`. */
  from: string;
  /** Values of `?` placeholders inside `from` (e.g. a grouped subquery), bound before the `where` values. */
  fromParams?: readonly unknown[];
  /** The selected columns, e.g. `id, name, status` (default `*`). */
  select?: string;
  where?: readonly SqlCondition[];
  /** A total order (end with a unique column), so pages never overlap or skip rows. */
  orderBy: string;
  page: number;
  perPage: number;
  /** Turns a row into the item the model sees (e.g. SQLite 0/1 into booleans). */
  map?: (row: Row) => Item;
}

function whereClause(conditions: readonly SqlCondition[]): { sql: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  for (const condition of conditions) {
    if (condition === null || condition === undefined || condition === false) continue;
    if (typeof condition === "string") clauses.push(condition);
    else {
      clauses.push(condition.sql);
      params.push(...condition.params);
    }
  }
  return { sql: clauses.length > 0 ? ` WHERE ${clauses.join(" AND ")}` : "", params };
}

/**
 * Runs a filtered listing as a count plus one page (cached statements) and returns the suite's list shape:
 * `{ [key]: items, page, per_page, total, has_more }`, keys in that order.
 *
 * @example
 * handler: ({ status, page, per_page }, { db }) =>
 *   listPage(db, { key: "orders", from: "orders", select: "id, status, total",
 *                  where: [when(status, "status = ?")], orderBy: "id", page, perPage: per_page })
 */
export function listPage<Item = Row>(
  db: Database.Database,
  options: ListPageOptions<Item>,
): Record<string, unknown> & PageEnvelope {
  const built = whereClause(options.where ?? []);
  const where = { sql: built.sql, params: [...(options.fromParams ?? []), ...built.params] };
  const total = (
    cachedStatement(db, `SELECT COUNT(*) AS total FROM ${options.from}${where.sql}`).get(...where.params) as {
      total: number;
    }
  ).total;
  const rows = cachedStatement(
    db,
    `SELECT ${options.select ?? "*"} FROM ${options.from}${where.sql} ORDER BY ${options.orderBy} LIMIT ? OFFSET ?`,
  ).all(...where.params, options.perPage, (options.page - 1) * options.perPage) as Row[];
  const items: readonly unknown[] = options.map ? rows.map(options.map) : rows;
  return pageEnvelope(options.key, items, {
    page: options.page,
    perPage: options.perPage,
    total,
  });
}

/**
 * The list shape for items computed in code rather than by one query (`{ [key]: items, page, per_page,
 * total, has_more }`); `items` is the one page, `total` the count of all matching items.
 */
export function pageEnvelope<Item>(
  key: string,
  items: readonly Item[],
  paging: { page: number; perPage: number; total: number },
): Record<string, unknown> & PageEnvelope {
  return {
    [key]: items,
    page: paging.page,
    per_page: paging.perPage,
    total: paging.total,
    has_more: paging.page * paging.perPage < paging.total,
  };
}

/** One page of an in-memory list (already filtered and ordered) in the list shape. */
export function paginateItems<Item>(
  key: string,
  items: readonly Item[],
  page: number,
  perPage: number,
): Record<string, unknown> & PageEnvelope {
  const start = (page - 1) * perPage;
  return pageEnvelope(key, items.slice(start, start + perPage), { page, perPage, total: items.length });
}

/** The first row of a query (cached statement), or undefined. */
export function getRow<Result = Row>(
  db: Database.Database,
  sql: string,
  ...params: unknown[]
): Result | undefined {
  return cachedStatement(db, sql).get(...params) as Result | undefined;
}

/** Every row of a query (cached statement). */
export function allRows<Result = Row>(db: Database.Database, sql: string, ...params: unknown[]): Result[] {
  return cachedStatement(db, sql).all(...params) as Result[];
}

/**
 * The first row of a query, or a `ToolFailure` with `notFoundMessage` (the model reads it: say what was
 * expected and which tool finds valid values, e.g. `customer 10042 not found; use list_customers to search`).
 */
export function requireRow<Result = Row>(
  db: Database.Database,
  sql: string,
  params: readonly unknown[],
  notFoundMessage: string,
): Result {
  const row = cachedStatement(db, sql).get(...params) as Result | undefined;
  if (row === undefined) throw new ToolFailure(notFoundMessage);
  return row;
}

/**
 * Inserts one row (columns from the object's keys, in order) with a cached statement and returns the row as
 * stored (defaults and the generated key filled in). For write tools: `return { posting: insertRow(db, "postings", { ... }) }`.
 */
export function insertRow(db: Database.Database, table: string, row: Readonly<Row>): Row {
  const columns = Object.keys(row);
  const sql = `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`;
  const { lastInsertRowid } = cachedStatement(db, sql).run(...Object.values(row));
  return getRow(db, `SELECT * FROM ${table} WHERE rowid = ?`, lastInsertRowid)!;
}

/** A row with the named SQLite 0/1 columns turned into booleans (the other columns unchanged, order kept). */
export function withBooleans(row: Row, ...columns: string[]): Row {
  const result: Row = { ...row };
  for (const column of columns) if (column in result) result[column] = result[column] === 1;
  return result;
}

/** A list tool declared as data: its filters, the SQL pieces and how filters become WHERE conditions. */
export interface ListToolDefinition<Filters extends z.ZodRawShape> {
  name: string;
  /** Say what is listed, in which order, and that it is paginated under `key`. */
  description: string;
  /** The filter arguments as zod fields; `page` and `per_page` are appended after them. */
  filters?: Filters;
  /** The result key of the items, e.g. `invoices`. */
  key: string;
  from: string;
  /** Values of `?` placeholders inside `from`. */
  fromParams?: readonly unknown[];
  select?: string;
  /**
   * How the given filters (defaults filled in) become conditions: a function, e.g.
   * `({ status }) => [when(status, "status = ?")]`, or a record from filter name to SQL with `?` for the
   * filter's value, applied when the filter is given, in the record's order; `"="` stands for
   * `<filter name> = ?`. For example `{ status: "=", due_before: "due_date < ?" }`.
   */
  where?: ((filters: z.infer<z.ZodObject<Filters>>) => readonly SqlCondition[]) | FilterConditions<Filters>;
  /** A total order (end with a unique column). */
  orderBy: string;
  map?: (row: Row) => unknown;
}

/** Filter name to SQL condition with `?` placeholders for its value (`"="` is `<name> = ?`). */
export type FilterConditions<Filters extends z.ZodRawShape> = { readonly [Name in keyof Filters]?: string };

/** The conditions of a `FilterConditions` record for the filters given in `input`. */
function filterConditions(
  conditions: Readonly<Record<string, string | undefined>>,
  input: Row,
): SqlCondition[] {
  return Object.entries(conditions).map(([name, sql]) =>
    sql === undefined ? null : when(input[name], sql === "=" ? `${name} = ?` : sql),
  );
}

/**
 * A paginated read tool from a declaration: input schema `{ ...filters, page, per_page }`, handler
 * `listPage` over the episode database. Use `defineTool` with `listPage` when the handler must check
 * something first (e.g. that a referenced warehouse exists).
 *
 * @example
 * const listInvoices = defineListTool({
 *   name: "list_invoices",
 *   description: "List invoices by due date. Paginated: returns `invoices`, `page`, `per_page`, `total`, `has_more`.",
 *   filters: { status: z.enum(["open", "paid"]).optional().describe("Only invoices in this status") },
 *   key: "invoices",
 *   from: "invoices",
 *   select: "invoice_id, status, amount, due_date",
 *   where: { status: "=" },
 *   orderBy: "due_date, invoice_id",
 * });
 */
export function defineListTool<Filters extends z.ZodRawShape = Record<never, never>>(
  definition: ListToolDefinition<Filters>,
): ToolDefinition<ToolContext, z.ZodObject<Filters & typeof pagingFields>> {
  const inputSchema = z.object({ ...(definition.filters ?? ({} as Filters)), ...pagingFields });
  const filters = Object.keys(definition.filters ?? {});
  const { where } = definition;
  if (where !== undefined && typeof where !== "function") {
    const unknown = Object.keys(where).filter((name) => !filters.includes(name));
    if (unknown.length > 0)
      throw new Error(`list tool '${definition.name}': where names no filter ${unknown.join(", ")}`);
  }
  const conditions = (input: z.infer<z.ZodObject<Filters>>): readonly SqlCondition[] =>
    where === undefined ? [] : typeof where === "function" ? where(input) : filterConditions(where, input);
  const tool: ToolDefinition<ToolContext, z.ZodObject<Filters & typeof pagingFields>> = {
    name: definition.name,
    description: definition.description,
    kind: "read",
    inputSchema,
    handler: (input, { db }) => {
      const { page, per_page: perPage } = input as { page: number; per_page: number };
      return listPage(db, {
        key: definition.key,
        from: definition.from,
        ...(definition.fromParams ? { fromParams: definition.fromParams } : {}),
        ...(definition.select ? { select: definition.select } : {}),
        where: conditions(input as z.infer<z.ZodObject<Filters>>),
        orderBy: definition.orderBy,
        page,
        perPage,
        ...(definition.map ? { map: definition.map } : {}),
      });
    },
  };
  return defineTool(tool);
}

/** The value of a get tool's one id argument, as its schema parses it. */
type IdValue<Input extends z.ZodRawShape> = z.output<Input[keyof Input]>;

/** A get-by-id tool declared as data: the id argument, the row's SQL pieces and what comes with the row. */
export interface GetToolDefinition<Input extends z.ZodRawShape> {
  name: string;
  /** Say what is returned, under which keys. */
  description: string;
  /** The one argument, the id: `{ member_id: memberId.schema("The loyalty member") }`. */
  input: Input;
  /** The result key of the row, e.g. `member`; without it the row's columns are the result. */
  key?: string;
  /** The FROM clause (a table or a join). */
  from: string;
  /** The selected columns (default `*`). */
  select?: string;
  /** The column the id is compared with (default: the argument's name), e.g. `id` or `assets.id`. */
  idColumn?: string;
  /** The value looked up for the id as given (e.g. trimmed and upper-cased); the related queries get it too. */
  normalizeId?: (id: IdValue<Input>) => unknown;
  /** What a miss says: the id format's `notFound`, or a message for the id as given. */
  notFound: IdFormat | ((id: IdValue<Input>) => string);
  /** Turns the row into what the model sees (e.g. SQLite 0/1 into booleans). */
  map?: (row: Row) => Row;
  /**
   * More result keys after the row, in this order: a query whose one `?` is the id (every row), or a function
   * of the database, the id looked up and the row found.
   */
  related?: Record<string, string | ((db: Database.Database, id: unknown, row: Row) => unknown)>;
}

/**
 * A read tool that returns one row by id: input schema `{ <id>: schema }`, handler "the row whose `idColumn`
 * is the id, or a `ToolFailure` with `notFound`", the row under `key`, then the `related` keys. Use
 * `defineTool` with `requireRow` when the result is computed from more than the row and its related lists.
 *
 * @example
 * const getInvoice = defineGetTool({
 *   name: "get_invoice",
 *   description: "Get one invoice with its lines. Returns `invoice`, `lines`.",
 *   input: { invoice_id: invoiceId.schema("The invoice") },
 *   key: "invoice",
 *   from: "invoices",
 *   notFound: invoiceId,
 *   related: { lines: "SELECT line_no, amount FROM invoice_lines WHERE invoice_id = ? ORDER BY line_no" },
 * });
 */
export function defineGetTool<Input extends z.ZodRawShape>(
  definition: GetToolDefinition<Input>,
): ToolDefinition<ToolContext, z.ZodObject<Input>> {
  const fields = Object.keys(definition.input);
  const field = fields[0];
  if (fields.length !== 1 || field === undefined)
    throw new Error(
      `get tool '${definition.name}': input must hold exactly one argument, the id (got ${fields.length === 0 ? "none" : fields.join(", ")})`,
    );
  const sql = `SELECT ${definition.select ?? "*"} FROM ${definition.from} WHERE ${definition.idColumn ?? field} = ?`;
  const { notFound, normalizeId, map, key } = definition;
  const related = Object.entries(definition.related ?? {});
  const tool: ToolDefinition<ToolContext, z.ZodObject<Input>> = {
    name: definition.name,
    description: definition.description,
    kind: "read",
    inputSchema: z.object(definition.input),
    handler: (input, { db }) => {
      const id = (input as Record<string, IdValue<Input>>)[field] as IdValue<Input>;
      const lookup = normalizeId ? normalizeId(id) : id;
      const row = cachedStatement(db, sql).get(lookup) as Row | undefined;
      if (row === undefined)
        throw typeof notFound === "function" ? new ToolFailure(notFound(id)) : notFound.notFound(String(id));
      const shown = map ? map(row) : row;
      const result: Record<string, unknown> = key === undefined ? { ...shown } : { [key]: shown };
      for (const [name, query] of related)
        result[name] = typeof query === "string" ? allRows(db, query, lookup) : query(db, lookup, row);
      return result;
    },
  };
  return defineTool(tool);
}
