import type { Worker } from "node:worker_threads";
import { ERROR_CODES, ProgAgentError, startModuleWorker, type ErrorCategory } from "../core/index.js";
import type { ChatMessage, FunctionTool } from "../harness/index.js";

/**
 * The rollout service's tokenizer. Every method runs on worker threads, never on the event loop: one
 * pre-tokenised word is costly to tokenise (256 KiB of one letter took 11.5 s), and model output and tool output
 * are hostile, so tokenising must never hold the thread that answers every other episode.
 */
export interface RolloutTokenizer {
  /** Settles once a thread has loaded the tokenizer; rejects with the load's error (e.g. a bad folder). */
  readonly ready: Promise<void>;
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
   * boundary the template puts after it, the messages, the next generation prompt.
   */
  observationTokenIds(request: ObservationRequest): Promise<number[]>;
  /** Jobs running and waiting now, and the threads started (for /metrics). */
  readonly load: TokenizerLoad;
  /** Ends the threads; a job still waiting or running fails. Idempotent. */
  close(): Promise<void>;
}

export interface TokenizerLoad {
  running: number;
  waiting: number;
  threads: number;
}

export interface ObservationRequest {
  messages: readonly ChatMessage[];
  tools: readonly FunctionTool[];
  /**
   * How the model's output ended, which is all the boundary depends on: its last token id, or the tail of its
   * text (the output itself is never re-tokenised).
   */
  generated: { lastTokenId: number | undefined } | { textTail: string };
  enableThinking?: boolean | undefined;
}

/** Characters of a completion's end sent to the thread: more than any template's end-of-turn marker. */
export const GENERATED_TAIL_CHARS = 256;

/** A job as it crosses to the thread. */
export type TokenizerJob =
  | { op: "encode"; text: string }
  | { op: "decode"; tokenIds: readonly number[] }
  | {
      op: "prompt";
      messages: readonly ChatMessage[];
      tools: readonly FunctionTool[];
      enableThinking?: boolean;
    }
  | ({ op: "observation" } & ObservationRequest);

/** An error as it crosses the thread boundary (a `ProgAgentError` keeps its code and category). */
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
  /**
   * Threads at most (default 2: one costly job leaves the other serving every other episode). One starts at
   * once; another only when a job finds every started thread busy, so a lone client pays one load.
   */
  threads?: number;
  /** A thread that has not loaded the tokenizer after this long is ended (default 10 min: a load is seconds). */
  startDeadlineMs?: number;
  /** A job running longer than this ends its thread (a new one starts) and fails with TIMEOUT (default 60 s). */
  runDeadlineMs?: number;
  /**
   * A job waiting longer than this for a free thread fails with TIMEOUT (default 120 s). The clock starts once a
   * thread has loaded: the first load is bounded by the start deadline instead.
   */
  waitDeadlineMs?: number;
}

interface Pending {
  job: TokenizerJob;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  waitTimer: NodeJS.Timeout | undefined;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  startTimer: NodeJS.Timeout | undefined;
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
  const maxThreads = Math.max(1, options.threads ?? 2);
  const startDeadlineMs = options.startDeadlineMs ?? 600_000;
  const runDeadlineMs = options.runDeadlineMs ?? 60_000;
  const waitDeadlineMs = options.waitDeadlineMs ?? 120_000;
  const queue: Pending[] = [];
  const slots: Slot[] = [];
  let nextId = 0;
  let loadedOnce = false;
  let failure: Error | undefined;
  let closed = false;
  let settleReady: { resolve: () => void; reject: (error: Error) => void } | undefined;
  const ready = new Promise<void>((resolve, reject) => (settleReady = { resolve, reject }));
  ready.catch(() => undefined); // an unobserved load failure still reaches every job

  const armWait = (pending: Pending): void => {
    pending.waitTimer ??= setTimeout(() => {
      const index = queue.indexOf(pending);
      if (index < 0) return;
      queue.splice(index, 1);
      pending.reject(
        timeoutError(`no tokenizer thread was free within ${waitDeadlineMs / 1000} s; retry later`),
      );
    }, waitDeadlineMs);
  };
  const take = (pending: Pending): Pending => {
    clearTimeout(pending.waitTimer);
    return pending;
  };
  const failAll = (error: Error): void => {
    failure ??= error;
    settleReady?.reject(error);
    for (const pending of queue.splice(0)) take(pending).reject(error);
    refreshRefs();
  };
  /** Threads keep the process alive while they load (someone may await `ready`) and while a job runs. */
  const refreshRefs = (): void => {
    for (const slot of slots) {
      if (slot.running || !slot.ready) slot.worker.ref();
      else slot.worker.unref();
    }
  };

