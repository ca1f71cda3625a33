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

/** Renders a JSON Schema type as a Python annotation. */
export function pythonType(schema: JsonSchemaObject | undefined): string {
  if (!schema || typeof schema !== "object") return "Any";
  if (Array.isArray(schema.enum))
    return `Literal[${schema.enum.map((value) => JSON.stringify(value)).join(", ")}]`;
  if (schema.const !== undefined) return `Literal[${JSON.stringify(schema.const)}]`;
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
      return schema.items ? `list[${pythonType(schema.items as JsonSchemaObject)}]` : "list";
    case "object":
      return "dict";
    default:
      return "Any";
  }
}

export interface PythonParameter {
  name: string;
  annotation: string;
  required: boolean;
  defaultRepr: string | null;
  description: string;
}

/** Parameters in schema order, required first (Python requires that), as positional calls map them. */
export function pythonParameters(inputSchema: JsonSchemaObject): PythonParameter[] {
  const properties = inputSchema.properties ?? {};
  const required = new Set(inputSchema.required ?? []);
  const parameters = Object.entries(properties).map(([name, schema]) => ({
    name,
    annotation: pythonType(schema),
    required: required.has(name),
    defaultRepr: schema.default === undefined ? null : pythonLiteral(schema.default),
    description: typeof schema.description === "string" ? schema.description : "",
  }));
  return [
    ...parameters.filter((parameter) => parameter.required),
    ...parameters.filter((parameter) => !parameter.required),
  ];
}

function pythonLiteral(value: unknown): string {
  if (value === null) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "string" || typeof value === "number") return JSON.stringify(value);
  return JSON.stringify(value)
    .replace(/\btrue\b/g, "True")
    .replace(/\bfalse\b/g, "False")
    .replace(/\bnull\b/g, "None");
}

/** `name(a: str, b: int = 10, c: str | None = None) -> dict` */
export function renderPythonSignature(spec: Pick<ToolSpec, "name" | "inputSchema" | "kind">): string {
  const parameters = pythonParameters(spec.inputSchema).map((parameter) => {
    if (parameter.required) return `${parameter.name}: ${parameter.annotation}`;
    return `${parameter.name}: ${parameter.annotation} = ${parameter.defaultRepr ?? "None"}`;
  });
  const returns = spec.kind ? "dict" : "Any";
  return `${spec.name}(${parameters.join(", ")}) -> ${returns}`;
}

/** A docstring: the description, then one line per argument. */
export function renderPythonDocstring(spec: Pick<ToolSpec, "description" | "inputSchema">): string {
  const parameters = pythonParameters(spec.inputSchema);
  const lines = [spec.description.trim()];
  if (parameters.length > 0) {
    lines.push("", "Args:");
    for (const parameter of parameters) {
      const optional = parameter.required ? "" : ", optional";
      lines.push(
        `    ${parameter.name} (${parameter.annotation}${optional}): ${parameter.description}`.trimEnd(),
      );
    }
  }
  return lines.join("\n");
}

/** The PTC documentation block of one tool: the `tools[...]` call form, signature and docstring. */
export function renderPythonDoc(spec: ToolSpec, options: { maxDescriptionChars?: number } = {}): string {
  const limit = options.maxDescriptionChars ?? Number.POSITIVE_INFINITY;
  const docstring = renderPythonDocstring(spec);
  const shortened =
    docstring.length > limit
      ? `${docstring.slice(0, limit).trimEnd()} ... (full docs: help(tools.${pythonAttributeName(spec.name)}))`
      : docstring;
  const indented = shortened
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
