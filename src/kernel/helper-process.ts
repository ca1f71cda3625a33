/**
 * A long-lived Python helper of this host process (the kernel spawner, the workspace meter): started with the
 * interpreter's flags and this process's pid (the helper arms its parent-death signal and checks it), in its
 * own session (a terminal's Ctrl-C is the host's to handle), never keeping the host alive by itself. Its
 * stdout is read as lines; its end, or a failure to start it, is reported once with the tail of its stderr.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { interpreterFlags } from "./sandbox.js";

const MAX_STDERR_CHARS = 4_000;

export interface HelperHandlers {
  /** Each line the helper writes to stdout, without its newline (blank lines skipped). */
  onLine(line: string): void;
  /** The helper could not start or has exited: `reason` says which, with its stderr's tail. */
  onGone(reason: string): void;
}

/** Starts `source` with `interpreter`; `what` names the helper in the reasons ("the kernel spawner"). */
export function startHelperProcess(
  interpreter: string,
  source: string,
  what: string,
  handlers: HelperHandlers,
): ChildProcess {
  const child = spawn(interpreter, [...interpreterFlags(interpreter), source, String(process.pid)], {
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
  });
  child.unref();
  for (const stream of [child.stdin, child.stdout, child.stderr])
    (stream as unknown as { unref?: () => void } | null)?.unref?.();
  child.stdin.on("error", () => undefined);
  let buffered = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    buffered += chunk;
    let newline = buffered.indexOf("\n");
    while (newline >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line.trim()) handlers.onLine(line);
      newline = buffered.indexOf("\n");
    }
  });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-MAX_STDERR_CHARS);
  });
  child.on("error", (error) => handlers.onGone(`${what} could not run: ${error.message}`));
  child.on("exit", (code, signal) =>
    handlers.onGone(`${what} exited (code ${code}, signal ${signal})${stderr ? `: ${stderr.trim()}` : ""}`),
  );
  return child;
}
