import { lstatSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { readWorkspaceTextSync, writeWorkspaceTextSync } from "../envs/index.js";

/** A draft is one task module; everything task-specific (data included) lives in it (`prepare`). */
export const DRAFT_MODULE = "task.ts";
export const MAX_DRAFT_BYTES = 256 * 1024;
const DRAFT_PACKAGE_JSON = `${JSON.stringify({ type: "module", private: true }, null, 2)}\n`;

/**
 * A candidate's draft folder: the only directory its sandbox can write. The host writes and reads it only
 * without following links (the sandboxed code may have planted any), and only the task module by name.
 */
export interface DraftFolder {
  readonly dir: string;
  write(path: string, content: string): string;
  read(path: string): string;
  /** The task module's text, or null when it is missing or not a plain file. */
  readModule(): string | null;
  /** Removes whatever the sandboxed code left besides the task module and package.json. */
  sweep(): void;
  reset(): void;
}

function checkPath(path: string): void {
  if (path !== DRAFT_MODULE)
    throw new Error(
      `a draft is the single file '${DRAFT_MODULE}' (got '${path}'): put task-specific data in its prepare()`,
    );
}

export function openDraftFolder(dir: string): DraftFolder {
  const ensure = (): void => {
    mkdirSync(dir, { recursive: true });
    try {
      lstatSync(join(dir, "package.json"));
    } catch {
      writeWorkspaceTextSync(dir, "package.json", DRAFT_PACKAGE_JSON);
    }
  };
  ensure();
  const readText = (path: string): string | null => {
    try {
      return readWorkspaceTextSync(dir, path);
    } catch {
      return null;
    }
  };
  return {
    dir,
    write(path, content) {
      checkPath(path);
      const bytes = Buffer.byteLength(content, "utf8");
      if (bytes > MAX_DRAFT_BYTES)
        throw new Error(
          `${path} would be ${bytes} bytes; a draft module is at most ${MAX_DRAFT_BYTES} bytes`,
        );
      ensure();
      writeWorkspaceTextSync(dir, path, content);
      return `wrote ${path} (${bytes} bytes)`;
    },
    read(path) {
      checkPath(path);
      const text = readText(path);
      if (text === null) throw new Error(`${path} has not been written yet`);
      return text;
    },
    readModule: () => readText(DRAFT_MODULE),
    sweep() {
      for (const entry of readdirSync(dir)) {
        if (entry === DRAFT_MODULE || entry === "package.json") {
          const stat = lstatSync(join(dir, entry));
          if (stat.isFile() && (stat.mode & 0o6000) === 0 && stat.nlink === 1) continue;
        }
        rmSync(join(dir, entry), { recursive: true, force: true });
      }
      ensure();
    },
    reset() {
      rmSync(dir, { recursive: true, force: true });
      ensure();
    },
  };
}
