import { closeSync, constants, lstatSync, openSync, readlinkSync, type Stats } from "node:fs";
import { z } from "zod";
import { DIRECTORY_FLAGS, assertProcFd, at, errnoCode } from "./workspace-path.js";

/** The meta-tool that lists and reads workspace files with ls, find and cat, as in the paper's runtime. */
export const TERMINAL_TOOL_NAME = "terminal";
export const TERMINAL_PROGRAMS = ["ls", "find", "cat"] as const;

/** Where the workspace is inside the sandbox (the kernel's cwd). */
const WORKSPACE = "/workspace";

export const terminalInputSchema = z.object({
  command: z
    .string()
    .describe(
      "One ls, find or cat command line on paths inside the workspace, for example `ls -la docs` or `find . -name '*.md'`.",
    ),
});

export const TERMINAL_ALLOWED =
  "terminal runs only ls, find and cat, with their ordinary flags, on paths inside the workspace (relative, or under /workspace), without a shell: no pipes, redirection, ';', '&&', '$(...)', globs or other programs";

export type ParsedTerminalCommand = { ok: true; argv: string[] } | { ok: false; reason: string };

interface Word {
  text: string;
  /** An unquoted glob character (* ? [) that a shell would expand. */
  glob: boolean;
}

const METACHARACTERS: Record<string, string> = {
  "|": "a pipe '|'",
  "&": "'&' (background or '&&')",
  ";": "';'",
  "<": "redirection '<'",
  ">": "redirection '>'",
  $: "'$' (variables and command substitution)",
  "`": "command substitution '`'",
  "(": "'(' (write \\( for find's grouping)",
  ")": "')' (write \\) for find's grouping)",
  "{": "brace expansion '{'",
  "}": "brace expansion '}'",
};

/** Splits a command line like a shell would for plain words and quotes, refusing everything a shell would interpret. */
function splitWords(command: string): { ok: true; words: Word[] } | { ok: false; reason: string } {
  const words: Word[] = [];
  let current: Word | undefined;
  let quote: "'" | '"' | undefined;
  const word = (): Word => (current ??= { text: "", glob: false });
  for (let index = 0; index < command.length; index += 1) {
    const char = command[index]!;
    if (char === "\n" || char === "\r" || char === "\0")
      return { ok: false, reason: "a newline or NUL (one command per call)" };
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word().text += char;
      continue;
    }
    if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === "$" || char === "`") return { ok: false, reason: METACHARACTERS[char]! };
      else if (char === "\\" && ['"', "\\", "$", "`"].includes(command[index + 1] ?? "")) {
        word().text += command[index + 1];
        index += 1;
      } else word().text += char;
      continue;
    }
    if (char === " " || char === "\t") {
      if (current) words.push(current);
      current = undefined;
    } else if (char === "'" || char === '"') {
      quote = char;
      word();
    } else if (char === "\\") {
      const next = command[index + 1];
      if (next === undefined) return { ok: false, reason: "a trailing backslash" };
      word().text += next;
      index += 1;
    } else if (METACHARACTERS[char]) {
      return { ok: false, reason: METACHARACTERS[char] };
    } else if ((char === "~" || char === "#") && current === undefined) {
      return { ok: false, reason: char === "~" ? "'~' (use relative paths)" : "a comment '#'" };
    } else {
      if (char === "*" || char === "?" || char === "[") word().glob = true;
      word().text += char;
    }
  }
  if (quote) return { ok: false, reason: `an unterminated ${quote} quote` };
  if (current) words.push(current);
  return { ok: true, words };
}

