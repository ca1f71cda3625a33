import type { Tokenizer } from "@huggingface/tokenizers";

/** How many words' token counts are kept before the memo is cleared (a few tens of MB at most). */
export const DEFAULT_WORD_MEMO_CAPACITY = 200_000;

/** Counts the tokens of text that holds no added token, exactly as the tokenizer's `encode` would. */
export interface PieceCounter {
  /** The token count, or undefined for text that normalisation would change (encode that instead). */
  count(piece: string): number | undefined;
  /** Words whose counts are memoised now (bounded by the capacity). */
  readonly memoSize: number;
}

interface TokenizerInternals {
  pre_tokenizer?: { tokenizers?: unknown[] };
  model?: ((tokens: string[]) => string[]) & { fuse_unk?: boolean };
}

interface SplitStep {
  pre_tokenize_text(text: string): string[];
}

/**
 * A fast exact token count for byte-level BPE tokenizers whose pipeline is NFC (or none) -> Split(regex,
 * isolated) -> ByteLevel(no regex, no prefix space) -> BPE, such as Qwen's, Llama 3's and GPT-4-style ones; undefined
 * for any other pipeline (the caller then encodes).
 *
 * Why it is exact: for such a tokenizer `encode` splits the normalised text with the regex, maps each word's bytes
 * and runs BPE on each word on its own, so the token count is the sum of the words' counts. This counter runs the
 * tokenizer's own Split step on the text, and for a word not seen before the tokenizer's own ByteLevel step and
 * BPE model; only the per-word result is memoised (by the word's text). Text that NFC would change is encoded by
 * the caller instead. What this saves is the tokenizer's per-word byte mapping and id lookup, which made counting
 * the bulk of a DTC evaluation's main thread.
 */
export function createPieceCounter(
  tokenizer: Tokenizer,
  tokenizerJson: Record<string, unknown>,
  options: { memoCapacity?: number } = {},
): PieceCounter | undefined {
  const normalizer = tokenizerJson.normalizer as { type?: string } | null | undefined;
  const preTokenizer = tokenizerJson.pre_tokenizer as
    { type?: string; pretokenizers?: Array<Record<string, unknown>> } | null | undefined;
  const model = tokenizerJson.model as
    { type?: string; fuse_unk?: boolean; byte_fallback?: boolean } | undefined;
  const [split, byteLevel] = preTokenizer?.pretokenizers ?? [];
  const supported =
    (normalizer === null || normalizer === undefined || normalizer.type === "NFC") &&
    preTokenizer?.type === "Sequence" &&
    preTokenizer.pretokenizers?.length === 2 &&
    split?.type === "Split" &&
    split.invert === false &&
    String(split.behavior).toLowerCase() === "isolated" &&
    byteLevel?.type === "ByteLevel" &&
    byteLevel.use_regex === false &&
    byteLevel.add_prefix_space === false &&
    model?.type === "BPE" &&
    model.fuse_unk !== true &&
    model.byte_fallback !== true;
  if (!supported) return undefined;
  const internals = tokenizer as unknown as TokenizerInternals;
  const steps = internals.pre_tokenizer?.tokenizers;
  const bpe = internals.model;
  const splitStep = steps?.[0] as SplitStep | undefined;
  const byteLevelStep = steps?.[1] as SplitStep | undefined;
  if (
    typeof bpe !== "function" ||
    typeof splitStep?.pre_tokenize_text !== "function" ||
    typeof byteLevelStep?.pre_tokenize_text !== "function"
  )
    return undefined;
  const normalises = normalizer?.type === "NFC";
  const capacity = options.memoCapacity ?? DEFAULT_WORD_MEMO_CAPACITY;
  const words = new Map<string, number>();
  return {
    get memoSize() {
      return words.size;
    },
    count(piece) {
      if (normalises && piece.normalize("NFC") !== piece) return undefined;
      let total = 0;
      for (const word of splitStep.pre_tokenize_text(piece)) {
        let tokens = words.get(word);
        if (tokens === undefined) {
          tokens = bpe(byteLevelStep.pre_tokenize_text(word)).length;
          if (words.size >= capacity) words.clear();
          words.set(word, tokens);
        }
        total += tokens;
      }
      return total;
    },
  };
}
