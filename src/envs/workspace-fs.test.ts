import { execFileSync } from "node:child_process";
import {
  constants,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SearchMatch } from "./line-matcher.js";
import {
  listWorkspaceEntriesSync,
  readWorkspaceTextSync,
  writeWorkspaceTextSync,
} from "./workspace-fs-sync.js";
import {
  listWorkspaceEntries,
  readWorkspaceText,
  searchWorkspaceFiles,
  writeWorkspaceText,
} from "./workspace-fs.js";
import {
  MAX_SEARCH_LINE_CHARS,
  MAX_SEARCH_MATCHES,
  MAX_WALK_DEPTH,
  WorkspaceFsError,
  parseWorkspacePath,
} from "./workspace-path.js";

let root: string;
let outside: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "workspace-fs-test-"));
  outside = mkdtempSync(join(tmpdir(), "workspace-fs-outside-"));
  writeFileSync(join(outside, "secret.txt"), "SECRET\n", { mode: 0o600 });
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof WorkspaceFsError) return error.reason;
    throw error;
  }
  return "accepted";
}

function syncRefusal(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    if (error instanceof WorkspaceFsError) return error.reason;
    throw error;
  }
  return "accepted";
}

function openDescriptorCount(): number {
  return readdirSync("/proc/self/fd").length;
}

describe("/proc/self/fd/<dirfd>/<name> (the openat this module relies on)", () => {
  it("looks the name up in the directory the descriptor refers to, and O_NOFOLLOW applies to the name", async () => {
    mkdirSync(join(root, "box"));
    writeFileSync(join(root, "box", "file.txt"), "inside\n");
    symlinkSync(join(outside, "secret.txt"), join(root, "box", "link.txt"));
    const directory = await open(join(root, "box"), constants.O_RDONLY | constants.O_DIRECTORY);
    try {
      // The directory is moved away and a link to the outside put in its place: the descriptor still means the
      // directory it was opened on.
      renameSync(join(root, "box"), join(root, "moved"));
      symlinkSync(outside, join(root, "box"));
      const file = await open(
        `/proc/self/fd/${directory.fd}/file.txt`,
        constants.O_RDONLY | constants.O_NOFOLLOW,
      );
      expect(await file.readFile("utf8")).toBe("inside\n");
      await file.close();
      await expect(
        open(`/proc/self/fd/${directory.fd}/link.txt`, constants.O_RDONLY | constants.O_NOFOLLOW),
      ).rejects.toMatchObject({ code: "ELOOP" });
      await expect(
        open(`/proc/self/fd/${directory.fd}/secret.txt`, constants.O_RDONLY | constants.O_NOFOLLOW),
      ).rejects.toMatchObject({ code: "ENOENT" });
    } finally {
      await directory.close();
    }
  });
});

describe("parseWorkspacePath", () => {
  it("normalises relative and /workspace paths and refuses everything that leaves the root", () => {
    expect(parseWorkspacePath(".")).toEqual([]);
    expect(parseWorkspacePath("/workspace")).toEqual([]);
    expect(parseWorkspacePath("/workspace/a//b/./c/../d")).toEqual(["a", "b", "d"]);
    expect(parseWorkspacePath("./notes/")).toEqual(["notes"]);
    for (const path of [
      "..",
      "a/../..",
      "/etc/passwd",
      "/workspacefoo",
      "a\0b",
      "x".repeat(256),
      "a/".repeat(2100),
    ])
      expect(
        syncRefusal(() => parseWorkspacePath(path)),
        JSON.stringify(path.slice(0, 20)),
      ).toBe("outside");
  });
});

