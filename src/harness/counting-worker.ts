import {
  ERROR_CODES,
  ProgAgentError,
  startModuleWorker,
  type ErrorCategory,
  type JsonValue,
} from "../core/index.js";
import type { FunctionTool } from "./model-client.js";
import type { ConversationCounter, ConversationCounterSource, TurnCounts } from "./token-counter.js";
import type { ChatMessage } from "./trajectory.js";

/** How long one turn's counts may take before the request fails (a long conversation counts in milliseconds). */
export const DEFAULT_COUNT_DEADLINE_MS = 120_000;

/**
 * Token counting in a worker thread: the chat template's render and the tokenizer run beside the thread that
 * dispatches tool calls (in a DTC evaluation they were a quarter of that thread's time). Counts are those of
 * `createTokenCounter` in this thread: the worker runs the same `countTurn` on a copy of each conversation.
 */
export interface CountingWorker extends ConversationCounterSource {
  /** Settles once the worker has loaded its tokenizer; rejects with the load's error (e.g. a bad folder). */
  readonly ready: Promise<void>;
  /** Ends the worker; a turn still waiting fails. Idempotent. */
  close(): Promise<void>;
}

/** Messages to the worker thread. */
export type CountingRequest =
  | { type: "open"; conversation: number; tools: FunctionTool[] }
  | { type: "turn"; conversation: number; request: number; append: ChatMessage[]; indices: number[] }
  | { type: "close"; conversation: number };

/** An error as it crosses the thread boundary (a `ProgAgentError` keeps its code, category and details). */
export interface CountingFailure {
  message: string;
  code?: string;
  category?: ErrorCategory;
  details?: Record<string, JsonValue>;
}

/** Messages from the worker thread. */
export type CountingReply =
  | { type: "ready"; tokenizerName: string }
  | { type: "counted"; request: number; counts: TurnCounts }
  | { type: "failed"; request?: number; error: CountingFailure };

export function toCountingFailure(error: unknown): CountingFailure {
  if (error instanceof ProgAgentError)
    return { message: error.message, code: error.code, category: error.category, details: error.details };
  return { message: error instanceof Error ? error.message : String(error) };
}

function fromCountingFailure(failure: CountingFailure): Error {
  if (failure.code === undefined || failure.category === undefined) return new Error(failure.message);
  return new ProgAgentError(failure.message, {
    code: failure.code,
    category: failure.category,
    details: failure.details ?? {},
  });
}

interface PendingTurn {
  resolve: (counts: TurnCounts) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/** Starts a counting worker for one tokenizer folder (the built-in Qwen3 tokenizer when omitted). Its owner closes it. */
export function createCountingWorker(
  options: { tokenizer?: string; deadlineMs?: number } = {},
): CountingWorker {
  const deadlineMs = options.deadlineMs ?? DEFAULT_COUNT_DEADLINE_MS;
  const worker = startModuleWorker(import.meta.url, "counting-worker-thread", {
    tokenizer: options.tokenizer,
  });
  worker.unref();
  const pending = new Map<number, PendingTurn>();
  let failure: Error | undefined;
  /** Set by `close` (the owner's end) or when the thread exits. */
  let closed = false;
  let closedByOwner = false;
  let nextConversation = 0;
  let nextRequest = 0;
  let tokenizerName: string | undefined;
  let settleReady: { resolve: () => void; reject: (error: Error) => void } | undefined;
  const ready = new Promise<void>((resolve, reject) => {
    settleReady = { resolve, reject };
  });
  // An unobserved load failure still reaches the first turn; never an unhandled rejection.
  ready.catch(() => {});
  // The worker holds the process open while it loads (someone may await `ready`) and while a turn waits.
  worker.ref();
  const settle = (request: number): PendingTurn | undefined => {
    const entry = pending.get(request);
    if (!entry) return undefined;
    pending.delete(request);
    clearTimeout(entry.timer);
    if (pending.size === 0) worker.unref();
    return entry;
  };
  const fail = (error: Error): void => {
    failure ??= error;
    settleReady?.reject(error);
    for (const request of [...pending.keys()]) settle(request)?.reject(error);
  };
  worker.on("message", (reply: CountingReply) => {
    if (reply.type === "ready") {
      tokenizerName = reply.tokenizerName;
      settleReady?.resolve();
      if (pending.size === 0) worker.unref();
    } else if (reply.type === "counted") settle(reply.request)?.resolve(reply.counts);
    else if (reply.request === undefined) fail(fromCountingFailure(reply.error));
    else settle(reply.request)?.reject(fromCountingFailure(reply.error));
  });
  worker.on("error", (error) =>
    fail(
      new ProgAgentError(`the token counting worker failed: ${error.message}`, {
        code: ERROR_CODES.TOKEN_COUNTING_FAILED,
        category: "system",
        cause: error,
      }),
    ),
  );
  worker.on("exit", (code) => {
    if (!closed)
      fail(
        new ProgAgentError(`the token counting worker exited (code ${code})`, {
          code: ERROR_CODES.TOKEN_COUNTING_FAILED,
          category: "system",
        }),
      );
    closed = true;
  });

  const post = (message: CountingRequest): void => {
    if (closedByOwner) throw new Error("the token counting worker is closed");
    if (failure) throw failure;
    if (closed) throw new Error("the token counting worker is closed");
    worker.postMessage(message);
  };

  return {
    get tokenizerName() {
      if (tokenizerName === undefined)
        throw new Error("the token counting worker's tokenizer is not loaded yet: await ready first");
      return tokenizerName;
    },
    ready,
    openConversation(tools) {
      const conversation = nextConversation++;
      let sent = 0;
      let open = true;
      post({ type: "open", conversation, tools: [...tools] });
      const counter: ConversationCounter = {
        turn(messages, indices) {
          return new Promise<TurnCounts>((resolve, reject) => {
            if (!open) throw new Error("this conversation's counter is closed");
            if (messages.length < sent)
              throw new Error(
                `a counted conversation only grows: it had ${sent} messages, now ${messages.length}`,
              );
            const request = nextRequest++;
            const timer = setTimeout(() => {
              settle(request)?.reject(
                new ProgAgentError(`the token counting worker did not answer within ${deadlineMs} ms`, {
                  code: ERROR_CODES.TIMEOUT,
                  category: "system",
                }),
              );
            }, deadlineMs);
            pending.set(request, { resolve, reject, timer });
            worker.ref();
            try {
              post({
                type: "turn",
                conversation,
                request,
                append: messages.slice(sent),
                indices: [...indices],
              });
              sent = messages.length;
            } catch (error) {
              settle(request);
              throw error;
            }
          });
        },
        close() {
          if (!open) return;
          open = false;
          if (!failure && !closed)
            worker.postMessage({ type: "close", conversation } satisfies CountingRequest);
        },
      };
      return counter;
    },
    async close() {
      if (closed) return;
      closed = true;
      closedByOwner = true;
      fail(new Error("the token counting worker was closed while counts were due"));
      await worker.terminate();
    },
  };
}
