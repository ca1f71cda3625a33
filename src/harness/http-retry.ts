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
          `model endpoint refused the request (HTTP ${response.status}): ${text.slice(0, 500)}`,
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
        name === "TimeoutError" ? `no response within ${options.requestTimeoutMs} ms` : errorMessage(error);
    }
    if (attempt === options.maxRetries) break;
    const backoff =
      retryAfterMs ??
      Math.min(options.initialBackoffMs * 2 ** attempt, 30_000) * (0.75 + Math.random() * 0.5);
    await sleep(backoff, options.signal);
  }
  throw new ProgAgentError(`model request failed after ${options.maxRetries + 1} attempts: ${lastError}`, {
    code: ERROR_CODES.MODEL_REQUEST_FAILED,
    category: "upstream",
    details: { url },
  });
}
