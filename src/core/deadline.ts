import { ERROR_CODES, ProgAgentError } from "./errors.js";

/** A signal that aborts when either the parent aborts or the timeout elapses. */
export function deadlineSignal(timeoutMs: number, parent?: AbortSignal): AbortSignal {
  const timeout = AbortSignal.timeout(Math.max(0, timeoutMs));
  return parent ? AbortSignal.any([parent, timeout]) : timeout;
}

/** Races a promise against a signal; rejects with a TIMEOUT/ABORTED error naming what was waited for. */
export async function withDeadline<T>(
  promise: Promise<T>,
  options: { timeoutMs: number; signal?: AbortSignal; what: string },
): Promise<T> {
  const signal = deadlineSignal(options.timeoutMs, options.signal);
  if (signal.aborted) {
    promise.catch(() => undefined);
    throw abortError(signal, options.what, options.timeoutMs);
  }
  return await new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortError(signal, options.what, options.timeoutMs));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

function abortError(signal: AbortSignal, what: string, timeoutMs: number): ProgAgentError {
  const reason: unknown = signal.reason;
  const timedOut = reason instanceof DOMException && reason.name === "TimeoutError";
  return timedOut
    ? new ProgAgentError(`${what} did not finish within ${timeoutMs} ms`, {
        code: ERROR_CODES.TIMEOUT,
        category: "upstream",
        details: { timeoutMs },
      })
    : new ProgAgentError(`${what} was aborted`, {
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
