import { z } from "zod";
import { harnessModeSchema, interfaceProfileNameSchema, scaleSchema } from "../envs/index.js";

/** `POST /v1/episodes` */
export const createEpisodeBodySchema = z.object({
  task: z.string().min(1),
  scale: scaleSchema,
  seed: z.number().int().min(0).optional(),
  mode: harnessModeSchema,
  render: z
    .object({ tokenizer: z.string().min(1).optional(), enable_thinking: z.boolean().optional() })
    .optional(),
  /** Offer `terminal{command}` (ls, find, cat in the workspace); default: the interface profile's choice. */
  terminal: z.boolean().optional(),
  /** How the meta-tools are presented: progagent's own (`default`) or as the paper's runtime did (`paper`). */
  interface: interfaceProfileNameSchema.optional(),
});
export type CreateEpisodeBody = z.infer<typeof createEpisodeBodySchema>;

/** Tool calls one turn makes at most (a tool_calls request, or the calls parsed from one completion). */
export const MAX_CALLS_PER_TURN = 64;

/** `POST /v1/episodes/{id}/tool_calls` */
export const toolCallsBodySchema = z.object({
  calls: z
    .array(
      z.object({
        id: z.string().optional(),
        name: z.string().min(1),
        arguments: z.union([z.record(z.string(), z.unknown()), z.string()]).optional(),
      }),
    )
    .min(1)
    .max(MAX_CALLS_PER_TURN),
});
export type ToolCallsBody = z.infer<typeof toolCallsBodySchema>;

/** `POST /v1/tokenize` and `/v1/detokenize`: the service's own tokenizer, for trainers and debugging. */
export const tokenizeBodySchema = z
  .object({ text: z.string(), tokenizer: z.string().min(1).optional() })
  .strict();
export const detokenizeBodySchema = z
  .object({
    token_ids: z.array(z.number().int().min(0)).max(1_000_000),
    tokenizer: z.string().min(1).optional(),
  })
  .strict();

/** `POST /v1/episodes/{id}/completion`: exactly one of text and token_ids. */
export const completionBodySchema = z.union([
  z.object({ text: z.string() }).strict(),
  z.object({ token_ids: z.array(z.number().int().min(0)).max(1_000_000) }).strict(),
]);
export type CompletionBody = z.infer<typeof completionBodySchema>;
