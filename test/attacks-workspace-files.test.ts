import { randomBytes } from "node:crypto";
import {
  closeSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scratchDir } from "../src/core/index.js";
import { createEpisode, defineTask, type Episode } from "../src/envs/index.js";
import type { ToolCallRecord } from "../src/runtime/index.js";
import { tinyTask } from "./fixtures/tiny-domain.js";

/*
 * Rows R1, R2, R3 and R10 of the attack list (../shared/design/attacks.md) and the held rows about file-tool
 * paths. The host files targeted are root-only files in a temp dir this test creates; every loop is bounded
 * by a count and a time, and the flipping child is killed at the end.
 */

const writableTask = defineTask({ ...tinyTask, id: "tiny.write_race", workspaceWrite: true });

const cacheRoot = mkdtempSync(join(tmpdir(), "progagent-attacks-cache-"));
// On the episodes' file system, so that a hard link from a workspace to the host's files can be made.
const hostDir = mkdtempSync(join(scratchDir().dir, "progagent-attacks-host-"));
const secret = `HOST-SECRET-${randomBytes(8).toString("hex")}`;
const secretFile = join(hostDir, "secret.txt");
const secretDir = join(hostDir, "secret-dir");

beforeAll(() => {
  writeFileSync(secretFile, `${secret}\n`, { mode: 0o600 });
  mkdirSync(secretDir, { mode: 0o700 });
  writeFileSync(join(secretDir, "host-only.txt"), `${secret} in a directory\n`, { mode: 0o600 });
});

afterAll(() => {
  rmSync(cacheRoot, { recursive: true, force: true });
  rmSync(hostDir, { recursive: true, force: true });
});

/** Everything the host handed back to the program, as text. */
function resultsText(calls: readonly ToolCallRecord[]): string {
  return calls
    .map((call) =>
      JSON.stringify(call.result.structuredContent ?? call.result.content.map((part) => part.text)),
    )
    .join("\n");
}

/** Tool-call rounds per race test (each round calls every tool under test once). */
const ROUNDS = 700;
/** Rounds a loaded machine must still run (the race is seen within tens of rounds on an idle one). */
const MIN_ROUNDS = 50;

/**
 * A Python prelude. `flip(pairs, on_tick)` forks a child that swaps each pair of names with renameat2
 * RENAME_EXCHANGE in a tight loop, calling `on_tick` about every 0.2 s, until `stop(pid)` kills it (or 90 s
 * pass). `rounds(body)` runs `body` ROUNDS times (at most 75 s) and returns how many rounds ran.
 */
const FLIPPER = String.raw`
import ctypes, json, os, time
_libc = ctypes.CDLL(None, use_errno=True)
_libc.renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
AT_FDCWD, RENAME_EXCHANGE = -100, 2

def flip(pairs, on_tick=None):
    pid = os.fork()
    if pid == 0:
        try:
            end = time.monotonic() + 90
            tick = time.monotonic() + 0.2
            while time.monotonic() < end:
                for _ in range(200):
                    for first, second in pairs:
                        _libc.renameat2(AT_FDCWD, first.encode(), AT_FDCWD, second.encode(), RENAME_EXCHANGE)
                if on_tick and time.monotonic() > tick:
                    on_tick()
                    tick = time.monotonic() + 0.2
        finally:
            os._exit(0)
    return pid

def stop(pid):
    try:
        os.kill(pid, 9)
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)

def rounds(body):
    end = time.monotonic() + 75
    done = 0
    while done < ${ROUNDS} and time.monotonic() < end:
        body()
        done += 1
    return done

def attempt(outcomes, name, call):
    try:
        call()
        outcomes[name + ' ok'] = outcomes.get(name + ' ok', 0) + 1
    except ToolError as error:
        outcomes[name + ' refused'] = outcomes.get(name + ' refused', 0) + 1
        if 'outside the workspace' not in str(error) and 'not a regular file' not in str(error):
            outcomes['other: ' + str(error)[:100]] = 1
`;

async function runProgram(episode: Episode, code: string): Promise<Record<string, number>> {
  const result = await episode.execute(`${FLIPPER}\n${code}`, { timeoutMs: 100_000 });
  const line = result.text.split("\n").find((text) => text.startsWith("OUTCOMES "));
  if (!line) throw new Error(`the program printed no outcomes:\n${result.text}`);
  const outcomes = JSON.parse(line.slice("OUTCOMES ".length)) as Record<string, number>;
  if (process.env.PROGAGENT_TEST_VERBOSE) console.log(outcomes);
  return outcomes;
}

