import { z } from "zod";
import { ToolFailure, defineTool, type ToolDefinition } from "../../runtime/index.js";
import type { ToolContext } from "../define-domain.js";
import type { Row } from "../verify-helpers.js";
import { requireEntity, updateEntity } from "./entity-rows.js";
import type { IdFormat } from "./ids.js";

/** The arguments of a status tool: the id (as a string) and the tool's other arguments. */
type StatusToolInput<Input extends z.ZodRawShape> = z.infer<z.ZodObject<Input>> & Record<string, unknown>;

/** A write tool that moves one row from some statuses to another, declared as data. */
export interface StatusToolDefinition<Input extends z.ZodRawShape> {
  name: string;
  description: string;
  /** The row's id format: its field is the first argument and the key column, its `notFound` the miss. */
  id: IdFormat;
  /** The description of the id argument (`The prescription`). */
  idDescription: string;
  /** Arguments after the id, in the order the model sees them. */
  input?: Input;
  table: string;
  /** The column that holds the status (default `status`). */
  statusColumn?: string;
  /** The statuses the row may be changed from. */
  from: readonly string[];
  /** What the tool says when the row is in another status: `invoice INV-00012 is paid; only open invoices ...`. */
  refusal: (id: string, status: string) => string;
  /** The columns to set, in this order, from the arguments (the status among them). */
  set: (input: StatusToolInput<Input>) => Row;
  /** The result key the changed row is returned under. */
  key: string;
}

/**
 * A write tool that checks one row's status and changes it: input `{ <id field>, ...input }`; handler "the
 * row or the id format's not-found failure; `refusal` unless its status is one of `from`; set the columns;
 * the row after the change under `key`". Use `defineTool` with `requireEntity` and `updateEntity` when the
 * change checks more than the row's status or writes more than the row.
 *
 * @example
 * const holdPrescription = defineStatusTool({
 *   name: "hold_prescription",
 *   description: "Put an active prescription on hold. Returns the updated `prescription`.",
 *   id: rxId,
 *   idDescription: "The prescription",
 *   input: { reason: z.string().min(3).describe("Why it is held") },
 *   table: "prescriptions",
 *   from: ["active"],
 *   refusal: (id, status) => `prescription ${id} is ${status}; only active prescriptions can be held`,
 *   set: ({ reason }) => ({ status: "on_hold", hold_reason: reason.trim() }),
 *   key: "prescription",
 * });
 */
export function defineStatusTool<Input extends z.ZodRawShape = Record<never, never>>(
  definition: StatusToolDefinition<Input>,
): ToolDefinition<ToolContext, z.ZodObject<z.ZodRawShape>> {
  const { id: format, table, from, refusal, set, key } = definition;
  const statusColumn = definition.statusColumn ?? "status";
  if (from.length === 0) throw new Error(`status tool '${definition.name}': 'from' names no status`);
  const shape: z.ZodRawShape = {
    [format.field]: format.schema(definition.idDescription),
    ...definition.input,
  };
  return defineTool<ToolContext, z.ZodObject<z.ZodRawShape>>({
    name: definition.name,
    description: definition.description,
    kind: "write",
    inputSchema: z.object(shape),
    handler: (input, { db }) => {
      const id = String(input[format.field]);
      const status = String(requireEntity<Row>(db, table, format, id)[statusColumn]);
      if (!from.includes(status)) throw new ToolFailure(refusal(id, status));
      return { [key]: updateEntity(db, table, format, id, set(input as StatusToolInput<Input>)) };
    },
  });
}