const LS_SHORT = new Set("aAbBcCdfFgGhiklmnNopqQrRsStuUvxX1");
const LS_LONG = new Set([
  "all",
  "almost-all",
  "author",
  "escape",
  "block-size",
  "ignore-backups",
  "directory",
  "classify",
  "file-type",
  "format",
  "full-time",
  "group-directories-first",
  "no-group",
  "human-readable",
  "si",
  "indicator-style",
  "inode",
  "numeric-uid-gid",
  "literal",
  "hide-control-chars",
  "show-control-chars",
  "quote-name",
  "quoting-style",
  "reverse",
  "recursive",
  "size",
  "sort",
  "time",
  "time-style",
  "color",
]);
const CAT_SHORT = new Set("AbeEnstTuv");
const CAT_LONG = new Set([
  "show-all",
  "number-nonblank",
  "show-ends",
  "number",
  "squeeze-blank",
  "show-tabs",
  "show-nonprinting",
]);
/** find primaries that take one value, and those whose value is a path. */
const FIND_WITH_VALUE = new Set([
  "-name",
  "-iname",
  "-path",
  "-ipath",
  "-wholename",
  "-iwholename",
  "-regex",
  "-iregex",
  "-regextype",
  "-lname",
  "-ilname",
  "-type",
  "-xtype",
  "-size",
  "-mtime",
  "-mmin",
  "-atime",
  "-amin",
  "-ctime",
  "-cmin",
  "-used",
  "-maxdepth",
  "-mindepth",
  "-perm",
  "-user",
  "-group",
  "-uid",
  "-gid",
  "-links",
  "-inum",
  "-printf",
  "-newer",
  "-anewer",
  "-cnewer",
  "-samefile",
]);
const FIND_PATH_VALUE = new Set(["-newer", "-anewer", "-cnewer", "-samefile"]);
const FIND_WITHOUT_VALUE = new Set([
  "-empty",
  "-print",
  "-print0",
  "-ls",
  "-prune",
  "-quit",
  "-true",
  "-false",
  "-readable",
  "-writable",
  "-executable",
  "-depth",
  "-daystart",
  "-xdev",
  "-mount",
  "-noleaf",
  "-nouser",
  "-nogroup",
  "-not",
  "-and",
  "-or",
  "-a",
  "-o",
  "!",
  "(",
  ")",
  ",",
]);
const FIND_REFUSED: Record<string, string> = {
  "-exec": "runs programs",
  "-execdir": "runs programs",
  "-ok": "runs programs",
  "-okdir": "runs programs",
  "-delete": "deletes files",
  "-fprint": "writes files",
  "-fprint0": "writes files",
  "-fprintf": "writes files",
  "-fls": "writes files",
  "-files0-from": "reads its paths from a file",
  "-follow": "follows symbolic links out of the workspace",
  "-L": "follows symbolic links out of the workspace",
  "-H": "follows symbolic links out of the workspace",
};

/**
 * Checks a path the way the sandbox will see it: relative to /workspace or under it, no `..`, and no
 * symbolic link on the way that points out of the workspace. A missing path is fine (the program says so).
 *
 * The workspace is the model's to change while this runs (the host may be root), so nothing is resolved by
 * name: the walk holds a descriptor for each directory it passed and looks at one name at a time inside the
 * last one (`/proc/self/fd/<fd>/<name>`, no link followed), as the file tools do. The only link targets it reads
 * are links in the workspace, and its refusals never name a host path.
 */
export function checkWorkspacePath(path: string, workspaceDir: string): string | undefined {
  if (path.length === 0) return "an empty path";
  let parts: string[];
  if (path.startsWith("/")) {
    if (path !== WORKSPACE && !path.startsWith(`${WORKSPACE}/`))
      return `the absolute path '${path}' (only paths under ${WORKSPACE})`;
    parts = path.slice(WORKSPACE.length).split("/");
  } else {
    parts = path.split("/");
  }
  if (parts.includes("..")) return `'..' in the path '${path}'`;
  let root: number;
  try {
    assertProcFd();
    root = openSync(workspaceDir, constants.O_RDONLY | constants.O_DIRECTORY);
  } catch {
    return `'${path}': the workspace could not be opened to check it`;
  }
  // Descriptors of the directories resolved so far, in sandbox coordinates: [root] is /workspace itself.
  const resolved = [root];
  try {
    return resolveInWorkspace(path, parts, resolved);
  } catch (error) {
    return `'${path}': it could not be checked (${errnoCode(error) ?? "an error"}); it may have changed meanwhile`;
  } finally {
    for (const fd of resolved) closeSync(fd);
  }
}

/** Walks `parts` link by link from `resolved` (closed by the caller, whatever it holds when this returns). */
function resolveInWorkspace(path: string, parts: readonly string[], resolved: number[]): string | undefined {
  const pending = parts.filter((part) => part.length > 0 && part !== ".");
  const changed = `'${path}': an entry on the way changed while it was checked`;
  let links = 0;
  while (pending.length > 0) {
    const part = pending.shift()!;
    if (part === "..") {
      if (resolved.length === 1) return `the symbolic link in '${path}' that points out of the workspace`;
      closeSync(resolved.pop()!);
      continue;
    }
    const entry = at(resolved[resolved.length - 1]!, part);
    let stats: Stats;
    try {
      stats = lstatSync(entry);
    } catch {
      return undefined;
    }
    if (stats.isDirectory()) {
      try {
        resolved.push(openSync(entry, DIRECTORY_FLAGS));
      } catch (error) {
        if (errnoCode(error) === "ENOENT") return undefined;
        return changed;
      }
      continue;
    }
    // Not a directory: the program itself reports a path that goes on below it.
    if (!stats.isSymbolicLink()) return undefined;
    links += 1;
    if (links > 40) return `too many symbolic links in '${path}'`;
    let target: string;
    try {
      target = readlinkSync(entry);
    } catch {
      return changed;
    }
    const targetParts = target.split("/").filter((item) => item.length > 0 && item !== ".");
    if (target.startsWith("/")) {
      if (target !== WORKSPACE && !target.startsWith(`${WORKSPACE}/`))
        return `'${path}': a symbolic link that points out of the workspace (to ${target})`;
      while (resolved.length > 1) closeSync(resolved.pop()!);
      pending.unshift(...targetParts.slice(1));
    } else {
      pending.unshift(...targetParts);
    }
  }
  return undefined;
}

