import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createKernel, type Kernel } from "../src/kernel/index.js";

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const cli = join(projectRoot, "bin", "progagent.js");
const isRoot = process.getuid?.() === 0;
const invokingUid = process.getuid?.() ?? 0;
const scratch = mkdtempSync(join(tmpdir(), "progagent-user-workspace-"));
// Reachable by everyone, so that only the test about private parents has one.
chmodSync(scratch, 0o755);
const kernels: Kernel[] = [];

afterEach(async () => {
  await Promise.all(kernels.splice(0).map((kernel) => kernel.dispose()));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function track(kernel: Kernel): Kernel {
  kernels.push(kernel);
  return kernel;
}

/** Owner, group and mode of every entry below a directory, without following links. */
function snapshot(root: string): Record<string, string> {
  const entries: Record<string, string> = {};
  const visit = (path: string, name: string): void => {
    const stat = lstatSync(path);
    entries[name] = `${stat.uid}:${stat.gid}:${(stat.mode & 0o7777).toString(8)}`;
    if (stat.isDirectory())
      for (const child of readdirSync(path)) visit(join(path, child), `${name}/${child}`);
  };
  visit(root, ".");
  return entries;
}

/** A user's directory as a user would have it: files of two owners, private modes, a subdirectory. */
function userWorkspace(name: string, parent = scratch): string {
  const dir = join(parent, name);
  mkdirSync(join(dir, "notes"), { recursive: true });
  writeFileSync(join(dir, "data.csv"), "id,value\n1,10\n");
  chmodSync(join(dir, "data.csv"), 0o600);
  writeFileSync(join(dir, "notes", "todo.txt"), "buy milk\n");
  chmodSync(join(dir, "notes"), 0o750);
  writeFileSync(join(dir, "shared.txt"), "from a colleague\n");
  chmodSync(join(dir, "shared.txt"), 0o644);
  if (isRoot) chownSync(join(dir, "shared.txt"), 4321, 4321);
  return dir;
}

describe("a user's workspace", () => {
  it("keeps every file's owner and mode after a session, and the program reads and writes there", async () => {
    const dir = userWorkspace("keep");
    const before = snapshot(dir);
    const kernel = track(createKernel({ workspaceDir: dir, timeoutMs: 20_000 }));
    const result = await kernel.execute(
      "print(open('data.csv').read().splitlines()[1])\n" +
        "open('data.csv', 'a').write('2,20\\n')\n" +
        "print(open('notes/todo.txt').read().strip())",
    );
    expect(result.text).toBe("1,10\nbuy milk");
    await kernel.dispose();
    expect(snapshot(dir)).toEqual(before);
  });

  it("keeps owners and modes after a failed session and after a timeout restart", async () => {
    const dir = userWorkspace("restart");
    const before = snapshot(dir);
    const kernel = track(createKernel({ workspaceDir: dir, timeoutMs: 1_000, interruptGraceMs: 300 }));
    expect((await kernel.execute("raise RuntimeError('the program failed')")).status).toBe("error");
    const stuck = await kernel.execute(
      "import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True: time.sleep(0.05)",
    );
    expect(stuck.status).toBe("killed");
    const after = await kernel.execute(
      "open('data.csv', 'a').write('3,30\\n')\nprint(open('data.csv').read())",
    );
    expect(after.kernelRestarted).toBe(true);
    expect(after.text).toContain("3,30");
    expect((await kernel.execute("import os\nos._exit(3)")).status).toBe("crashed");
    await kernel.dispose();
    expect(snapshot(dir)).toEqual(before);
  });

  it("gives files the program creates to the invoking user", async () => {
    const dir = userWorkspace("create");
    const kernel = track(createKernel({ workspaceDir: dir, timeoutMs: 20_000 }));
    await kernel.execute(
      "import os\nopen('report.txt', 'w').write('done')\nos.makedirs('out/deep')\n" +
        "fd = os.open('out/deep/private.bin', os.O_CREAT | os.O_WRONLY, 0o600)\nos.write(fd, b'x')\nos.close(fd)",
    );
    await kernel.dispose();
    for (const name of ["report.txt", "out", "out/deep", "out/deep/private.bin"]) {
      const stat = lstatSync(join(dir, name));
      expect({ name, uid: stat.uid }).toEqual({ name, uid: invokingUid });
    }
    expect(statSync(join(dir, "out/deep/private.bin")).mode & 0o777).toBe(0o600);
  });

  it("refuses set-user-ID and set-group-ID modes, since the program's files belong to the workspace owner", async () => {
    const dir = userWorkspace("setid");
    const kernel = track(createKernel({ workspaceDir: dir, timeoutMs: 20_000 }));
    const result = await kernel.execute(
      [
        "import os, shutil",
        "open('tool', 'w').write('#!/bin/sh\\nid\\n')",
        "outcomes = []",
        "for attempt in (lambda: os.chmod('tool', 0o4755), lambda: os.chmod('tool', 0o2755),",
        "                lambda: os.close(os.open('made', os.O_CREAT | os.O_WRONLY, 0o6755)),",
        "                lambda: shutil.copy2('/usr/bin/su', 'su-copy') if os.path.exists('/usr/bin/su') else os.chmod('tool', 0o4700)):",
        "    try:",
        "        attempt()",
        "        outcomes.append('allowed')",
        "    except PermissionError:",
        "        outcomes.append('refused')",
        "os.chmod('tool', 0o755)",
        "print(outcomes)",
      ].join("\n"),
    );
    expect(result.text).toBe("['refused', 'refused', 'refused', 'refused']");
    await kernel.dispose();
    const modes = Object.entries(snapshot(dir)).filter(
      ([, state]) => (parseInt(state.split(":")[2]!, 8) & 0o6000) !== 0,
    );
    expect(modes).toEqual([]);
    expect(statSync(join(dir, "tool")).mode & 0o7777).toBe(0o755);
  });

  it("lets two kernels sharing it read and write each other's files", async () => {
    const dir = userWorkspace("shared");
    const first = track(createKernel({ workspaceDir: dir, timeoutMs: 20_000 }));
    const writePrivate = (name: string, text: string): string =>
      `import os\nfd = os.open('${name}', os.O_CREAT | os.O_WRONLY | os.O_APPEND, 0o600)\n` +
      `os.write(fd, b'${text}\\n')\nos.close(fd)\nprint(open('${name}').read().strip().replace(chr(10), '|'))`;
    expect((await first.execute(writePrivate("first.txt", "one"))).text).toBe("one");
    const second = track(createKernel({ workspaceDir: dir, timeoutMs: 20_000 }));
    expect((await second.execute(writePrivate("first.txt", "two"))).text).toBe("one|two");
    expect((await second.execute(writePrivate("second.txt", "a"))).text).toBe("a");
    // The first session's own file after the second session started, and the second session's file.
    expect((await first.execute(writePrivate("first.txt", "three"))).text).toBe("one|two|three");
    expect((await first.execute(writePrivate("second.txt", "b"))).text).toBe("a|b");
  });

  it("works inside a parent directory of mode 0700 (mktemp -d)", async () => {
    const parent = mkdtempSync(join(scratch, "private-parent-"));
    chmodSync(parent, 0o700);
    const dir = userWorkspace("inner", parent);
    const kernel = track(createKernel({ workspaceDir: dir, timeoutMs: 20_000 }));
    const result = await kernel.execute(
      "import os\nopen('made-here.txt', 'w').write('ok')\nsorted(os.listdir('.'))",
    );
    expect(result.status).toBe("ok");
    expect(result.value).toBe("['data.csv', 'made-here.txt', 'notes', 'shared.txt']");
  });
});

describe("links in a workspace never reach host files (R4)", () => {
  function hostSecret(): { path: string; state(): string } {
    const dir = mkdtempSync(join(scratch, "host-"));
    const path = join(dir, "secret");
    writeFileSync(path, "root only");
    chmodSync(path, 0o600);
    return {
      path,
      state: () => {
        const stat = lstatSync(path);
        return `${stat.uid}:${stat.gid}:${(stat.mode & 0o7777).toString(8)}`;
      },
    };
  }

  it("leaves a host file's owner and mode alone when the workspace links to it", async () => {
    const secret = hostSecret();
    const before = secret.state();
    const dir = userWorkspace("static-links");
    symlinkSync(secret.path, join(dir, "link-to-secret"));
    symlinkSync(dirname(secret.path), join(dir, "link-to-host-dir"));
    const kernel = track(createKernel({ workspaceDir: dir, timeoutMs: 20_000 }));
    const result = await kernel.execute("import os\nos.path.exists('link-to-secret')");
    expect(result.value).toBe("False");
    await kernel.dispose();
    track(createKernel({ workspaceDir: dir, timeoutMs: 20_000 }));
    expect(secret.state()).toBe(before);
  });

  it("never lets a restarted kernel follow a link swapped in for the workspace directory", async () => {
    const parent = mkdtempSync(join(scratch, "nested-"));
    const elsewhere = mkdtempSync(join(scratch, "elsewhere-"));
    for (const path of [parent, elsewhere]) chmodSync(path, 0o755);
    const dir = join(parent, "workspace");
    mkdirSync(dir);
    writeFileSync(join(elsewhere, "host-only.txt"), "not for the kernel");
    const kernel = track(createKernel({ workspaceDir: dir, timeoutMs: 20_000 }));
    expect((await kernel.execute("print('first')")).text).toBe("first");
    // What a second session could do to a workspace nested inside its own: swap the directory for a link.
    renameSync(dir, join(parent, "moved"));
    symlinkSync(elsewhere, dir);
    expect((await kernel.execute("import os\nos._exit(1)")).status).toBe("crashed");
    const restarted = await kernel.execute("import os\nprint(os.listdir('.'))").then(
      (result) => result.text,
      (error: Error) => error.message,
    );
    expect(restarted).not.toContain("host-only.txt");
    expect(restarted).toContain("no longer the directory the kernel was created for");
  });

  it("leaves a host file alone while model code swaps links in a shared workspace and new sessions start", async () => {
    const secret = hostSecret();
    const before = secret.state();
    const dir = join(scratch, "swapped-links");
    mkdirSync(dir);
    const attacker = track(createKernel({ workspaceDir: dir, timeoutMs: 20_000 }));
    // A forked flipper turns 40 names into links to the host file and back, until told to stop (bounded: 60 s).
    const flipper = [
      "import os, time",
      `target = ${JSON.stringify(secret.path)}`,
      // Sessions that start later must not lock the flipper out (old main chowned the directory to each new uid).
      "os.chmod('.', 0o777)",
      "if os.fork() == 0:",
      "    end = time.time() + 60",
      "    while time.time() < end and not os.path.exists('stop'):",
      "        for i in range(40):",
      "            try:",
      "                os.symlink(target, f'.l{i}')",
      "                os.rename(f'.l{i}', f'x{i}')",
      "                open(f'.f{i}', 'w').close()",
      "                os.rename(f'.f{i}', f'x{i}')",
      "            except OSError:",
      "                pass",
      "    os._exit(0)",
      "print('flipping')",
    ].join("\n");
    expect((await attacker.execute(flipper)).text).toBe("flipping");
    try {
      for (let attempt = 0; attempt < 40 && secret.state() === before; attempt += 1) {
        const session = createKernel({ workspaceDir: dir, timeoutMs: 20_000 });
        await session.start();
        if (attempt % 10 === 0) expect((await session.execute("print('started')")).text).toBe("started");
        await session.dispose();
      }
      expect(readdirSync(dir).filter((name) => /^x\d+$/.test(name)).length).toBeGreaterThan(0);
      expect(secret.state()).toBe(before);
    } finally {
      writeFileSync(join(dir, "stop"), "");
    }
  });
});

describe("progagent serve --workspace", () => {
  it("serves two sessions sharing a workspace under a 0700 parent; the user's files stay the user's", async () => {
    const parent = mkdtempSync(join(scratch, "serve-private-"));
    chmodSync(parent, 0o700);
    const dir = userWorkspace("served", parent);
    const before = snapshot(dir);
    const config = join(scratch, "serve-config.json");
    writeFileSync(config, JSON.stringify({ mcpServers: {} }));
    const connect = async (): Promise<Client> => {
      const client = new Client({ name: "test", version: "1.0.0" });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [cli, "serve", "--config", config, "--workspace", dir, "--timeout", "20"],
          stderr: "ignore",
        }),
      );
      return client;
    };
    const run = async (client: Client, code: string): Promise<string> => {
      const result = await client.callTool({ name: "programmatic_tool_call", arguments: { code } });
      return ((result as { content: Array<{ text: string }> }).content[0]?.text ?? "").trim();
    };
    const append = (text: string): string =>
      "import os\nfd = os.open('log.txt', os.O_CREAT | os.O_WRONLY | os.O_APPEND, 0o600)\n" +
      `os.write(fd, b'${text}\\n')\nos.close(fd)\nprint(open('log.txt').read().split())`;
    const first = await connect();
    const second = await connect();
    try {
      expect(await run(first, append("first"))).toBe("['first']");
      expect(await run(second, append("second"))).toBe("['first', 'second']");
      expect(await run(first, append("again") + "\nprint(open('data.csv').read().split()[0])")).toBe(
        "['first', 'second', 'again']\nid,value",
      );
    } finally {
      await first.close();
      await second.close();
    }
    const after = snapshot(dir);
    expect(after["./log.txt"]).toBe(`${invokingUid}:${process.getgid?.() ?? 0}:600`);
    delete after["./log.txt"];
    expect(after).toEqual(before);
  });

  it("fails at start with a one-line error when the workspace is not a directory", () => {
    const file = join(scratch, "not-a-directory");
    writeFileSync(file, "");
    const config = join(scratch, "empty-config.json");
    writeFileSync(config, JSON.stringify({ mcpServers: {} }));
    const result = spawnSync(process.execPath, [cli, "serve", "--config", config, "--workspace", file], {
      encoding: "utf8",
      timeout: 30_000,
      stdio: ["pipe", "pipe", "pipe"],
    });
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split("\n")).toEqual([
      `progagent: The workspace ${file} cannot be used: it is not a directory. Give a directory this user can read and write. [INVALID_ARGUMENT]`,
    ]);
  });

  it.runIf(isRoot)("fails at start when the invoking user cannot write the workspace", () => {
    const dir = join(scratch, "root-only");
    mkdirSync(dir, { mode: 0o700 });
    const config = join(scratch, "empty-config-2.json");
    writeFileSync(config, JSON.stringify({ mcpServers: {} }));
    chmodSync(config, 0o644);
    const result = spawnSync(process.execPath, [cli, "serve", "--config", config, "--workspace", dir], {
      encoding: "utf8",
      timeout: 30_000,
      stdio: ["pipe", "pipe", "pipe"],
      uid: 65534,
      gid: 65534,
      env: { ...process.env, HOME: "/tmp" },
    });
    expect(result.stderr.trim()).toBe(
      `progagent: The workspace ${dir} cannot be used: this user cannot read and write it. Give a directory this user can read and write. [INVALID_ARGUMENT]`,
    );
    expect(result.status).toBe(2);
  });
});
