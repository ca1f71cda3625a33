import type { Worker } from "node:worker_threads";
import { ERROR_CODES, ProgAgentError, startModuleWorker, type ErrorCategory } from "../core/index.js";
import type { ChatMessage, FunctionTool } from "../harness/index.js";

/**
 * The rollout service's tokenizer. Every method runs off the event loop: tokenising is superlinear in the
 * length of one pre-tokenised word (256 KiB of one letter took 11.5 s), and tool output and model output are
 * hostile, so it must never hold the thread that answers every other episode.
 */
export interface RolloutTokenizer {
  encode(text: string): Promise<number[]>;
  /** Text of token ids; an id outside the vocabulary is a user error naming it. */
  decode(tokenIds: readonly number[]): Promise<string>;
  /** The system and user messages with the tools, rendered with the generation prompt. */
  promptTokenIds(
    messages: readonly ChatMessage[],
    tools: readonly FunctionTool[],
    enableThinking?: boolean,
  ): Promise<number[]>;
  /**
   * Tokens to append after the model's output: the end-of-turn token when generation did not produce it, the
   * boundary the template puts after it, the messages, the next generation prompt. Only whether the output
   * ended its turn matters, so the output is given by its last token id, or as text (never re-tokenised).
   */
  observationTokenIds(input: ObservationRequest): Promise<number[]>;
  close(): Promise<void>;
}

export interface ObservationRequest {
  messages: readonly ChatMessage[];
  tools: readonly FunctionTool[];
  generated: { lastTokenId: number | undefined } | { text: string };
  enableThinking?: boolean | undefined;
}

/** A job as it crosses to the thread. */
export type TokenizerJob =
  | { op: "encode"; text: string }
  | { op: "decode"; tokenIds: readonly number[] }
  | {
      op: "prompt";
      messages: readonly ChatMessage[];
      tools: readonly FunctionTool[];
      enableThinking?: boolean | undefined;
    }
  | ({ op: "observation" } & ObservationRequest);

export interface TokenizerFailure {
  message: string;
  code?: string;
  category?: ErrorCategory;
}

export type TokenizerReply =
  | { type: "ready" }
  | { type: "done"; id: number; value: unknown }
  | { type: "failed"; id?: number; error: TokenizerFailure };

export interface TokenizerWorkerOptions {
  /** A Hugging Face tokenizer folder; the built-in Qwen3 tokenizer when omitted. */
  tokenizer?: string | undefined;
  /** Worker threads (default 2: one costly job leaves the other serving every other episode). */
  threads?: number;
  /** A job running longer than this ends its thread (a new one starts) and fails with TIMEOUT (default 30 s). */
  runDeadlineMs?: number;
  /** A job waiting longer than this for a free thread fails with TIMEOUT (default 120 s). */
  waitDeadlineMs?: number;
}

interface Pending {
  job: TokenizerJob;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  waitTimer: NodeJS.Timeout;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  running: { id: number; pending: Pending; runTimer: NodeJS.Timeout } | undefined;
}

function timeoutError(message: string): ProgAgentError {
  return new ProgAgentError(message, { code: ERROR_CODES.TIMEOUT, category: "user" });
}

function fromFailure(failure: TokenizerFailure): Error {
  if (failure.code === undefined || failure.category === undefined) return new Error(failure.message);
  return new ProgAgentError(failure.message, { code: failure.code, category: failure.category });
}

