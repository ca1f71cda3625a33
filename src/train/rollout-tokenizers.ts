import { ERROR_CODES } from "../core/index.js";
import { RolloutError } from "./rollout-answers.js";
import type { RolloutTokenizer, TokenizerLoad } from "./rollout-tokenizer.js";

/** The tokenizers a rollout service serves: the default and the folders it was started with, each made once. */
export interface TokenizerSet {
  /** The tokenizer of a served name (undefined: the default); a 400 for any other name. */
  get(tokenizer: string | undefined): Promise<RolloutTokenizer>;
  /** Jobs and threads of every tokenizer loaded so far, summed. */
  load(): TokenizerLoad;
  /** Closes every tokenizer made. */
  close(): Promise<void>;
}

export function createTokenizerSet(options: {
  create: ((tokenizer: string | undefined) => Promise<RolloutTokenizer>) | undefined;
  served: readonly string[];
}): TokenizerSet {
  const made = new Map<string, Promise<RolloutTokenizer>>();
  const loaded = new Set<RolloutTokenizer>();
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
      let tokenizerPromise = made.get(key);
      if (!tokenizerPromise) {
        tokenizerPromise = options.create(tokenizer).then(async (made) => {
          loaded.add(made);
          // A tokenizer that cannot load is not kept: the next request tries again and gets the error.
          await made.ready.catch(async (error: unknown) => {
            loaded.delete(made);
            await made.close();
            throw error;
          });
          return made;
        });
        made.set(key, tokenizerPromise);
        tokenizerPromise.catch(() => made.delete(key));
      }
      return tokenizerPromise;
    },
    load() {
      const total: TokenizerLoad = { running: 0, waiting: 0, threads: 0 };
      for (const tokenizer of loaded) {
        const { running, waiting, threads } = tokenizer.load;
        total.running += running;
        total.waiting += waiting;
        total.threads += threads;
      }
      return total;
    },
    async close() {
      const settled = await Promise.allSettled(made.values());
      made.clear();
      loaded.clear();
      await Promise.all(
        settled.map((entry) => (entry.status === "fulfilled" ? entry.value.close() : Promise.resolve())),
      );
    },
  };
}
