import type { JsonSchemaObject, ToolSpec } from "./tool-types.js";

const PYTHON_KEYWORDS = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(
    " ",
  ),
);

/** The attribute name a tool gets on the Python `tools` object: a valid identifier, never a keyword. */
export function pythonAttributeName(name: string): string {
  let identifier = name.replace(/[^A-Za-z0-9_]/g, "_");
  if (/^[0-9]/.test(identifier)) identifier = `_${identifier}`;
  if (PYTHON_KEYWORDS.has(identifier)) identifier = `${identifier}_`;
  return identifier;
}

/** A valid Python identifier for a name from a schema (`user-id` -> `user_id`, `class` -> `class_`), unique in `taken`. */
export function pythonIdentifier(name: string, taken: ReadonlySet<string> = new Set()): string {
  const base = pythonAttributeName(name) || "_";
  let identifier = base;
  for (let suffix = 2; taken.has(identifier); suffix += 1) identifier = `${base}_${suffix}`;
  return identifier;
}

/** Renders a JSON Schema type as a Python annotation (always a valid Python expression). */
export function pythonType(schema: JsonSchemaObject | undefined): string {
  if (!schema || typeof schema !== "object") return "Any";
  if (Array.isArray(schema.enum))
    return `Literal[${schema.enum.map((value) => pythonLiteral(value)).join(", ")}]`;
  if (schema.const !== undefined) return `Literal[${pythonLiteral(schema.const)}]`;
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchemaObject[] | undefined;
  if (Array.isArray(union)) return [...new Set(union.map((member) => pythonType(member)))].join(" | ");
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length > 1) return types.map((type) => pythonType({ ...schema, type })).join(" | ");
  switch (types[0]) {
    case "string":
      return "str";
    case "integer":
      return "int";
    case "number":
      return "float";
    case "boolean":
      return "bool";
    case "null":
      return "None";
    case "array":
      return schema.items && typeof schema.items === "object" && !Array.isArray(schema.items)
        ? `list[${pythonType(schema.items as JsonSchemaObject)}]`
        : "list";
    case "object": {
      const values = schema.additionalProperties;
      return !schema.properties && values && typeof values === "object"
        ? `dict[str, ${pythonType(values as JsonSchemaObject)}]`
        : "dict";
    }
    default:
      return schema.properties ? "dict" : "Any";
  }
}

export interface PythonParameter {
  /** The argument's name in the schema, as the tool receives it. */
  name: string;
  /** The name in the rendered signature: `name` when it is a valid identifier, else a stand-in (`user_id`). */
  pythonName: string;
  annotation: string;
  required: boolean;
  defaultRepr: string | null;
  description: string;
  schema: JsonSchemaObject;
}

/** Parameters in schema order, required first (Python requires that), as positional calls map them. */
export function pythonParameters(inputSchema: JsonSchemaObject): PythonParameter[] {
  const properties = inputSchema.properties ?? {};
  const required = new Set(inputSchema.required ?? []);
  const entries = Object.entries(properties);
  const ordered = [
    ...entries.filter(([name]) => required.has(name)),
    ...entries.filter(([name]) => !required.has(name)),
  ];
  const taken = new Set<string>();
  return ordered.map(([name, schema]) => {
    const pythonName = pythonIdentifier(name, taken);
    taken.add(pythonName);
    return {
      name,
      pythonName,
      annotation: pythonType(schema),
      required: required.has(name),
      defaultRepr: schema.default === undefined ? null : pythonLiteral(schema.default),
      description: typeof schema.description === "string" ? schema.description : "",
      schema,
    };
  });
}