/** Starts tokenizer threads for one folder; the caller owns them (`close`). */
export function startTokenizerWorkers(options: TokenizerWorkerOptions = {}): RolloutTokenizer {
  const runDeadlineMs = options.runDeadlineMs ?? 30_000;
  const waitDeadlineMs = options.waitDeadlineMs ?? 120_000;
  const queue: Pending[] = [];
  const slots: Slot[] = [];
  let nextId = 0;
  let failure: Error | undefined;
  let closed = false;

  const failAll = (error: Error): void => {
    failure ??= error;
    for (const pending of queue.splice(0)) settle(pending).reject(error);
  };
  const settle = (pending: Pending): Pending => {
    clearTimeout(pending.waitTimer);
    return pending;
  };

  const startSlot = (): Slot => {
    const slot: Slot = {
      worker: startModuleWorker(import.meta.url, "rollout-tokenizer-thread", {
        tokenizer: options.tokenizer,
      }),
      ready: false,
      running: undefined,
    };
    slot.worker.unref();
    slot.worker.on("message", (reply: TokenizerReply) => onReply(slot, reply));
    slot.worker.on("error", (error) => onExit(slot, error));
    slot.worker.on("exit", (code) => onExit(slot, new Error(`the tokenizer thread exited (code ${code})`)));
    return slot;
  };

  const finishRun = (slot: Slot): Pending | undefined => {
    const running = slot.running;
    if (!running) return undefined;
    slot.running = undefined;
    clearTimeout(running.runTimer);
    return running.pending;
  };

  const onReply = (slot: Slot, reply: TokenizerReply): void => {
    if (reply.type === "ready") slot.ready = true;
    else if (reply.id === undefined && reply.type === "failed") return failAll(fromFailure(reply.error));
    else if (slot.running?.id === reply.id) {
      const pending = finishRun(slot)!;
      if (reply.type === "done") pending.resolve(reply.value);
      else pending.reject(fromFailure(reply.error));
    }
    dispatch();
  };

  /** A thread that died (or was ended for its deadline) is replaced; its job fails alone. */
  const replace = (slot: Slot, error: Error): void => {
    finishRun(slot)?.reject(error);
    const index = slots.indexOf(slot);
    if (index < 0 || closed) return;
    slot.worker.removeAllListeners();
    slot.worker.on("error", () => undefined);
    void slot.worker.terminate();
    if (!slot.ready) return failAll(error); // it never loaded: a new one would fail the same way
    slots[index] = startSlot();
  };
  const onExit = (slot: Slot, error: Error): void => {
    if (slots.includes(slot)) replace(slot, error);
  };

  const dispatch = (): void => {
    for (const slot of slots) {
      if (queue.length === 0) return;
      if (!slot.ready || slot.running) continue;
      const pending = settle(queue.shift()!);
      const id = nextId++;
      const runTimer = setTimeout(
        () =>
          replace(
            slot,
            timeoutError(`tokenising took over ${runDeadlineMs / 1000} s; send less text per request`),
          ),
        runDeadlineMs,
      );
      slot.running = { id, pending, runTimer };
      slot.worker.postMessage({ id, job: pending.job });
    }
  };

  const submit = <T>(job: TokenizerJob): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (closed) return reject(new Error("the tokenizer threads are closed"));
      if (failure) return reject(failure);
      const pending: Pending = {
        job,
        resolve: resolve as (value: unknown) => void,
        reject,
        waitTimer: setTimeout(() => {
          const index = queue.indexOf(pending);
          if (index >= 0) queue.splice(index, 1);
          reject(timeoutError(`no tokenizer thread was free within ${waitDeadlineMs / 1000} s`));
        }, waitDeadlineMs),
      };
      queue.push(pending);
      dispatch();
    });

  for (let index = 0; index < Math.max(1, options.threads ?? 2); index += 1) slots.push(startSlot());

  return {
    encode: (text) => submit<number[]>({ op: "encode", text }),
    decode: (tokenIds) => submit<string>({ op: "decode", tokenIds }),
    promptTokenIds: (messages, tools, enableThinking) =>
      submit<number[]>({ op: "prompt", messages, tools, enableThinking }),
    observationTokenIds: (input) => submit<number[]>({ op: "observation", ...input }),
    async close() {
      if (closed) return;
      closed = true;
      failAll(new Error("the tokenizer threads were closed"));
      const ending = slots.splice(0);
      for (const slot of ending) finishRun(slot)?.reject(new Error("the tokenizer threads were closed"));
      await Promise.all(ending.map((slot) => slot.worker.terminate()));
    },
  };
}
