import {
  mkdirSync,
  readFileSync,
  readdirSync,
  realpathSync,
  statSync,
  writeFileSync,
  existsSync,
} from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { z } from "zod";
import { ToolFailure, defineTool } from "../runtime/index.js";
import type { ToolContext } from "./define-domain.js";

const MAX_READ_CHARS = 20_000;

/** Resolves a workspace-relative path, refusing anything that escapes the workspace (.., absolute, symlinks). */
export function resolveWorkspacePath(workspaceDir: string, path: string): string {
  const cleaned = path.replace(/^\/workspace\/?/, "").replace(/^\.\//, "");
  const target = resolve(workspaceDir, cleaned === "" ? "." : cleaned);
  const root = realpathSync(workspaceDir);
  const real = realpathOfNearestExisting(target);
  if (real !== root && !real.startsWith(root + sep))
    throw new ToolFailure(`path '${path}' is outside the workspace`);
  return target;
}

/** Resolves symlinks in the part of a path that exists; the rest (to be created) is appended as is. */
function realpathOfNearestExisting(target: string): string {
  let existing = target;
  const missing: string[] = [];
  while (!existsSync(existing)) {
    const parent = dirname(existing);
    if (parent === existing) break;
    missing.unshift(existing.slice(parent.length + 1));
    existing = parent;
  }
  return resolve(realpathSync(existing), ...missing);
}

/** Every file under a directory, workspace-relative, sorted. */
export function listWorkspaceFiles(workspaceDir: string, under = "."): string[] {
  const base = resolve(workspaceDir, under);
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) files.push(relative(workspaceDir, full));
    }
  };
  if (existsSync(base)) walk(base);
  return files.sort();
}

const listFiles = defineTool({
  name: "list_files",
  description:
    "List files in the workspace (recursively), with sizes. Paginated: returns `files` for the requested page, plus `page`, `per_page`, `total` and `has_more`.",
  kind: "read",
  inputSchema: z.object({
    path: z.string().default(".").describe("Directory relative to the workspace root"),
    page: z.number().int().min(1).default(1).describe("Page number, starting at 1"),
    per_page: z.number().int().min(1).max(100).default(50).describe("Files per page (1-100)"),
  }),
  handler: ({ path, page, per_page }, context: ToolContext) => {
    const dir = resolveWorkspacePath(context.workspaceDir, path);
    if (!existsSync(dir) || !statSync(dir).isDirectory())
      throw new ToolFailure(`'${path}' is not a directory`);
    const all = listWorkspaceFiles(context.workspaceDir, relative(context.workspaceDir, dir) || ".");
    const slice = all.slice((page - 1) * per_page, page * per_page);
    return {
      files: slice.map((file) => ({
        path: file,
        size_bytes: statSync(join(context.workspaceDir, file)).size,
      })),
      page,
      per_page,
      total: all.length,
      has_more: page * per_page < all.length,
    };
  },
});

const readFile = defineTool({
  name: "read_file",
  description: `Read a text file from the workspace. Returns \`content\` (at most ${MAX_READ_CHARS} characters from \`offset\`), \`total_chars\` and \`next_offset\` (null at the end).`,
  kind: "read",
  inputSchema: z.object({
    path: z.string().min(1).describe("File path relative to the workspace root"),
    offset: z.number().int().min(0).default(0).describe("Character offset to start reading from"),
  }),
  handler: ({ path, offset }, context: ToolContext) => {
    const file = resolveWorkspacePath(context.workspaceDir, path);
    if (!existsSync(file) || !statSync(file).isFile())
      throw new ToolFailure(`file '${path}' not found; use list_files to see what exists`);
    const text = readFileSync(file, "utf8");
    const content = text.slice(offset, offset + MAX_READ_CHARS);
    const end = offset + content.length;
    return { path, content, total_chars: text.length, next_offset: end < text.length ? end : null };
  },
});

const searchFiles = defineTool({
  name: "search_files",
  description:
    "Search workspace text files for a case-insensitive substring. Returns matching lines as `matches` [{path, line, text}] for the requested page, plus `total` and `has_more`.",
  kind: "read",
  inputSchema: z.object({
    query: z.string().min(1).describe("Substring to look for (case-insensitive)"),
    path: z.string().default(".").describe("Directory to search, relative to the workspace root"),
    page: z.number().int().min(1).default(1).describe("Page number, starting at 1"),
    per_page: z.number().int().min(1).max(100).default(50).describe("Matches per page (1-100)"),
  }),
  handler: ({ query, path, page, per_page }, context: ToolContext) => {
    const dir = resolveWorkspacePath(context.workspaceDir, path);
    const needle = query.toLowerCase();
    const matches: Array<{ path: string; line: number; text: string }> = [];
    for (const file of listWorkspaceFiles(context.workspaceDir, relative(context.workspaceDir, dir) || ".")) {
      const lines = readFileSync(join(context.workspaceDir, file), "utf8").split("\n");
      lines.forEach((text, index) => {
        if (text.toLowerCase().includes(needle))
          matches.push({ path: file, line: index + 1, text: text.slice(0, 500) });
      });
    }
    return {
      matches: matches.slice((page - 1) * per_page, page * per_page),
      page,
      per_page,
      total: matches.length,
      has_more: page * per_page < matches.length,
    };
  },
});

const writeFile = defineTool({
  name: "write_file",
  description: "Create or overwrite a text file in the workspace. Returns `path` and `size_bytes`.",
  kind: "write",
  inputSchema: z.object({
    path: z.string().min(1).describe("File path relative to the workspace root"),
    content: z.string().describe("The full new content of the file"),
  }),
  handler: ({ path, content }, context: ToolContext) => {
    const file = resolveWorkspacePath(context.workspaceDir, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
    return { path, size_bytes: Buffer.byteLength(content) };
  },
});

/** The file tools every task gets, so that a direct-calling agent can reach the workspace at all. */
export const WORKSPACE_READ_TOOLS = [listFiles, readFile, searchFiles];
export const WORKSPACE_WRITE_TOOL = writeFile;