  const startSlot = (): Slot => {
    const worker = startModuleWorker(import.meta.url, "rollout-tokenizer-thread", {
      tokenizer: options.tokenizer,
    });
    const slot: Slot = { worker, ready: false, startTimer: undefined, running: undefined };
    slot.startTimer = setTimeout(
      () => replace(slot, timeoutError(`a tokenizer thread did not load within ${startDeadlineMs / 1000} s`)),
      startDeadlineMs,
    );
    slot.startTimer.unref();
    worker.on("message", (reply: TokenizerReply) => onReply(slot, reply));
    worker.on("error", (error) => onExit(slot, error));
    worker.on("exit", (code) => onExit(slot, new Error(`the tokenizer thread exited (code ${code})`)));
    return slot;
  };

  const onLoaded = (slot: Slot): void => {
    slot.ready = true;
    clearTimeout(slot.startTimer);
    refreshRefs();
    if (loadedOnce) return;
    loadedOnce = true;
    settleReady?.resolve();
    for (const pending of queue) armWait(pending);
  };

  const finishRun = (slot: Slot): Pending | undefined => {
    const running = slot.running;
    if (!running) return undefined;
    slot.running = undefined;
    clearTimeout(running.runTimer);
    return running.pending;
  };

  const onReply = (slot: Slot, reply: TokenizerReply): void => {
    if (reply.type === "ready") onLoaded(slot);
    else if (reply.type === "failed" && reply.id === undefined)
      return replace(slot, fromFailure(reply.error));
    else if (slot.running?.id === reply.id) {
      const pending = finishRun(slot)!;
      if (reply.type === "done") pending.resolve(reply.value);
      else pending.reject(fromFailure(reply.error));
    }
    dispatch();
  };

  /** A thread that died, failed to load or overran a deadline is ended; its job fails alone. */
  const replace = (slot: Slot, error: Error): void => {
    const index = slots.indexOf(slot);
    if (index < 0) return;
    slots.splice(index, 1);
    clearTimeout(slot.startTimer);
    finishRun(slot)?.reject(error);
    slot.worker.removeAllListeners();
    slot.worker.on("error", () => undefined);
    void slot.worker.terminate();
    // A thread that never loaded fails the same way again: every waiting job gets its error.
    if (!slot.ready && !loadedOnce) return failAll(error);
    dispatch();
  };
  const onExit = (slot: Slot, error: Error): void => replace(slot, error);

  const dispatch = (): void => {
    if (closed || failure) return;
    for (const slot of slots) {
      if (queue.length === 0) break;
      if (!slot.ready || slot.running) continue;
      const pending = take(queue.shift()!);
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
    // Every started thread is busy or loading and jobs wait: one more thread, up to the maximum.
    const starting = slots.some((slot) => !slot.ready);
    if (queue.length > 0 && !starting && slots.length < maxThreads) slots.push(startSlot());
    refreshRefs();
  };

  const submit = <T>(job: TokenizerJob): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (closed) return reject(new Error("the tokenizer threads are closed"));
      if (failure) return reject(failure);
      const pending: Pending = {
        job,
        resolve: resolve as (value: unknown) => void,
        reject,
        waitTimer: undefined,
      };
      if (loadedOnce) armWait(pending);
      queue.push(pending);
      dispatch();
    });

  slots.push(startSlot());
  refreshRefs();

  return {
    ready,
    get load() {
      return {
        running: slots.filter((slot) => slot.running).length,
        waiting: queue.length,
        threads: slots.length,
      };
    },
    encode: (text) => submit<number[]>({ op: "encode", text }),
    decode: (tokenIds) => submit<string>({ op: "decode", tokenIds }),
    promptTokenIds: (messages, tools, enableThinking) =>
      submit<number[]>({
        op: "prompt",
        messages,
        tools,
        ...(enableThinking === undefined ? {} : { enableThinking }),
      }),
    observationTokenIds: (request) => submit<number[]>({ op: "observation", ...request }),
    async close() {
      if (closed) return;
      const error = new Error("the tokenizer threads were closed");
      failAll(error);
      closed = true;
      const ending = slots.splice(0);
      for (const slot of ending) {
        clearTimeout(slot.startTimer);
        finishRun(slot)?.reject(error);
        slot.worker.removeAllListeners();
        slot.worker.on("error", () => undefined);
      }
      await Promise.all(ending.map((slot) => slot.worker.terminate()));
    },
  };
}
