import { z } from "zod";
import { isPromiseLike, safeStringify } from "../core/index.js";
import { renderPythonSignature } from "./render-tool.js";
import type { JsonSchemaObject, ToolCallResult, ToolContent, ToolEndpoint } from "./tool-types.js";

/**
 * A tool failure the agent should read (not found, not allowed, conflicting state). Handlers throw it;
 * the runtime turns it into an MCP error result (`isError: true`) with the message kept.
 */
export class ToolFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ToolFailure";
  }
}

/** A tool declared once: name, description, zod input schema, read/write kind and handler. */
export interface ToolDefinition<Context, Schema extends z.ZodObject = z.ZodObject> {
  name: string;
  description: string;
  inputSchema: Schema;
  kind: "read" | "write";
  /** Returns a JSON object (always the same shape for the same tool). */
  handler: (
    input: z.infer<Schema>,
    context: Context,
  ) => Record<string, unknown> | Promise<Record<string, unknown>>;
}

/** Declares a tool; the identity function that gives handlers their input types. */
export function defineTool<Context, Schema extends z.ZodObject>(
  definition: ToolDefinition<Context, Schema>,
): ToolDefinition<Context, Schema> {
  if (!/^[a-z][a-z0-9_]*$/.test(definition.name)) {
    throw new Error(`tool name '${definition.name}' must be snake_case ([a-z][a-z0-9_]*)`);
  }
  return definition;
}

const schemaCache = new WeakMap<z.ZodObject, JsonSchemaObject>();

/** The JSON Schema rendering of a zod input schema (cached; `$schema` removed, as function-calling APIs expect). */
export function toolInputJsonSchema(schema: z.ZodObject): JsonSchemaObject {
  const cached = schemaCache.get(schema);
  if (cached) return cached;
  const rendered = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchemaObject;
  delete rendered.$schema;
  schemaCache.set(schema, rendered);
  return rendered;
}

const strictCache = new WeakMap<z.ZodObject, z.ZodObject>();

/**
 * The schema that rejects unknown keys, made once per input schema: every episode binds every tool, and a fresh
 * zod schema compiles its parser again on first use (a tenth of the host's thread per episode in a burst).
 */
function strictInputSchema(schema: z.ZodObject): z.ZodObject {
  let strict = strictCache.get(schema);
  if (!strict) {
    strict = schema.strict();
    strictCache.set(schema, strict);
  }
  return strict;
}

/** Binds a definition to its context (an episode's database and workspace) as a callable endpoint. */
export function bindTool<Context>(
  definition: ToolDefinition<Context, z.ZodObject>,
  context: Context,
): ToolEndpoint {
  const inputSchema = toolInputJsonSchema(definition.inputSchema);
  const spec = {
    name: definition.name,
    description: definition.description,
    inputSchema,
    kind: definition.kind,
  };
  // Unknown keys are rejected so that a misspelt argument is reported instead of silently ignored.
  const strictSchema = strictInputSchema(definition.inputSchema);
  const failed = (error: unknown): ToolCallResult => {
    const message =
      error instanceof ToolFailure ? error.message : `internal error: ${(error as Error).message}`;
    return { content: [{ type: "text", text: `Error: ${message}` }], isError: true };
  };
  const succeeded = (value: Record<string, unknown>): ToolCallResult => ({
    content: [lazyJsonText(value)],
    structuredContent: value,
  });
  const callNow = (args: Record<string, unknown>): ToolCallResult | Promise<ToolCallResult> => {
    const parsed = strictSchema.safeParse(args ?? {});
    if (!parsed.success) {
      return {
        content: [{ type: "text", text: describeValidationError(spec.name, parsed.error, spec) }],
        isError: true,
      };
    }
    let value: Record<string, unknown> | Promise<Record<string, unknown>>;
    try {
      value = definition.handler(parsed.data, context);
    } catch (error) {
      return failed(error);
    }
    return isPromiseLike(value) ? Promise.resolve(value).then(succeeded, failed) : succeeded(value);
  };
  return {
    ...spec,
    call: async (args) => await callNow(args),
    callNow,
  };
}

/**
 * The text rendering of a structured result, computed on first read: programs decode the structured content
 * and never need it, direct calls and MCP serialisation read it.
 */
function lazyJsonText(value: unknown): ToolContent {
  let text: string | undefined;
  return {
    type: "text",
    get text(): string {
      text ??= safeStringify(value);
      return text;
    },
  };
}

/** Names every bad field and what was expected, then shows the signature. */
export function describeValidationError(
  toolName: string,
  error: z.ZodError,
  spec: { name: string; description: string; inputSchema: JsonSchemaObject },
): string {
  const problems = error.issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.join(".") : "(arguments)";
    if (issue.code === "unrecognized_keys")
      return `unexpected field(s) ${issue.keys.map((key) => `'${key}'`).join(", ")}`;
    return `field '${field}': ${issue.message}`;
  });
  return `Invalid arguments for tool '${toolName}': ${problems.join("; ")}. Expected: ${renderPythonSignature(spec)}`;
}
