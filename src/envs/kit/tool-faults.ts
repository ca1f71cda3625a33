import type Database from "better-sqlite3";
import type { z } from "zod";
import { ToolFailure, type ToolDefinition } from "../../runtime/index.js";
import type { ToolContext } from "../define-domain.js";

/**
 * Tools that fail the way real APIs do, deterministically: which calls fail depends only on the episode's
 * calls so far (counted per episode database handle), never on time or chance, so an oracle, its
 * direct-call replay and every rerun see the same failures.
 */

/** Which calls of a tool fail, and how often. */
export interface FaultOptions<Input> {
  /** Which calls may fail (default: every call). Gets the parsed input, defaults filled in. */
  when?: (input: Input) => boolean;
  /**
   * How many times each distinct matching call (same arguments after defaults) fails before it succeeds
   * (default 1). `Infinity` makes it fail every time.
   */
  failures?: number;
}

const attemptCounts = new WeakMap<Database.Database, Map<string, number>>();

/** Counts this call in the episode (per tool and canonical arguments) and says whether it should fail. */
function shouldFail<Input>(
  toolName: string,
  input: Input,
  db: Database.Database,
  options: FaultOptions<Input>,
): boolean {
  if (options.when && !options.when(input)) return false;
  let counts = attemptCounts.get(db);
  if (!counts) {
    counts = new Map();
    attemptCounts.set(db, counts);
  }
  const key = `${toolName}\u0000${canonicalJson(input)}`;
  const attempt = (counts.get(key) ?? 0) + 1;
  counts.set(key, attempt);
  return attempt <= (options.failures ?? 1);
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

/** The tool with `fail` answering in place of its handler on the calls `options` selects. */
function withFault<Schema extends z.ZodObject>(
  tool: ToolDefinition<ToolContext, Schema>,
  options: FaultOptions<z.infer<Schema>>,
  fail: (input: z.infer<Schema>) => Record<string, unknown>,
): ToolDefinition<ToolContext, Schema> {
  return {
    ...tool,
    handler: (input, context) =>
      shouldFail(tool.name, input, context.db, options) ? fail(input) : tool.handler(input, context),
  };
}

/** Options of `withTransientFailures`. */
export interface TransientFailureOptions<Input> extends FaultOptions<Input> {
  /** The error text (after `Error: `); default `503 Service Unavailable: <tool> is temporarily unavailable, retry the same call`. */
  message?: string;
}

/**
 * The tool, failing transiently: a matching call returns an MCP error result (`isError`, the message
 * below) its first `failures` times and succeeds when repeated. Careful code retries; the model's PTC code
 * sees a raised `ToolError`.
 *
 * @example
 * withTransientFailures(listOrders, { when: (input) => input.page === 3 })
 */
export function withTransientFailures<Schema extends z.ZodObject>(
  tool: ToolDefinition<ToolContext, Schema>,
  options: TransientFailureOptions<z.infer<Schema>> = {},
): ToolDefinition<ToolContext, Schema> {
  const message =
    options.message ??
    `503 Service Unavailable: ${tool.name} is temporarily unavailable, retry the same call`;
  return withFault(tool, options, () => {
    throw new ToolFailure(message);
  });
}

/** Options of `withSilentFailures`. */
export interface SilentFailureOptions<Input> extends FaultOptions<Input> {
  /** The result returned instead of the real one; default `{ status: "error", error: "upstream timeout: ..." }`. */
  body?: (input: Input) => Record<string, unknown>;
}

/**
 * The tool, failing silently (the paper's silent failure mode): a matching call returns an error as an
 * ordinary result (no MCP `isError`, no "Error:" text), e.g. `{"status": "error", "error": "..."}` in place
 * of the expected keys, its first `failures` times. Only code that checks what it got notices; retrying the
 * same call then succeeds.
 *
 * @example
 * withSilentFailures(getInvoice, { when: (input) => input.invoice_id === "INV-00042", failures: 1 })
 */
export function withSilentFailures<Schema extends z.ZodObject>(
  tool: ToolDefinition<ToolContext, Schema>,
  options: SilentFailureOptions<z.infer<Schema>> = {},
): ToolDefinition<ToolContext, Schema> {
  const body =
    options.body ??
    (() => ({
      status: "error",
      error: `upstream timeout: ${tool.name} returned no data, retry the request`,
    }));
  return withFault(tool, options, body);
}
