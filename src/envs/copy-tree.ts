import type { Worker } from "node:worker_threads";
import { ERROR_CODES, ProgAgentError, startModuleWorker } from "../core/index.js";

/** A copy asked of the copier's thread. */
export interface CopyRequest {
  id: number;
  root: string;
  destination: string;
}

/** The copier's answer: nothing when the copy is complete, else the file system's error. */
export interface CopyReply {
  id: number;
  error?: { message: string; code?: string };
}

/** How long one workspace copy may take before it fails (tens of files take milliseconds). */
export const DEFAULT_COPY_DEADLINE_MS = 60_000;

interface PendingCopy {
  resolve: () => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

let thread: Worker | undefined;
const pending = new Map<number, PendingCopy>();
let nextId = 0;

function settle(id: number): PendingCopy | undefined {
  const entry = pending.get(id);
  if (!entry) return undefined;
  pending.delete(id);
  clearTimeout(entry.timer);
  if (pending.size === 0) thread?.unref();
  return entry;
}

/** Every copy still waiting fails with `error`, and the next copy starts a new thread. */
function abandon(worker: Worker, error: Error): void {
  if (thread !== worker) return;
  thread = undefined;
  for (const id of [...pending.keys()]) settle(id)?.reject(error);
}

function copier(): Worker {
  if (thread) return thread;
  const worker = startModuleWorker(import.meta.url, "copy-tree-thread");
  thread = worker;
  worker.on("message", (reply: CopyReply) => {
    const entry = settle(reply.id);
    if (!entry) return;
    if (!reply.error) return entry.resolve();
    const error = new Error(reply.error.message) as NodeJS.ErrnoException;
    if (reply.error.code) error.code = reply.error.code;
    entry.reject(error);
  });
  const failed = (reason: string): ProgAgentError =>
    new ProgAgentError(`the workspace copier thread ${reason}`, {
      code: ERROR_CODES.WORKSPACE_COPY_FAILED,
      category: "system",
    });
  worker.on("error", (error) => abandon(worker, failed(`failed: ${error.message}`)));
  worker.on("exit", (code) => abandon(worker, failed(`exited (code ${code})`)));
  return worker;
}

/**
 * Copies an immutable tree (an instance's workspace) into an existing directory, off the event loop, in the
 * copier's thread (`copy-tree-thread.ts`): the tree's listing and small files' bytes are read once and kept,
 * each copy then creates the directories and writes the files. Files keep their modes; links are recreated
 * as links; a file already at the destination is an error (EEXIST), never overwritten. A copy that takes
 * longer than `deadlineMs` (counted from the call, so including its wait behind other copies) fails; when it
 * is the copy the thread is working on, the thread is replaced. A copy that failed may still be made later,
 * but only into a destination that still exists: the copier never creates the destination or its parents.
 */
export function copyImmutableTree(
  root: string,
  destination: string,
  options: { deadlineMs?: number } = {},
): Promise<void> {
  const deadlineMs = options.deadlineMs ?? DEFAULT_COPY_DEADLINE_MS;
  if (!Number.isFinite(deadlineMs) || deadlineMs <= 0)
    return Promise.reject(
      new ProgAgentError(`copyImmutableTree: deadlineMs expects milliseconds > 0, got ${deadlineMs}`, {
        code: ERROR_CODES.INVALID_ARGUMENT,
        category: "system",
      }),
    );
  return new Promise<void>((resolve, reject) => {
    const worker = copier();
    const id = nextId++;
    const timer = setTimeout(() => {
      // The thread copies in order: the oldest copy waiting is the one it is working on. Only when that one
      // is late is the thread stuck; a later copy was only queued behind others and fails alone.
      const working = pending.keys().next().value === id;
      settle(id)?.reject(
        new ProgAgentError(`copying ${root} to ${destination} took longer than ${deadlineMs} ms`, {
          code: ERROR_CODES.TIMEOUT,
          category: "system",
        }),
      );
      if (!working) return;
      // A thread stuck in the file system cannot be trusted with the next copy.
      abandon(
        worker,
        new ProgAgentError("the workspace copier thread was replaced after a copy timed out", {
          code: ERROR_CODES.TIMEOUT,
          category: "system",
        }),
      );
      void worker.terminate();
    }, deadlineMs);
    pending.set(id, { resolve, reject, timer });
    worker.ref();
    worker.postMessage({ id, root, destination } satisfies CopyRequest);
  });
}
