import { spawn, type ChildProcess } from "node:child_process";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { ERROR_CODES, ProgAgentError, errorMessage } from "../../core/index.js";

/** The host-side companion of a LOCA-bench checkout (`python/loca_sidecar.py`). */
export const SIDECAR_SCRIPT = join(dirname(fileURLToPath(import.meta.url)), "python", "loca_sidecar.py");

/** Bytes of the sidecar's stderr kept for error messages (the benchmark's generators print a lot). */
const STDERR_TAIL_CHARS = 4_000;
/** How long a sidecar may take to exit after its input closed before it is killed. */
const EXIT_GRACE_MS = 5_000;

export interface SidecarOptions {
  /** The Python that imports the checkout (LOCA's requirements installed). */
  python: string;
  /** Extra environment for the sidecar (PYTHONPATH of a stand-in, quiet flags). */
  environment?: Record<string, string>;
}

export interface SidecarRequestOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

/** One sidecar process: JSON requests on its stdin, replies on its stdout, everything else on stderr. */
export interface LocaSidecar {
  request<T>(op: string, payload: Record<string, unknown>, options: SidecarRequestOptions): Promise<T>;
  dispose(): Promise<void>;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

function sidecarError(message: string, details: Record<string, string | number | null> = {}): ProgAgentError {
  return new ProgAgentError(message, {
    code: ERROR_CODES.EXTERNAL_ENVIRONMENT_FAILED,
    category: "upstream",
    details,
  });
}

/** Starts a sidecar; it lives until `dispose` (its process group is ended then, whatever it started). */
export function startLocaSidecar(options: SidecarOptions): LocaSidecar {
  const child: ChildProcess = spawn(options.python, ["-u", SIDECAR_SCRIPT], {
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1", LOCA_QUIET: "1", ...options.environment },
  });
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let stderrTail = "";
  let exited: string | undefined;
  const exitedPromise = new Promise<void>((resolve) => {
    child.once("close", () => resolve());
    child.once("error", () => resolve());
  });
  // A sidecar that died makes writes fail: the pending requests say so (below), the stream's error is not a crash.
  child.stdin!.on("error", () => undefined);

  child.stderr!.on("data", (chunk: Buffer) => {
    stderrTail = (stderrTail + chunk.toString("utf8")).slice(-STDERR_TAIL_CHARS);
  });
  const failAll = (reason: string): void => {
    exited ??= reason;
    const tail = stderrTail.trim().split("\n").slice(-3).join(" | ");
    for (const [id, entry] of pending) {
      pending.delete(id);
      entry.reject(sidecarError(`the LOCA-bench sidecar ${reason}${tail ? ` (last output: ${tail})` : ""}`));
    }
  };
  child.once("error", (error) =>
    failAll(
      `could not start (${options.python}: ${errorMessage(error)}); set PROGAGENT_LOCA_PYTHON to a Python with LOCA-bench's requirements`,
    ),
  );
  child.once("close", (code, signal) => failAll(`exited (${signal ?? `code ${code}`})`));
  createInterface({ input: child.stdout! }).on("line", (line) => {
    let message: { id?: number; ok?: boolean; result?: unknown; error?: { message?: string } };
    try {
      message = JSON.parse(line) as typeof message;
    } catch {
      return; // only the sidecar writes here; an unreadable line is dropped
    }
    const entry = message.id === undefined ? undefined : pending.get(message.id);
    if (!entry) return;
    pending.delete(message.id!);
    if (message.ok) entry.resolve(message.result);
    else
      entry.reject(sidecarError(message.error?.message ?? "the sidecar reported an error without a message"));
  });

  const kill = (): void => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // already gone
    }
  };

  return {
    request<T>(
      op: string,
      payload: Record<string, unknown>,
      requestOptions: SidecarRequestOptions,
    ): Promise<T> {
      if (exited !== undefined) return Promise.reject(sidecarError(`the LOCA-bench sidecar ${exited}`));
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(
            sidecarError(
              `the LOCA-bench sidecar did not answer '${op}' within ${requestOptions.timeoutMs} ms`,
              { op },
            ),
          );
          kill();
        }, requestOptions.timeoutMs);
        const onAbort = (): void => {
          pending.delete(id);
          clearTimeout(timer);
          reject(sidecarError(`'${op}' was aborted`, { op }));
          kill();
        };
        requestOptions.signal?.addEventListener("abort", onAbort, { once: true });
        pending.set(id, {
          resolve: (value) => {
            clearTimeout(timer);
            requestOptions.signal?.removeEventListener("abort", onAbort);
            resolve(value as T);
          },
          reject: (error) => {
            clearTimeout(timer);
            requestOptions.signal?.removeEventListener("abort", onAbort);
            reject(error);
          },
        });
        child.stdin!.write(`${JSON.stringify({ id, op, ...payload })}\n`);
      });
    },
    async dispose() {
      if (child.exitCode === null && child.signalCode === null) {
        child.stdin!.end();
        const timer = setTimeout(kill, EXIT_GRACE_MS);
        await exitedPromise;
        clearTimeout(timer);
      }
      // Whatever the generators started in the sidecar's group goes with it.
      kill();
    },
  };
}