function checkPaths(paths: readonly string[], workspaceDir: string): string | undefined {
  for (const path of paths) {
    const problem = checkWorkspacePath(path, workspaceDir);
    if (problem) return problem;
  }
  return undefined;
}

/** ls and cat: flags from a list (no values except `--name=value`), then paths. */
function parseFlagsAndPaths(
  program: "ls" | "cat",
  words: readonly Word[],
  workspaceDir: string,
): string | undefined {
  const [short, long] = program === "ls" ? [LS_SHORT, LS_LONG] : [CAT_SHORT, CAT_LONG];
  const paths: string[] = [];
  let optionsEnded = false;
  for (const word of words) {
    const text = word.text;
    if (!optionsEnded && text === "--") {
      optionsEnded = true;
    } else if (!optionsEnded && text.startsWith("--")) {
      const name = text.slice(2).split("=")[0]!;
      if (!long.has(name)) return `the ${program} option '${text}'`;
    } else if (!optionsEnded && text.startsWith("-") && text.length > 1) {
      for (const letter of text.slice(1)) {
        if (!short.has(letter))
          return `the ${program} option '-${letter}'${letter === "L" || letter === "H" ? " (it follows symbolic links)" : ""}`;
      }
    } else if (text === "-") {
      return `'-' (${program} would read its input)`;
    } else if (word.glob) {
      return `the glob '${text}' (there is no shell to expand it; list the folder, or use find . -name '${text}')`;
    } else {
      paths.push(text);
    }
  }
  return checkPaths(paths, workspaceDir);
}

function parseFind(words: readonly Word[], workspaceDir: string): string | undefined {
  const paths: string[] = [];
  let index = 0;
  while (index < words.length && ["-P", "-H", "-L"].includes(words[index]!.text)) {
    const text = words[index]!.text;
    if (text !== "-P") return `the find option '${text}' (it ${FIND_REFUSED[text]})`;
    index += 1;
  }
  for (; index < words.length; index += 1) {
    const text = words[index]!.text;
    if (text.startsWith("-") || ["!", "(", ")", ","].includes(text)) break;
    if (words[index]!.glob)
      return `the glob '${text}' as a starting point (there is no shell to expand it; quote patterns for -name)`;
    paths.push(text);
  }
  for (; index < words.length; index += 1) {
    const text = words[index]!.text;
    if (FIND_REFUSED[text]) return `find's '${text}' (it ${FIND_REFUSED[text]})`;
    if (FIND_WITHOUT_VALUE.has(text)) continue;
    if (FIND_WITH_VALUE.has(text)) {
      const value = words[index + 1];
      if (value === undefined) return `find's '${text}' without its value`;
      if (FIND_PATH_VALUE.has(text)) paths.push(value.text);
      index += 1;
      continue;
    }
    return `find's '${text}' (allowed: tests such as -name, -iname, -path, -type, -size, -mtime, -maxdepth, -newer; actions -print, -print0, -printf, -ls, -prune; operators ! -not -a -o \\( \\))`;
  }
  return checkPaths(paths, workspaceDir);
}

/**
 * Validates a terminal command on the host and turns it into the argv the sandbox runs (never through a
 * shell). The sandbox is the second wall: the bootstrap runs only these programs, in the workspace, under
 * the kernel's namespaces and limits.
 */
export function parseTerminalCommand(command: string, workspaceDir: string): ParsedTerminalCommand {
  const split = splitWords(command);
  if (!split.ok) return split;
  const [program, ...rest] = split.words;
  if (!program) return { ok: false, reason: "an empty command" };
  if (!(TERMINAL_PROGRAMS as readonly string[]).includes(program.text))
    return { ok: false, reason: `the program '${program.text}'` };
  const name = program.text as (typeof TERMINAL_PROGRAMS)[number];
  const problem =
    name === "find" ? parseFind(rest, workspaceDir) : parseFlagsAndPaths(name, rest, workspaceDir);
  if (problem) return { ok: false, reason: problem };
  return { ok: true, argv: split.words.map((word) => word.text) };
}

/** The reply to a refused command: what was refused and what is allowed. */
export function refusedTerminalMessage(reason: string): string {
  return `Error: refused ${reason}. ${TERMINAL_ALLOWED}.`;
}
