/**
 * How many kernels of this host process start at once. A burst of starts (an RL step opens hundreds of
 * episodes together) competes for the same cores: started all at once, every kernel takes about as long as the
 * whole burst and the start deadline expires for many of them. Started a few at a time, each kernel starts as
 * fast as on an idle host and the burst takes the same total time. The wait for a turn has its own deadline.
 */
import { availableParallelism } from "node:os";
import { ERROR_CODES, ProgAgentError } from "../core/index.js";

/** `PROGAGENT_KERNEL_STARTS=<n>` sets how many kernels start at once (default: 8 per core, at least 8). */
export const KERNEL_STARTS_VARIABLE = "PROGAGENT_KERNEL_STARTS";

export function startConcurrency(): number {
  const requested = process.env[KERNEL_STARTS_VARIABLE];
  if (requested !== undefined && requested !== "") {
    const value = Number(requested);
    if (!Number.isInteger(value) || value < 1) {
      throw new ProgAgentError(
        `${KERNEL_STARTS_VARIABLE} must be a positive integer (how many kernels start at once), got '${requested}'`,
        { code: ERROR_CODES.INVALID_ARGUMENT, category: "user" },
      );
    }
    return value;
  }
  return Math.max(8, 8 * availableParallelism());
}

interface Waiter {
  grant(release: () => void): void;
}

let running = 0;
const waiting: Waiter[] = [];

function releaser(): () => void {
  let released = false;
  return () => {
    if (released) return;
    released = true;
    running -= 1;
    const next = waiting.shift();
    if (next) {
      running += 1;
      next.grant(releaser());
    }
  };
}

/** Kernels starting now and kernels waiting for their turn (for error messages and benchmarks). */
export function startQueueState(): { running: number; waiting: number; concurrency: number } {
  return { running, waiting: waiting.length, concurrency: startConcurrency() };
}

/**
 * Waits for a turn to start a kernel; resolves to the function that ends the turn (call it once the kernel
 * is ready or has failed). Rejects when `signal` aborts or no turn came within `timeoutMs`.
 */
export function acquireStartTurn(timeoutMs: number, signal?: AbortSignal): Promise<() => void> {
  if (signal?.aborted) return Promise.reject(signal.reason as Error);
  if (running < startConcurrency() && waiting.length === 0) {
    running += 1;
    return Promise.resolve(releaser());
  }
  return new Promise((resolve, reject) => {
    const waiter: Waiter = {
      grant: (release) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        resolve(release);
      },
    };
    const leave = (): void => {
      const index = waiting.indexOf(waiter);
      if (index >= 0) waiting.splice(index, 1);
    };
    const onAbort = (): void => {
      clearTimeout(timer);
      leave();
      reject(signal!.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      leave();
      reject(
        new ProgAgentError(
          `The Python kernel failed to start: no turn to start within ${timeoutMs} ms (${running} kernels were starting and ${waiting.length} more waiting; at most ${startConcurrency()} start at once, see ${KERNEL_STARTS_VARIABLE})`,
          { code: ERROR_CODES.KERNEL_START_FAILED, category: "system" },
        ),
      );
    }, timeoutMs);
    signal?.addEventListener("abort", onAbort, { once: true });
    waiting.push(waiter);
  });
}