describe("R1: a symlink swapped in by a forked flipper", () => {
  it("never makes read_file, list_files or search_files follow it out of the workspace", async () => {
    await using episode = await createEpisode(tinyTask, "v0", 0, { cacheDir: cacheRoot, withKernel: true });
    const outcomes = await runProgram(
      episode,
      String.raw`
open('data.txt', 'w').write('plain workspace text\n')
os.symlink(${JSON.stringify(secretFile)}, 'swap')
os.mkdir('box')
open('box/inner.txt', 'w').write('plain inner text\n')
os.symlink(${JSON.stringify(secretDir)}, 'boxswap')
outcomes = {}
def one_round():
    attempt(outcomes, 'read', lambda: tools.read_file(path='data.txt'))
    attempt(outcomes, 'read inner', lambda: tools.read_file(path='box/inner.txt'))
    attempt(outcomes, 'list', lambda: tools.list_files(path='box'))
    attempt(outcomes, 'search', lambda: tools.search_files(query='secret', path='box'))
pid = flip([('data.txt', 'swap'), ('box', 'boxswap')])
try:
    outcomes['rounds'] = rounds(one_round)
finally:
    stop(pid)
print('OUTCOMES ' + json.dumps(outcomes))
`,
    );
    const text = resultsText(episode.calls);
    expect(text).not.toContain(secret);
    expect(text).not.toContain("host-only.txt");
    // The race was live: both the plain file and the link were seen under the same name, thousands of times.
    // On a loaded machine fewer rounds fit in the program's 75 s; what matters is that the race was seen both ways.
    expect(outcomes.rounds).toBeGreaterThanOrEqual(MIN_ROUNDS);
    expect(outcomes["read ok"]).toBeGreaterThan(0);
    expect(outcomes["read refused"]).toBeGreaterThan(0);
    expect(outcomes["list ok"]).toBeGreaterThan(0);
  }, 150_000);
});

describe("R2: a FIFO swapped in by a forked flipper", () => {
  it("is never opened for reading; the host keeps serving and later calls work", async () => {
    await using episode = await createEpisode(tinyTask, "v0", 0, { cacheDir: cacheRoot, withKernel: true });
    // Every 0.2 s the flipper writes a marker into the FIFO if someone holds it open: that releases a host
    // blocked in open(2) (the old behaviour: the whole server froze), and the marker coming back would show
    // that the host read the FIFO.
    const outcomes = await runProgram(
      episode,
      String.raw`
open('data.txt', 'w').write('plain workspace text\n')
os.mkfifo('pipe')
import stat
def release():
    for name in ('data.txt', 'pipe'):
        try:
            fd = os.open(name, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:
            continue
        try:
            # Only into the FIFO: the other name is the plain file at this moment.
            if stat.S_ISFIFO(os.fstat(fd).st_mode):
                os.write(fd, b'FIFO-MARKER\n')
        except OSError:
            pass
        finally:
            os.close(fd)
outcomes = {}
def one_round():
    attempt(outcomes, 'read', lambda: tools.read_file(path='data.txt'))
    attempt(outcomes, 'search', lambda: tools.search_files(query='marker'))
    attempt(outcomes, 'list', lambda: tools.list_files())
pid = flip([('data.txt', 'pipe')], on_tick=release)
try:
    outcomes['rounds'] = rounds(one_round)
finally:
    stop(pid)
print('OUTCOMES ' + json.dumps(outcomes))
`,
    );
    expect(resultsText(episode.calls)).not.toContain("FIFO-MARKER");
    // On a loaded machine fewer rounds fit in the program's 75 s; what matters is that the race was seen both ways.
    expect(outcomes.rounds).toBeGreaterThanOrEqual(MIN_ROUNDS);
    expect(outcomes["read ok"]).toBeGreaterThan(0);
    expect(outcomes["read refused"]).toBeGreaterThan(0);
    // Whatever name the FIFO ended under, it is refused at once and the rest of the workspace still reads.
    const fifoName = statSync(join(episode.workspaceDir, "pipe")).isFIFO() ? "pipe" : "data.txt";
    const refused = await episode.callTool("read_file", { path: fifoName });
    expect(refused.content[0]?.text).toContain("is not a regular file");
    const memo = await episode.callTool("read_file", { path: "memo.md" });
    expect((memo.structuredContent as { content: string }).content).toContain("Deactivate items");
  }, 150_000);
});

