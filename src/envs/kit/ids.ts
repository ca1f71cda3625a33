import type Database from "better-sqlite3";
import { z } from "zod";
import { ToolFailure } from "../../runtime/index.js";

/** How a domain's identifiers look: one definition gives the argument schema, the check and the messages. */
export interface IdFormatOptions {
  /** The argument name the model writes, e.g. `customer_id`. */
  field: string;
  /** What the id names, for messages: `customer`. */
  entity: string;
  /** Ids as a fixed prefix and zero-padded number (`C-` and 5 give `C-00123`); sets `pattern` and `format`. */
  prefix?: string;
  digits?: number;
  /** For other shapes: the full pattern (anchored) and an example that matches it. */
  pattern?: RegExp;
  example?: string;
  /** The tool that lists valid ids, named in not-found messages (`use list_customers to find customer ids`). */
  listTool?: string;
}

/** A domain's id format: zod schema with a teaching error, validation, formatting and not-found errors. */
export interface IdFormat {
  readonly field: string;
  readonly entity: string;
  readonly pattern: RegExp;
  readonly example: string;
  /** `customer_id must look like C-00123` (the message of the schema and of `parse`). */
  readonly expectation: string;
  /** A zod string schema for a tool argument; invalid input reports `expectation`. */
  schema(description?: string): z.ZodString;
  /** True when `value` has the format. */
  matches(value: unknown): value is string;
  /** Returns `value` when it has the format, else throws a `ToolFailure` that says what was expected. */
  parse(value: unknown): string;
  /** The id of number `n` (needs `prefix` and `digits`): `format(123)` is `C-00123`. */
  format(n: number): string;
  /**
   * The largest number among the ids in `column` (default: the field) of `table`, 0 when there are none (needs
   * `prefix` and `digits`). For write tools that add a row after the highest.
   */
  highest(db: Database.Database, table: string, column?: string): number;
  /** The id after the highest in `table` (`highest` + 1, formatted): `C-00124` when `C-00123` is the highest. */
  next(db: Database.Database, table: string, column?: string): string;
  /** A `ToolFailure` for an id with the right format that names nothing: `customer C-00999 not found; use list_customers to find customer ids`. */
  notFound(value: string): ToolFailure;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Declares an id format once for generators (format), tools (schema, parse, notFound) and verifiers.
 *
 * @example
 * const customerId = defineIdFormat({ field: "customer_id", entity: "customer", prefix: "C-", digits: 5,
 *                                     listTool: "list_customers" });
 * customerId.format(123);          // "C-00123"
 * z.object({ customer_id: customerId.schema("The customer") });
 * // bad input -> "field 'customer_id': customer_id must look like C-00123"
 */
export function defineIdFormat(options: IdFormatOptions): IdFormat {
  const { field, entity, prefix, digits, listTool } = options;
  let pattern: RegExp;
  let example: string;
  if (prefix !== undefined && digits !== undefined) {
    if (!Number.isInteger(digits) || digits < 1) throw new Error(`id format '${field}': digits must be >= 1`);
    pattern = new RegExp(`^${escapeRegExp(prefix)}\\d{${digits}}$`);
    example = options.example ?? `${prefix}${"123".padStart(digits, "0").slice(-digits)}`;
  } else if (options.pattern && options.example) {
    pattern = options.pattern;
    example = options.example;
  } else {
    throw new Error(`id format '${field}' needs either prefix and digits, or pattern and example`);
  }
  if (!pattern.test(example))
    throw new Error(`id format '${field}': example '${example}' does not match ${String(pattern)}`);
  const expectation = `${field} must look like ${example}`;
  const matches = (value: unknown): value is string => typeof value === "string" && pattern.test(value);
  const hint = listTool ? `; use ${listTool} to find ${entity} ids` : "";
  const idFormat: IdFormat = {
    field,
    entity,
    pattern,
    example,
    expectation,
    schema(description) {
      const schema = z.string().regex(pattern, expectation);
      return schema.describe(
        description ? `${description}, e.g. '${example}'` : `${entity} id, e.g. '${example}'`,
      );
    },
    matches,
    parse(value) {
      if (matches(value)) return value;
      throw new ToolFailure(`${expectation} (got ${JSON.stringify(value)})`);
    },
    format(n) {
      if (prefix === undefined || digits === undefined)
        throw new Error(`id format '${field}' has no prefix and digits to format with`);
      if (!Number.isInteger(n) || n < 0 || String(n).length > digits)
        throw new Error(`id format '${field}': ${n} does not fit in ${digits} digits`);
      return `${prefix}${String(n).padStart(digits, "0")}`;
    },
    highest(db, table, column = field) {
      if (prefix === undefined) throw new Error(`id format '${field}' has no prefix to read numbers after`);
      const sql = `SELECT MAX(CAST(substr(${column}, ${prefix.length + 1}) AS INTEGER)) AS n FROM ${table}`;
      return (db.prepare(sql).get() as { n: number | null } | undefined)?.n ?? 0;
    },
    next(db, table, column) {
      return idFormat.format(idFormat.highest(db, table, column) + 1);
    },
    notFound(value) {
      return new ToolFailure(`${entity} ${value} not found${hint}`);
    },
  };
  return idFormat;
}

/**
 * The common id shape in one call, a prefix and a zero-padded number:
 * `prefixedId("invoice_id", "invoice", "INV-", 5, "list_invoices")` formats 42 as `INV-00042`.
 */
export function prefixedId(
  field: string,
  entity: string,
  prefix: string,
  digits: number,
  listTool?: string,
): IdFormat {
  return defineIdFormat({ field, entity, prefix, digits, ...(listTool ? { listTool } : {}) });
}