/** A JSON value as a Python literal (`true` -> `True`, `null` -> `None`, strings escaped). */
export function pythonLiteral(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return Number.isFinite(value) ? JSON.stringify(value) : "None";
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pythonLiteral).join(", ")}]`;
  if (typeof value === "object")
    return `{${Object.entries(value)
      .map(([key, inner]) => `${JSON.stringify(key)}: ${pythonLiteral(inner)}`)
      .join(", ")}}`;
  return "None";
}

type SignatureSpec = Pick<ToolSpec, "name" | "inputSchema" | "kind" | "outputSchema">;

/** The Python return annotation: from the tool's output schema when it has one. */
function returnAnnotation(spec: SignatureSpec): string {
  if (spec.outputSchema) return pythonType(spec.outputSchema);
  return spec.kind ? "dict" : "Any";
}

/** `name(a: str, b: int = 10, c: str | None = None) -> dict`, with a valid identifier for the name. */
export function renderPythonSignature(spec: SignatureSpec): string {
  const parameters = pythonParameters(spec.inputSchema).map((parameter) => {
    if (parameter.required) return `${parameter.pythonName}: ${parameter.annotation}`;
    return `${parameter.pythonName}: ${parameter.annotation} = ${parameter.defaultRepr ?? "None"}`;
  });
  return `${pythonAttributeName(spec.name)}(${parameters.join(", ")}) -> ${returnAnnotation(spec)}`;
}

const MAX_FIELD_DEPTH = 3;
const MAX_FIELDS_PER_OBJECT = 25;

/** The object schema whose fields an argument carries (itself, or its items, or its union member), if any. */
function nestedObject(schema: JsonSchemaObject): { label: string; schema: JsonSchemaObject } | null {
  if (schema.properties && typeof schema.properties === "object") return { label: "fields", schema };
  const items = schema.items as JsonSchemaObject | undefined;
  if (items && typeof items === "object" && !Array.isArray(items)) {
    const inner = nestedObject(items);
    if (inner) return { label: "each item", schema: inner.schema };
  }
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchemaObject[] | undefined;
  if (Array.isArray(union))
    for (const member of union) {
      const inner = nestedObject(member);
      if (inner) return inner;
    }
  return null;
}

function typeNote(schema: JsonSchemaObject, optional: boolean): string {
  const format = typeof schema.format === "string" ? `, ${schema.format}` : "";
  return `${pythonType(schema)}${format}${rangeNote(schema)}${optional ? ", optional" : ""}`;
}

/** `, 1 to 50` for a bounded number (a page size's maximum is otherwise only found by exceeding it). */
export function rangeNote(schema: JsonSchemaObject): string {
  // zod's int() adds the safe-integer range to every integer: that is no bound a reader needs.
  const bound = (value: unknown): number | undefined =>
    typeof value === "number" && Math.abs(value) < Number.MAX_SAFE_INTEGER ? value : undefined;
  const minimum = bound(schema.minimum);
  const maximum = bound(schema.maximum);
  if (minimum !== undefined && maximum !== undefined) return `, ${minimum} to ${maximum}`;
  if (maximum !== undefined) return `, at most ${maximum}`;
  if (minimum !== undefined) return `, at least ${minimum}`;
  return "";
}

/** One line per field of a nested object, then their own fields, indented, to a bounded depth. */
function renderFields(object: JsonSchemaObject, indent: string, depth: number): string[] {
  const required = new Set(object.required ?? []);
  const entries = Object.entries(object.properties ?? {});
  const lines: string[] = [];
  for (const [name, schema] of entries.slice(0, MAX_FIELDS_PER_OBJECT)) {
    const description = typeof schema.description === "string" ? ` ${schema.description}` : "";
    lines.push(`${indent}${name} (${typeNote(schema, !required.has(name))}):${description}`.trimEnd());
    lines.push(...renderNested(schema, `${indent}    `, depth + 1));
  }
  if (entries.length > MAX_FIELDS_PER_OBJECT)
    lines.push(`${indent}... and ${entries.length - MAX_FIELDS_PER_OBJECT} more fields`);
  return lines;
}

function renderNested(schema: JsonSchemaObject, indent: string, depth: number): string[] {
  const nested = nestedObject(schema);
  if (!nested) return [];
  if (depth >= MAX_FIELD_DEPTH) return [`${indent}(${nested.label}: nested fields not shown)`];
  return [`${indent}${nested.label}:`, ...renderFields(nested.schema, `${indent}    `, depth)];
}

/**
 * A docstring: the description, how to call the tool when its name is not an identifier, one line per
 * argument with the fields of nested objects, and the fields of the result when the tool declares them.
 */
export function renderPythonDocstring(
  spec: Pick<ToolSpec, "name" | "description" | "inputSchema" | "outputSchema">,
): string {
  const parameters = pythonParameters(spec.inputSchema);
  const lines = [spec.description.trim()];
  const attribute = pythonAttributeName(spec.name);
  if (attribute !== spec.name)
    lines.push("", `Call it as tools[${JSON.stringify(spec.name)}](...) or tools.${attribute}(...).`);
  if (parameters.length > 0) {
    lines.push("", "Args:");
    for (const parameter of parameters) {
      const renamed =
        parameter.pythonName === parameter.name
          ? ""
          : ` (the argument ${JSON.stringify(parameter.name)}: pass it as **{${JSON.stringify(parameter.name)}: ...})`;
      lines.push(
        `    ${parameter.pythonName} (${typeNote(parameter.schema, !parameter.required)}): ${parameter.description}${renamed}`.trimEnd(),
      );
      lines.push(...renderNested(parameter.schema, "        ", 0));
    }
  }
  if (spec.outputSchema) {
    lines.push("", "Returns:", `    ${pythonType(spec.outputSchema)}`);
    lines.push(...renderNested(spec.outputSchema, "        ", 0));
  }
  return lines.join("\n");
}

/** The docstring as the body of a Python string literal: backslashes and triple quotes cannot end it early. */
function escapeDocstring(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/"""/g, '\\"\\"\\"');
}

/** The PTC documentation block of one tool: the `tools[...]` call form, signature and docstring. */
export function renderPythonDoc(spec: ToolSpec, options: { maxDescriptionChars?: number } = {}): string {
  const limit = options.maxDescriptionChars ?? Number.POSITIVE_INFINITY;
  const docstring = renderPythonDocstring(spec);
  const shortened =
    docstring.length > limit
      ? `${docstring.slice(0, limit).trimEnd()} ... (full docs: help(tools.${pythonAttributeName(spec.name)}))`
      : docstring;
  const indented = escapeDocstring(shortened)
    .split("\n")
    .map((line) => (line.length > 0 ? `    ${line}` : line))
    .join("\n");
  return `def ${renderPythonSignature(spec)}:\n    """\n${indented}\n    """`;
}

/** The OpenAI function-calling rendering (direct tool calling). */
export function toFunctionTool(spec: ToolSpec): {
  type: "function";
  function: { name: string; description: string; parameters: JsonSchemaObject };
} {
  return {
    type: "function",
    function: { name: spec.name, description: spec.description, parameters: spec.inputSchema },
  };
}

/** The MCP tool listing rendering. */
export function toMcpTool(spec: ToolSpec): {
  name: string;
  description: string;
  inputSchema: JsonSchemaObject;
} {
  const inputSchema = { ...spec.inputSchema, type: "object" };
  return { name: spec.name, description: spec.description, inputSchema };
}
