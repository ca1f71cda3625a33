import { z } from "zod";
import { harnessModeSchema, interfaceProfileNameSchema } from "../envs/index.js";
import type { JsonSchemaObject } from "../runtime/index.js";

export const END_REASONS = [
  "claim_done",
  "no_tool_calls",
  "max_turns",
  "max_tool_calls",
  "context_limit",
  "max_tokens_per_turn",
  "wall_clock",
  "model_error",
] as const;
export const endReasonSchema = z.enum(END_REASONS);
export type EndReason = z.infer<typeof endReasonSchema>;

/** The trajectory format written now; readers accept every version back to 1. */
export const TRAJECTORY_SCHEMA_VERSION = 2;

/** An Anthropic thinking block, kept verbatim (its signature must go back to the API with tool results). */
export const thinkingBlockSchema = z.union([
  z.looseObject({ type: z.literal("thinking"), thinking: z.string(), signature: z.string().optional() }),
  z.looseObject({ type: z.literal("redacted_thinking"), data: z.string() }),
]);
export type ThinkingBlock = z.infer<typeof thinkingBlockSchema>;

/** A chat message in OpenAI format (tolerant: providers add fields). */
export const chatMessageSchema = z.looseObject({
  role: z.enum(["system", "user", "assistant", "tool"]),
  content: z.string().nullable(),
  /** The model's reasoning (OpenAI-compatible `reasoning_content` / `reasoning`, Anthropic thinking text). v2. */
  reasoning_content: z.string().optional(),
  /** Anthropic thinking blocks as the API returned them. v2. */
  thinking_blocks: z.array(thinkingBlockSchema).optional(),
  tool_calls: z
    .array(
      z.looseObject({
        id: z.string(),
        type: z.literal("function"),
        /** `arguments` is the exact string the model produced (never re-serialised). */
        function: z.object({ name: z.string(), arguments: z.string() }),
      }),
    )
    .optional(),
  tool_call_id: z.string().optional(),
  name: z.string().optional(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const turnRecordSchema = z.object({
  index: z.number().int(),
  /** Tokens in the context sent to the model at this turn. */
  contextTokens: z.number().int(),
  completionTokens: z.number().int(),
  /** Tokens of tool outputs appended to the context after this turn. */
  toolOutputTokens: z.number().int(),
  durationMs: z.number(),
  /** The endpoint's finish reason (`stop`, `tool_calls`, `length`, Anthropic `end_turn`...). v2. */
  finishReason: z.string().nullish(),
  /** Usage the endpoint reported for this turn. v2. */
  usage: z
    .object({
      promptTokens: z.number().int(),
      completionTokens: z.number().int(),
      reasoningTokens: z.number().int().optional(),
    })
    .nullish(),
});
export type TurnRecord = z.infer<typeof turnRecordSchema>;

export const toolCallEntrySchema = z.object({
  turn: z.number().int(),
  name: z.string(),
  args: z.unknown(),
  /** "direct": the model called it as a function; "code": a program called it through the proxy. */
  via: z.enum(["direct", "code"]),
  isError: z.boolean(),
  durationMs: z.number(),
});
export type ToolCallEntry = z.infer<typeof toolCallEntrySchema>;

export const codeBlockSchema = z.object({
  turn: z.number().int(),
  code: z.string(),
  status: z.enum(["ok", "error", "timeout", "killed", "crashed"]),
  output: z.string(),
  errorType: z.string().nullable(),
  toolCallCount: z.number().int(),
  durationMs: z.number(),
});
export type CodeBlock = z.infer<typeof codeBlockSchema>;

export const checkSchema = z.object({ id: z.string(), passed: z.boolean(), message: z.string() });

/** One episode, one JSONL line of trajectories.jsonl (version 2; version 1 lines read with the v2 fields absent). */
export const trajectorySchema = z.object({
  schemaVersion: z.union([z.literal(1), z.literal(2)]),
  runId: z.string(),
  episodeId: z.string(),
  task: z.string(),
  scale: z.enum(["v0", "v1", "v2", "v3"]),
  seed: z.number().int(),
  harness: harnessModeSchema,
  model: z.string(),
  sample: z.number().int(),
  messages: z.array(chatMessageSchema),
  /** The function tools offered to the model (OpenAI format). v2. */
  tools: z
    .array(
      z.object({
        type: z.literal("function"),
        function: z.object({
          name: z.string(),
          description: z.string(),
          parameters: z.custom<JsonSchemaObject>(
            (value) => typeof value === "object" && value !== null && !Array.isArray(value),
            "a JSON Schema object",
          ),
        }),
      }),
    )
    .optional(),
  /** The tokenizer the token counts come from (`qwen3` or a tokenizer folder). v2. */
  tokenizer: z.string().optional(),
  turns: z.array(turnRecordSchema),
  toolCalls: z.array(toolCallEntrySchema),
  codeBlocks: z.array(codeBlockSchema),
  /** Code blocks that failed (error, timeout, killed, crashed) plus refused direct calls in PTC mode. */
  runtimeErrors: z.number().int(),
  /** Direct calls to environment tools refused in PTC mode (counted as PTC errors, as in the paper). */
  refusedDirectCalls: z.number().int(),
  toolOutputTokens: z.number().int(),
  finalContextTokens: z.number().int(),
  endReason: endReasonSchema,
  answer: z.string().nullable(),
  reward: z.union([z.literal(0), z.literal(1)]),
  checks: z.array(checkSchema),
  verifierError: z.string().nullable(),
  error: z.string().nullable(),
  startedAt: z.string(),
  durationMs: z.number(),
  /** The interface profile that presented the meta-tools, when not `default`. */
  interface: interfaceProfileNameSchema.optional(),
  /** Whether `terminal` was offered (absent: it was not). */
  terminal: z.boolean().optional(),
});
export type Trajectory = z.infer<typeof trajectorySchema>;
