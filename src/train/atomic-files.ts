import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * Files written together: each goes to a temporary name beside its target, and only when all are complete are
 * they renamed into place. On failure (or `discard`) the temporaries are removed, so no half-written output stays.
 */
export interface AtomicFileSet {
  /** Opens a temporary file for `target`; returns a writer that appends chunks. */
  open(target: string): { write(chunk: string | Uint8Array): void };
  commit(): string[];
  discard(): void;
}

export function createAtomicFileSet(): AtomicFileSet {
  const files: Array<{ target: string; temporary: string; fd: number | undefined }> = [];
  const closeAll = (): void => {
    for (const file of files) {
      if (file.fd !== undefined) closeSync(file.fd);
      file.fd = undefined;
    }
  };
  return {
    open(target) {
      const temporary = join(
        dirname(target),
        `.${basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`,
      );
      const entry = { target, temporary, fd: openSync(temporary, "wx", 0o644) as number | undefined };
      files.push(entry);
      return {
        write(chunk) {
          const data = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
          let written = 0;
          while (written < data.length) written += writeSync(entry.fd!, data, written, data.length - written);
        },
      };
    },
    commit() {
      for (const file of files) if (file.fd !== undefined) fsyncSync(file.fd);
      closeAll();
      for (const file of files) renameSync(file.temporary, file.target);
      const targets = files.map((file) => file.target);
      files.length = 0;
      return targets;
    },
    discard() {
      closeAll();
      for (const file of files) rmSync(file.temporary, { force: true });
      files.length = 0;
    },
  };
}