describe("reading", () => {
  it("reads plain files and refuses links, FIFOs, hard links and directories without reading them", async () => {
    writeFileSync(join(root, "plain.txt"), "héllo\n");
    symlinkSync(join(outside, "secret.txt"), join(root, "link.txt"));
    symlinkSync("plain.txt", join(root, "inner-link.txt"));
    symlinkSync(outside, join(root, "dir-link"));
    linkSync(join(outside, "secret.txt"), join(root, "hard.txt"));
    execFileSync("mkfifo", [join(root, "pipe")]);
    mkdirSync(join(root, "dir"));
    expect(await readWorkspaceText(root, "plain.txt")).toBe("héllo\n");
    expect(readWorkspaceTextSync(root, "/workspace/plain.txt")).toBe("héllo\n");
    const cases: Array<[string, string]> = [
      ["link.txt", "outside"],
      ["inner-link.txt", "outside"],
      ["dir-link/secret.txt", "outside"],
      ["hard.txt", "outside"],
      ["pipe", "not-regular"],
      ["dir", "is-directory"],
      ["missing.txt", "not-found"],
      ["plain.txt/x", "not-directory"],
    ];
    for (const [path, reason] of cases) {
      expect(await refusal(readWorkspaceText(root, path)), path).toBe(reason);
      expect(
        syncRefusal(() => readWorkspaceTextSync(root, path)),
        path,
      ).toBe(reason);
    }
  });

  it("refuses a file over the size limit from its fstat, before reading", async () => {
    writeFileSync(join(root, "big.txt"), "x".repeat(1000));
    await expect(readWorkspaceText(root, "big.txt", { maxBytes: 999 })).rejects.toMatchObject({
      reason: "too-large",
      sizeBytes: 1000,
    });
    expect(syncRefusal(() => readWorkspaceTextSync(root, "big.txt", 999))).toBe("too-large");
    expect(await readWorkspaceText(root, "big.txt", { maxBytes: 1000 })).toHaveLength(1000);
  });

  it("gives up with a refusal when the caller's signal is aborted, and closes what it opened", async () => {
    writeFileSync(join(root, "plain.txt"), "text\n");
    const before = openDescriptorCount();
    const controller = new AbortController();
    controller.abort();
    expect(await refusal(readWorkspaceText(root, "plain.txt", { signal: controller.signal }))).toBe(
      "timeout",
    );
    for (let index = 0; index < 50; index += 1) {
      await refusal(readWorkspaceText(root, "missing/x.txt"));
      await refusal(readWorkspaceText(root, "plain.txt/x"));
      await listWorkspaceEntries(root);
      await searchWorkspaceFiles(root, ".", "text");
    }
    expect(openDescriptorCount()).toBe(before);
  });
});