describe("R3: write_file and links", () => {
  it("does not create a file through a dangling symlink", async () => {
    await using episode = await createEpisode(writableTask, "v0", 0, { cacheDir: cacheRoot });
    const target = join(hostDir, "created-through-link.txt");
    symlinkSync(target, join(episode.workspaceDir, "out.txt"));
    symlinkSync(join(hostDir, "made-dir"), join(episode.workspaceDir, "outdir"));
    const direct = await episode.callTool("write_file", { path: "out.txt", content: "PWNED" });
    expect(direct.content[0]?.text).toContain("outside the workspace");
    const nested = await episode.callTool("write_file", { path: "outdir/x.txt", content: "PWNED" });
    expect(nested.isError).toBe(true);
    expect(existsSync(target)).toBe(false);
    expect(existsSync(join(hostDir, "made-dir"))).toBe(false);
  });

  it("never writes outside the workspace while links are swapped in by a forked flipper", async () => {
    await using episode = await createEpisode(writableTask, "v0", 0, {
      cacheDir: cacheRoot,
      withKernel: true,
    });
    const victim = join(hostDir, "victim.txt");
    const neverCreated = join(hostDir, "never-created.txt");
    const victimDir = join(hostDir, "victim-dir");
    writeFileSync(victim, "ORIGINAL", { mode: 0o600 });
    mkdirSync(victimDir, { mode: 0o700 });
    const outcomes = await runProgram(
      episode,
      String.raw`
open('target.txt', 'w').write('plain\n')
os.symlink(${JSON.stringify(victim)}, 'swap')
open('new.txt', 'w').write('plain\n')
os.symlink(${JSON.stringify(neverCreated)}, 'dangling')
os.mkdir('box')
os.symlink(${JSON.stringify(victimDir)}, 'boxswap')
outcomes = {}
def one_round():
    attempt(outcomes, 'write', lambda: tools.write_file(path='target.txt', content='PWNED'))
    attempt(outcomes, 'write new', lambda: tools.write_file(path='new.txt', content='PWNED'))
    attempt(outcomes, 'write nested', lambda: tools.write_file(path='box/planted.txt', content='PWNED'))
pid = flip([('target.txt', 'swap'), ('new.txt', 'dangling'), ('box', 'boxswap')])
try:
    outcomes['rounds'] = rounds(one_round)
finally:
    stop(pid)
print('OUTCOMES ' + json.dumps(outcomes))
`,
    );
    expect(readFileSync(victim, "utf8")).toBe("ORIGINAL");
    expect(statSync(victim).mode & 0o777).toBe(0o600);
    expect(existsSync(neverCreated)).toBe(false);
    expect(readdirSync(victimDir)).toEqual([]);
    // On a loaded machine fewer rounds fit in the program's 75 s; what matters is that the race was seen both ways.
    expect(outcomes.rounds).toBeGreaterThanOrEqual(MIN_ROUNDS);
    expect(outcomes["write ok"]).toBeGreaterThan(0);
    expect(outcomes["write refused"]).toBeGreaterThan(0);
    expect(outcomes["write nested ok"]).toBeGreaterThan(0);
  }, 150_000);
});

describe("R10: a 256 MB file of short lines", () => {
  it("gives search_files and read_file a bounded answer and the episode goes on", async () => {
    await using episode = await createEpisode(tinyTask, "v0", 0, { cacheDir: cacheRoot });
    const path = join(episode.workspaceDir, "huge.log");
    const block = Buffer.from("x\n".repeat(512 * 1024));
    const fd = openSync(path, "w");
    try {
      for (let index = 0; index < 256; index += 1) writeSync(fd, block);
    } finally {
      closeSync(fd);
    }
    expect(statSync(path).size).toBe(256 * 1024 * 1024);

    const everyLine = await episode.callTool("search_files", { query: "X" });
    const many = everyLine.structuredContent as { total: number; truncated?: boolean; note?: string };
    expect(everyLine.isError).toBeFalsy();
    expect(many.truncated).toBe(true);
    expect(many.note).toMatch(/stopped after \d+ matching lines/);

    const noLine = await episode.callTool("search_files", { query: "not in any line" });
    const none = noLine.structuredContent as { total: number; truncated?: boolean; note?: string };
    expect(none.truncated).toBe(true);
    expect(none.note).toMatch(/stopped after scanning \d+ bytes/);

    const read = await episode.callTool("read_file", { path: "huge.log" });
    expect(read.content[0]?.text).toMatch(/read_file reads files up to \d+ bytes/);
    const listed = await episode.callTool("list_files", {});
    expect(
      (listed.structuredContent as { files: Array<{ path: string }> }).files.map((file) => file.path),
    ).toContain("huge.log");
    const note = await episode.callTool("search_files", { query: "NOTE 1", path: "notes" });
    expect((note.structuredContent as { total: number }).total).toBe(1);
  }, 150_000);
});

