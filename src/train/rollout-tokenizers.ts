import { ERROR_CODES } from "../core/index.js";
import type { ChatRenderer } from "../chat-template/index.js";
import { RolloutError } from "./rollout-answers.js";

/** The tokenizers a rollout service serves: the default and the folders it was started with, each made once. */
export interface TokenizerSet {
  /** The renderer of a served tokenizer name (undefined: the default); a 400 for any other name. */
  get(tokenizer: string | undefined): Promise<ChatRenderer>;
}

export function createTokenizerSet(options: {
  create: ((tokenizer: string | undefined) => Promise<ChatRenderer>) | undefined;
  served: readonly string[];
}): TokenizerSet {
  const made = new Map<string, Promise<ChatRenderer>>();
  return {
    get(tokenizer) {
      if (!options.create)
        throw new RolloutError(
          "this service has no token renderer; create episodes without `render`",
          400,
          ERROR_CODES.INVALID_ARGUMENT,
        );
      if (tokenizer !== undefined && !options.served.includes(tokenizer))
        throw new RolloutError(
          `tokenizer ${JSON.stringify(tokenizer)} is not served here; served: the default${options.served.map((name) => `, ${JSON.stringify(name)}`).join("")} (rollout serve --tokenizer <folder> adds one)`,
          400,
          ERROR_CODES.INVALID_ARGUMENT,
        );
      const key = tokenizer ?? "";
      let renderer = made.get(key);
      if (!renderer) {
        renderer = options.create(tokenizer);
        made.set(key, renderer);
        renderer.catch(() => made.delete(key));
      }
      return renderer;
    },
  };
}
