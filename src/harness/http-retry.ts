import { ERROR_CODES, ProgAgentError, deadlineSignal, errorMessage, sleep } from "../core/index.js";

export interface RetryOptions {
  /** Hard deadline of one request attempt. */
  requestTimeoutMs: number;
  maxRetries: number;
  /** First backoff; doubles each retry (with jitter), capped at 30 s; Retry-After wins when given. */
  initialBackoffMs: number;
  signal?: AbortSignal;
}

/**
 * POSTs JSON with retries on 429, 5xx and timeouts / network errors, a hard deadline per attempt, and a
 * clear error for other 4xx (which retrying cannot fix).
 */
export async function postJsonWithRetry(
  url: string,
  body: unknown,
  headers: Record<string, string>,
  options: RetryOptions,
): Promise<unknown> {
  let lastError = "";
  for (let attempt = 0; attempt <= options.maxRetries; attempt += 1) {
    if (options.signal?.aborted)
      throw new ProgAgentError("model request aborted", { code: ERROR_CODES.ABORTED, category: "user" });
    let retryAfterMs: number | undefined;
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
        signal: deadlineSignal(options.requestTimeoutMs, options.signal),
      });
      const text = await response.text();
      if (response.ok) {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          lastError = `invalid JSON in response: ${text.slice(0, 200)}`;
        }
      } else if (response.status === 429 || response.status >= 500) {
        lastError = `HTTP ${response.status}: ${text.slice(0, 300)}`;
        const retryAfter = Number(response.headers.get("retry-after"));
        if (Number.isFinite(retryAfter) && retryAfter > 0) retryAfterMs = Math.min(retryAfter * 1000, 60_000);
      } else {
        throw new ProgAgentError(
          `model endpoint ${url} refused the request (HTTP ${response.status}): ${text.slice(0, 500)}`,
          {
            code: ERROR_CODES.MODEL_REQUEST_FAILED,
            category: response.status === 401 || response.status === 403 ? "user" : "upstream",
            details: { status: response.status, url },
          },
        );
      }
    } catch (error) {
      if (error instanceof ProgAgentError) throw error;
      if (options.signal?.aborted)
        throw new ProgAgentError("model request aborted", { code: ERROR_CODES.ABORTED, category: "user" });
      const name = (error as Error).name;
      lastError =
        name === "TimeoutError" ? `no response within ${options.requestTimeoutMs} ms` : networkFailure(error);
    }
    if (attempt === options.maxRetries) break;
    const backoff =
      retryAfterMs ??
      Math.min(options.initialBackoffMs * 2 ** attempt, 30_000) * (0.75 + Math.random() * 0.5);
    await sleep(backoff, options.signal);
  }
  const attempts = options.maxRetries + 1;
  throw new ProgAgentError(`model request to ${url} failed after ${attempts} attempt(s): ${lastError}`, {
    code: ERROR_CODES.MODEL_REQUEST_FAILED,
    category: "upstream",
    details: { url },
  });
}

/**
 * What a failed fetch says, with its cause: undici's own message is only "fetch failed", the reason (connection
 * refused, no such host, TLS) sits in `cause`, sometimes inside an AggregateError of one attempt per address.
 */
export function networkFailure(error: unknown): string {
  const message = errorMessage(error);
  const causes: string[] = [];
  let cause = (error as { cause?: unknown } | undefined)?.cause;
  for (let depth = 0; cause !== undefined && cause !== null && depth < 4; depth += 1) {
    const inner = cause as { code?: unknown; message?: unknown; errors?: unknown; cause?: unknown };
    const text = typeof inner.message === "string" && inner.message ? inner.message : undefined;
    const code = typeof inner.code === "string" ? inner.code : undefined;
    if (text) causes.push(code && !text.includes(code) ? `${code}: ${text}` : text);
    else if (code) causes.push(code);
    cause = Array.isArray(inner.errors) ? inner.errors[0] : inner.cause;
  }
  const distinct = causes.filter((text, index) => causes.indexOf(text) === index && text !== message);
  return distinct.length > 0 ? `${message} (${distinct.join("; ")})` : message;
}

/** One small request before a run: a refused connection, a bad key or an unknown model fail in seconds. */
export const PREFLIGHT_RETRY: Omit<RetryOptions, "signal"> = {
  requestTimeoutMs: 20_000,
  maxRetries: 1,
  initialBackoffMs: 500,
};