describe("held: file-tool paths outside the workspace", () => {
  let episode: Episode;
  beforeAll(async () => {
    episode = await createEpisode(writableTask, "v0", 0, { cacheDir: cacheRoot });
    const workspace = episode.workspaceDir;
    symlinkSync(secretFile, join(workspace, "static-link.txt"));
    symlinkSync(secretDir, join(workspace, "static-dir"));
    symlinkSync("memo.md", join(workspace, "inner-link.md"));
    linkSync(secretFile, join(workspace, "hard-link.txt"));
  });
  afterAll(async () => {
    await episode.dispose();
  });

  const refusals: Array<[string, string]> = [
    ["a static symlink to a host file", "static-link.txt"],
    ["a symlink to a workspace file", "inner-link.md"],
    ["a static symlink to a host directory", "static-dir/host-only.txt"],
    ["a hard link to a host file", "hard-link.txt"],
    ["../", "../../../etc/passwd"],
    ["../ after a real directory", "notes/../../memo.md"],
    ["an absolute host path", "/etc/passwd"],
    ["the absolute path of the secret", secretFile],
    ["a NUL byte", "memo.md\0.txt"],
    ["a 5,000-character name", "a".repeat(5000)],
    ["a 5,000-character path", "a/".repeat(2500)],
  ];

  it.each(refusals)("read_file refuses %s", async (_label, path) => {
    const result = await episode.callTool("read_file", { path });
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toContain("outside the workspace");
    expect(result.content[0]?.text).not.toContain(secret);
  });

  it.each(refusals)("write_file refuses %s and changes nothing outside", async (_label, path) => {
    const result = await episode.callTool("write_file", { path, content: "PWNED" });
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toContain("outside the workspace");
    expect(readFileSync(secretFile, "utf8")).toBe(`${secret}\n`);
  });

  it("list_files and search_files leave links out and refuse paths outside", async () => {
    const listed = await episode.callTool("list_files", {});
    const paths = (listed.structuredContent as { files: Array<{ path: string }> }).files.map(
      (file) => file.path,
    );
    expect(paths).toContain("memo.md");
    expect(paths.filter((path) => /link|static/.test(path))).toEqual([]);
    const search = await episode.callTool("search_files", { query: secret.slice(0, 20) });
    expect((search.structuredContent as { total: number }).total).toBe(0);
    for (const path of ["static-dir", "../", "/etc", "memo.md\0", "a".repeat(5000)]) {
      for (const tool of ["list_files", "search_files"]) {
        const result = await episode.callTool(
          tool,
          tool === "search_files" ? { path, query: "root" } : { path },
        );
        expect(result.isError, `${tool} ${path.slice(0, 20)}`).toBe(true);
        expect(result.content[0]?.text).toContain("outside the workspace");
      }
    }
    expect(resultsText(episode.calls)).not.toContain(secret);
  });

  it("paths under /workspace and ordinary relative paths still work", async () => {
    const memo = await episode.callTool("read_file", { path: "/workspace/memo.md" });
    expect((memo.structuredContent as { content: string }).content).toContain("Deactivate items");
    const nested = await episode.callTool("read_file", { path: "./notes/../notes/note-0.txt" });
    expect((nested.structuredContent as { content: string }).content).toBe("note 0\n");
    const written = await episode.callTool("write_file", { path: "out/deep/report.md", content: "done\n" });
    expect(written.structuredContent).toEqual({ path: "out/deep/report.md", size_bytes: 5 });
    expect(readFileSync(join(episode.workspaceDir, "out/deep/report.md"), "utf8")).toBe("done\n");
  });

  it("refuses FIFOs without blocking", async () => {
    execFileSync("mkfifo", [join(episode.workspaceDir, "static.fifo")]);
    const result = await episode.callTool("read_file", { path: "static.fifo" });
    expect(result.content[0]?.text).toContain("is not a regular file");
    const write = await episode.callTool("write_file", { path: "static.fifo", content: "x" });
    expect(write.isError).toBe(true);
  });
});