/** The tools' old search, over whole files: the reference for ordinary files. */
function naiveSearch(files: Array<[string, string]>, query: string): SearchMatch[] {
  const needle = query.toLowerCase();
  const matches: SearchMatch[] = [];
  for (const [path, text] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    text.split("\n").forEach((line, index) => {
      if (line.toLowerCase().includes(needle))
        matches.push({ path, line: index + 1, text: line.slice(0, 500) });
    });
  return matches;
}

describe("listing and searching", () => {
  it("list the same files in the same order as a plain recursive walk, leaving links and FIFOs out", async () => {
    mkdirSync(join(root, "a", "b"), { recursive: true });
    writeFileSync(join(root, "a-b.txt"), "1");
    writeFileSync(join(root, "a", "x.txt"), "22");
    writeFileSync(join(root, "a", "b", "y.txt"), "333");
    writeFileSync(join(root, "Z.txt"), "");
    symlinkSync(outside, join(root, "a", "link"));
    symlinkSync(join(outside, "secret.txt"), join(root, "link.txt"));
    execFileSync("mkfifo", [join(root, "pipe")]);
    const expected = [
      { path: "Z.txt", sizeBytes: 0 },
      { path: "a-b.txt", sizeBytes: 1 },
      { path: "a/b/y.txt", sizeBytes: 3 },
      { path: "a/x.txt", sizeBytes: 2 },
    ];
    expect(await listWorkspaceEntries(root)).toEqual(expected);
    expect(listWorkspaceEntriesSync(root)).toEqual(expected);
    expect(await listWorkspaceEntries(root, "a/b")).toEqual([{ path: "a/b/y.txt", sizeBytes: 3 }]);
    expect(await refusal(listWorkspaceEntries(root, "a/link"))).toBe("outside");
    expect(await refusal(listWorkspaceEntries(root, "missing"))).toBe("not-found");
    expect(listWorkspaceEntriesSync(root, "missing")).toEqual([]);
  });

  it("refuse a walk nested deeper than the limit", async () => {
    mkdirSync(join(root, ...Array.from({ length: MAX_WALK_DEPTH + 2 }, () => "d")), { recursive: true });
    expect(await refusal(listWorkspaceEntries(root))).toBe("too-many");
    expect(syncRefusal(() => listWorkspaceEntriesSync(root))).toBe("too-many");
  });

  it("find exactly what the whole-file search found, across chunk boundaries and multi-byte characters", async () => {
    // Files over the 1 MiB read chunk, with characters whose UTF-8 bytes straddle chunk boundaries, case
    // folding that changes lengths (İ), a final sigma, CRLF lines and a line longer than the piece size.
    const unit = "Ärger İstanbul ΟΔΟΣ 😀 straße\r\n";
    const big = Array.from({ length: 50_000 }, (_, index) =>
      index % 997 === 0 ? `line ${index} has the NEEDLE here` : `${unit}${index}`,
    ).join("\n");
    // The needle straddles the point where the long line is first searched and cut to its tail.
    const longLine = `${"y".repeat(2 * MAX_SEARCH_LINE_CHARS - 3)}NEEDLE${"z".repeat(MAX_SEARCH_LINE_CHARS)}\nafter needle\n`;
    const files: Array<[string, string]> = [
      ["big.txt", big],
      ["notes/long.txt", longLine],
      ["notes/small.md", "first\nA needle\n\nneedle again"],
      ["x.txt", "no match"],
    ];
    mkdirSync(join(root, "notes"));
    for (const [path, text] of files) writeFileSync(join(root, path), text);
    for (const query of ["needle", "İstanbul", "ΟΔΟΣ", "😀 str", "ss", "\r"]) {
      const result = await searchWorkspaceFiles(root, ".", query);
      const expected = naiveSearch(files, query);
      expect(result.truncated !== undefined, query).toBe(expected.length >= MAX_SEARCH_MATCHES);
      expect(result.matches, query).toEqual(expected.slice(0, MAX_SEARCH_MATCHES));
    }
  });

  it("search many directories in path order and close every directory they opened", async () => {
    const files: Array<[string, string]> = [];
    for (let index = 0; index < 45; index += 1) {
      const directory = join(root, `d${index}`, "inner");
      mkdirSync(directory, { recursive: true });
      writeFileSync(join(directory, "file.txt"), `skip\nneedle ${index}\n`);
      files.push([`d${index}/inner/file.txt`, `skip\nneedle ${index}\n`]);
    }
    const before = openDescriptorCount();
    const result = await searchWorkspaceFiles(root, ".", "NEEDLE");
    expect(result.matches).toEqual(naiveSearch(files, "needle"));
    expect(result.matches).toHaveLength(45);
    expect(openDescriptorCount()).toBe(before);
  });

  it("stop at the byte and match budgets and say so", async () => {
    writeFileSync(join(root, "lines.txt"), "x\n".repeat(100_000));
    const byBytes = await searchWorkspaceFiles(root, ".", "nothing", { maxBytes: 1000 });
    expect(byBytes.matches).toEqual([]);
    expect(byBytes.truncated).toMatch(/after scanning 1000 bytes/);
    const byMatches = await searchWorkspaceFiles(root, ".", "X", { maxMatches: 7 });
    expect(byMatches.matches.map((match) => match.line)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(byMatches.truncated).toMatch(/after 7 matching lines/);
    expect(await searchWorkspaceFiles(root, "missing", "x")).toEqual({ matches: [] });
    expect(await refusal(searchWorkspaceFiles(root, "lines.txt", "x"))).toBe("not-directory");
  });
});

describe("writing", () => {
  it("creates files and parents, overwrites in place, and never follows or replaces a link", async () => {
    expect(await writeWorkspaceText(root, "a/b/new.txt", "héllo")).toBe(6);
    expect(readFileSync(join(root, "a/b/new.txt"), "utf8")).toBe("héllo");
    const inode = statSync(join(root, "a/b/new.txt")).ino;
    await writeWorkspaceText(root, "a/b/new.txt", "short");
    expect(readFileSync(join(root, "a/b/new.txt"), "utf8")).toBe("short");
    expect(statSync(join(root, "a/b/new.txt")).ino).toBe(inode);

    symlinkSync(join(outside, "created.txt"), join(root, "dangling.txt"));
    symlinkSync(join(outside, "secret.txt"), join(root, "link.txt"));
    symlinkSync(outside, join(root, "dir-link"));
    symlinkSync(join(outside, "made"), join(root, "dangling-dir"));
    linkSync(join(outside, "secret.txt"), join(root, "hard.txt"));
    execFileSync("mkfifo", [join(root, "pipe")]);
    const cases: Array<[string, string]> = [
      ["dangling.txt", "outside"],
      ["link.txt", "outside"],
      ["dir-link/planted.txt", "outside"],
      ["dangling-dir/planted.txt", "outside"],
      ["hard.txt", "outside"],
      ["pipe", "not-regular"],
      ["a", "is-directory"],
      ["a/b/new.txt/x", "not-directory"],
      ["../escape.txt", "outside"],
    ];
    for (const [path, reason] of cases) {
      expect(await refusal(writeWorkspaceText(root, path, "PWNED")), path).toBe(reason);
      expect(
        syncRefusal(() => writeWorkspaceTextSync(root, path, "PWNED")),
        path,
      ).toBe(reason);
    }
    expect(readdirSync(outside)).toEqual(["secret.txt"]);
    expect(readFileSync(join(outside, "secret.txt"), "utf8")).toBe("SECRET\n");
  });

  it("sync writes create parents like the async ones", () => {
    writeWorkspaceTextSync(root, "x/y/z.txt", "one");
    writeWorkspaceTextSync(root, "x/y/z.txt", "two");
    expect(readFileSync(join(root, "x/y/z.txt"), "utf8")).toBe("two");
    expect(listWorkspaceEntriesSync(root)).toEqual([{ path: "x/y/z.txt", sizeBytes: 3 }]);
  });
});
