import { ERROR_CODES, ProgAgentError } from "./errors.js";

/** Whether a value is a promise (or any thenable) rather than a plain result: for paths that answer synchronously when they can. */
export function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

/** A signal that aborts when either the parent aborts or the timeout elapses. */
export function deadlineSignal(timeoutMs: number, parent?: AbortSignal): AbortSignal {
  const timeout = AbortSignal.timeout(Math.max(0, timeoutMs));
  return parent ? AbortSignal.any([parent, timeout]) : timeout;
}

/**
 * Races a promise against a timeout and an optional signal; rejects with a TIMEOUT/ABORTED error naming what
 * was waited for. Uses one plain timer (cheaper than AbortSignal.timeout on hot paths such as tool calls).
 */
export async function withDeadline<T>(
  promise: Promise<T>,
  options: { timeoutMs: number; signal?: AbortSignal | undefined; what: string },
): Promise<T> {
  const { signal, what, timeoutMs } = options;
  if (signal?.aborted) {
    promise.catch(() => undefined);
    throw abortedError(what, signal.reason);
  }
  return await new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortedError(what, signal?.reason));
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener("abort", onAbort);
        reject(
          new ProgAgentError(`${what} did not finish within ${timeoutMs} ms`, {
            code: ERROR_CODES.TIMEOUT,
            category: "upstream",
            details: { timeoutMs },
          }),
        );
      },
      Math.max(0, timeoutMs),
    );
    signal?.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** The ABORTED error `withDeadline` rejects with when `signal` aborts the wait for `what`. */
export function abortedError(what: string, reason: unknown): ProgAgentError {
  return new ProgAgentError(`${what} was aborted`, {
    code: ERROR_CODES.ABORTED,
    category: "user",
    cause: reason,
  });
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new ProgAgentError("sleep aborted", { code: ERROR_CODES.ABORTED, category: "user" }));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new ProgAgentError("sleep aborted", { code: ERROR_CODES.ABORTED, category: "user" }));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
