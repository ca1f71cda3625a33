import { z } from "zod";
import { ToolFailure, defineTool } from "../runtime/index.js";
import type { ToolContext } from "./define-domain.js";
import {
  listWorkspaceEntries,
  readWorkspaceText,
  searchWorkspaceFiles,
  writeWorkspaceText,
} from "./workspace-fs.js";
import { listWorkspaceEntriesSync } from "./workspace-fs-sync.js";
import { MAX_READ_FILE_BYTES, WorkspaceFsError } from "./workspace-path.js";

const MAX_READ_CHARS = 20_000;
const MAX_ECHOED_PATH_CHARS = 200;

/** Every singly linked regular file under a workspace directory, workspace-relative, sorted (never follows a link). */
export function listWorkspaceFiles(workspaceDir: string, under = "."): string[] {
  return listWorkspaceEntriesSync(workspaceDir, under).map((entry) => entry.path);
}

function echo(path: string): string {
  return path.length > MAX_ECHOED_PATH_CHARS ? `${path.slice(0, MAX_ECHOED_PATH_CHARS)}…` : path;
}

/** The message the model reads for a refused operation; `what` names the tool's view of the path. */
function toolFailure(error: unknown, path: string, what: "file" | "directory" | "write"): unknown {
  if (!(error instanceof WorkspaceFsError)) return error;
  const shown = echo(path);
  switch (error.reason) {
    case "outside":
      return new ToolFailure(`path '${shown}' is outside the workspace (${error.message})`);
    case "timeout":
      return new ToolFailure(`the workspace operation on '${shown}' did not finish in time; try again`);
    case "too-many":
      return new ToolFailure(`'${shown}' holds too much to walk (${error.message}); use a subdirectory`);
    case "too-large":
      return new ToolFailure(
        `file '${shown}' is ${error.sizeBytes ?? "too many"} bytes; read_file reads files up to ${MAX_READ_FILE_BYTES} bytes (use search_files or code for larger ones)`,
      );
    case "not-regular":
      return new ToolFailure(`'${shown}' is not a regular file (FIFOs, sockets and devices are refused)`);
    default:
      break;
  }
  if (what === "file") return new ToolFailure(`file '${shown}' not found; use list_files to see what exists`);
  if (what === "directory") return new ToolFailure(`'${shown}' is not a directory`);
  if (error.reason === "is-directory") return new ToolFailure(`'${shown}' is a directory`);
  return new ToolFailure(`cannot write '${shown}': ${error.message}`);
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
  handler: async ({ path, page, per_page }, context: ToolContext) => {
    let all;
    try {
      all = await listWorkspaceEntries(context.workspaceDir, path);
    } catch (error) {
      throw toolFailure(error, path, "directory");
    }
    const slice = all.slice((page - 1) * per_page, page * per_page);
    return {
      files: slice.map((file) => ({ path: file.path, size_bytes: file.sizeBytes })),
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
  handler: async ({ path, offset }, context: ToolContext) => {
    let text: string;
    try {
      text = await readWorkspaceText(context.workspaceDir, path);
    } catch (error) {
      throw toolFailure(error, path, "file");
    }
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
  handler: async ({ query, path, page, per_page }, context: ToolContext) => {
    let result;
    try {
      result = await searchWorkspaceFiles(context.workspaceDir, path, query);
    } catch (error) {
      throw toolFailure(error, path, "directory");
    }
    const { matches } = result;
    return {
      matches: matches.slice((page - 1) * per_page, page * per_page),
      page,
      per_page,
      total: matches.length,
      has_more: page * per_page < matches.length,
      // Only a search cut short by its budget says so, so ordinary results read exactly as before.
      ...(result.truncated === undefined ? {} : { truncated: true, note: result.truncated }),
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
  handler: async ({ path, content }, context: ToolContext) => {
    let sizeBytes: number;
    try {
      sizeBytes = await writeWorkspaceText(context.workspaceDir, path, content);
    } catch (error) {
      throw toolFailure(error, path, "write");
    }
    return { path, size_bytes: sizeBytes };
  },
});

/** The file tools every task gets, so that a direct-calling agent can reach the workspace at all. */
export const WORKSPACE_READ_TOOLS = [listFiles, readFile, searchFiles];
export const WORKSPACE_WRITE_TOOL = writeFile;
