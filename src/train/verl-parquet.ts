import type { parquetWriteBuffer as ParquetWriteBuffer } from "hyparquet-writer";
import { createRequire } from "node:module";

type SchemaElement = Parameters<typeof ParquetWriteBuffer>[0]["schema"] extends (infer Element)[] | undefined
  ? Element
  : never;

const text = (name: string): SchemaElement => ({
  name,
  type: "BYTE_ARRAY",
  converted_type: "UTF8",
  repetition_type: "OPTIONAL",
});
const list = (name: string, element: SchemaElement[], fields: number): SchemaElement[] => [
  { name, repetition_type: "OPTIONAL", converted_type: "LIST", num_children: 1 },
  { name: "list", repetition_type: "REPEATED", num_children: 1 },
  { name: "element", repetition_type: "OPTIONAL", num_children: fields },
  ...element,
];

/** A column of a parquet file: a name, its schema elements (depth first) and one value per row. */
export interface ParquetColumn {
  name: string;
  schema: SchemaElement[];
  data: unknown[];
}

export const PARQUET_TYPES = {
  text: (name: string, data: Array<string | null>): ParquetColumn => ({ name, schema: [text(name)], data }),
  integer: (name: string, data: number[]): ParquetColumn => ({
    name,
    schema: [{ name, type: "INT64", repetition_type: "OPTIONAL" }],
    data: data.map((value) => BigInt(value)),
  }),
  boolean: (name: string, data: boolean[]): ParquetColumn => ({
    name,
    schema: [{ name, type: "BOOLEAN", repetition_type: "OPTIONAL" }],
    data,
  }),
  /** OpenAI-format messages as list<struct<role, content, reasoning_content, tool_calls, tool_call_id>>. */
  messages: (name: string, data: unknown[]): ParquetColumn => ({
    name,
    schema: list(
      name,
      [
        text("role"),
        text("content"),
        text("reasoning_content"),
        ...list(
          "tool_calls",
          [
            text("id"),
            text("type"),
            { name: "function", repetition_type: "OPTIONAL", num_children: 2 },
            text("name"),
            text("arguments"),
          ],
          3,
        ),
        text("tool_call_id"),
      ],
      5,
    ),
    data,
  }),
  /** Chat messages with only role and content (verl's RL prompt). */
  prompt: (name: string, data: unknown[]): ParquetColumn => ({
    name,
    schema: list(name, [text("role"), text("content")], 2),
    data,
  }),
  /** A struct of text and integer fields, in the given order. */
  struct: (name: string, fields: Array<[string, "text" | "integer"]>, data: unknown[]): ParquetColumn => ({
    name,
    schema: [
      { name, repetition_type: "OPTIONAL", num_children: fields.length },
      ...fields.map(([field, kind]): SchemaElement =>
        kind === "text" ? text(field) : { name: field, type: "INT64", repetition_type: "OPTIONAL" },
      ),
    ],
    data,
  }),
};

/** Writes columns to parquet bytes (snappy, one schema), with key-value metadata. */
export function parquetBytes(columns: ParquetColumn[], metadata: Record<string, string>): Uint8Array {
  // An ES module without top-level await, so require() loads it: only the commands that write parquet pay for it.
  const { parquetWriteBuffer } = createRequire(import.meta.url)("hyparquet-writer") as {
    parquetWriteBuffer: typeof ParquetWriteBuffer;
  };
  const buffer = parquetWriteBuffer({
    columnData: columns.map((column) => ({ name: column.name, data: column.data as never })),
    schema: [{ name: "root", num_children: columns.length }, ...columns.flatMap((column) => column.schema)],
    kvMetadata: Object.entries(metadata).map(([key, value]) => ({ key, value })),
    createdBy: "progagent",
  });
  return new Uint8Array(buffer);
}

/** A message in the shape of the messages column (every field present, absent ones null). */
export function parquetMessage(message: {
  role: string;
  content: string | null;
  reasoning_content?: string | undefined;
  tool_calls?:
    ReadonlyArray<{ id?: string; type?: string; function: { name: string; arguments: string } }> | undefined;
  tool_call_id?: string | undefined;
}): Record<string, unknown> {
  return {
    role: message.role,
    content: message.content ?? "",
    reasoning_content: message.reasoning_content ?? null,
    tool_calls:
      message.tool_calls && message.tool_calls.length > 0
        ? message.tool_calls.map((call) => ({
            id: call.id ?? null,
            type: call.type ?? "function",
            function: { name: call.function.name, arguments: call.function.arguments },
          }))
        : null,
    tool_call_id: message.tool_call_id ?? null,
  };
}
