import { ERROR_CODES, ProgAgentError, createLogger, errorMessage } from "../core/index.js";
import {
  createKernel,
  type Kernel,
  type KernelOptions,
  type KernelToolHandler,
  type KernelToolSpec,
} from "./kernel.js";

/** How long after an acquire the pool starts the replacement (a first program's round takes a few ms). */
const REFILL_AFTER_ACQUIRE_MS = 20;

export interface KernelPoolOptions {
  /** How many started kernels to keep ready (default 2). */
  size?: number;
  /**
   * Whether taking a kernel starts its replacement at once (default true). False keeps a burst of acquires
   * from paying for the next burst's starts: the pool then refills only when `warm()` is called, e.g. by a
   * rollout service between training steps.
   */
  refillOnAcquire?: boolean;
  /**
   * With `refillOnAcquire: false`: refill by itself once no kernel has been acquired for this long (a burst
   * of acquires is over), as `warm()` would. Undefined: only `warm()` refills.
   */
  refillAfterIdleMs?: number;
  /** Options for every kernel; each gets its own fresh workspace. */
  kernel?: Omit<KernelOptions, "workspaceDir" | "tools" | "onToolCall">;
}

export interface KernelPool {
  /** A started kernel with a fresh, empty workspace, in milliseconds when the pool is warm. */
  acquire(setup?: { tools: KernelToolSpec[]; onToolCall: KernelToolHandler }): Promise<Kernel>;
  /** Resolves when the pool holds `size` ready kernels. */
  warm(): Promise<void>;
  readonly idleCount: number;
  dispose(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Keeps pre-started kernels so an episode does not wait for an interpreter to boot. Kernels are never
 * reused: the caller owns and disposes what it acquires, and the pool refills in the background.
 */
export function createKernelPool(options: KernelPoolOptions = {}): KernelPool {
  const size = options.size ?? 2;
  if (!Number.isInteger(size) || size < 0)
    throw new ProgAgentError(
      `kernel pool: size expects a whole number of kernels >= 0, got ${String(size)}`,
      {
        code: ERROR_CODES.INVALID_ARGUMENT,
        category: "user",
      },
    );
  const refillOnAcquire = options.refillOnAcquire ?? true;
  const refillAfterIdleMs = options.refillAfterIdleMs;
  if (
    refillAfterIdleMs !== undefined &&
    (refillOnAcquire || !Number.isFinite(refillAfterIdleMs) || refillAfterIdleMs < 0)
  )
    throw new ProgAgentError(
      refillOnAcquire
        ? "kernel pool: refillAfterIdleMs needs refillOnAcquire: false (a pool that refills on acquire is never behind)"
        : `kernel pool: refillAfterIdleMs expects a number of milliseconds >= 0, got ${String(refillAfterIdleMs)}`,
      { code: ERROR_CODES.INVALID_ARGUMENT, category: "user" },
    );
  const logger = createLogger();
  const idle: Kernel[] = [];
  const filling = new Set<Promise<void>>();
  let disposed = false;

  const startOne = (): void => {
    const kernel = createKernel(options.kernel);
    const task = kernel
      .start()
      .then(async () => {
        if (disposed) await kernel.dispose();
        else idle.push(kernel);
      })
      .catch(async (error: unknown) => {
        logger.warn(`kernel pool: a kernel failed to start: ${errorMessage(error)}`);
        await kernel.dispose();
      })
      .finally(() => filling.delete(task));
    filling.add(task);
  };

  const refill = (): void => {
    while (!disposed && idle.length + filling.size < size) startOne();
  };
  // The replacement starts a moment after an acquire, not during it: its start (a fork, namespaces, an
  // interpreter's boot) would compete for the CPUs and the event loop with the caller's first program.
  let refillTimer: NodeJS.Timeout | undefined;
  const refillSoon = (): void => {
    if (refillTimer !== undefined || disposed) return;
    refillTimer = setTimeout(() => {
      refillTimer = undefined;
      refill();
    }, REFILL_AFTER_ACQUIRE_MS);
    refillTimer.unref();
  };
  let idleTimer: NodeJS.Timeout | undefined;
  const refillWhenIdle = (): void => {
    if (refillAfterIdleMs === undefined || disposed) return;
    clearTimeout(idleTimer);
    idleTimer = setTimeout(refill, refillAfterIdleMs);
    // A pending refill never keeps the process alive.
    idleTimer.unref();
  };

  return {
    async acquire(setup) {
      let kernel = idle.shift();
      if (refillOnAcquire) refillSoon();
      else refillWhenIdle();
      if (!kernel) {
        kernel = createKernel(options.kernel);
        try {
          await kernel.start();
        } catch (error) {
          await kernel.dispose();
          throw error;
        }
      }
      if (setup) kernel.setTools(setup.tools, setup.onToolCall);
      return kernel;
    },
    async warm() {
      refill();
      while (filling.size > 0) await Promise.all([...filling]);
    },
    get idleCount() {
      return idle.length;
    },
    async dispose() {
      disposed = true;
      clearTimeout(idleTimer);
      clearTimeout(refillTimer);
      await Promise.all([...filling]);
      await Promise.all(idle.splice(0).map((kernel) => kernel.dispose()));
    },
    async [Symbol.asyncDispose]() {
      await this.dispose();
    },
  };
}
