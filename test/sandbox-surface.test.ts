import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKernel, type Kernel } from "../src/kernel/index.js";

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const cli = join(projectRoot, "bin", "progagent.js");

describe("seccomp surface", () => {
  let kernel: Kernel;
  beforeAll(async () => {
    kernel = createKernel({ timeoutMs: 60_000 });
    await kernel.start();
  });
  afterAll(async () => {
    await kernel.dispose();
  });

  it("refuses nested user namespaces and io_uring with EPERM", async () => {
    const result = await kernel.execute(
      [
        "import ctypes, errno, os, subprocess",
        "libc = ctypes.CDLL(None, use_errno=True)",
        "def attempt(name, call):",
        "    ctypes.set_errno(0)",
        "    value = call()",
        "    print(name, value, errno.errorcode.get(ctypes.get_errno()))",
        "attempt('unshare', lambda: libc.unshare(0x10000000))",
        "attempt('io_uring_setup', lambda: libc.syscall(425, 8, ctypes.create_string_buffer(120)))",
        "attempt('ptrace', lambda: libc.ptrace(0, 0, None, None))",
        "attempt('bpf', lambda: libc.syscall(321, 0, None, 0))",
        "attempt('keyctl', lambda: libc.syscall(250, 0, 0, 0, 0, 0))",
        "attempt('perf_event_open', lambda: libc.syscall(298, None, 0, -1, -1, 0))",
        "run = subprocess.run(['unshare', '-Urm', 'true'], capture_output=True, text=True)",
        "print('unshare -Urm', run.returncode, run.stderr.strip())",
        "print('Seccomp', [line.split()[1] for line in open('/proc/self/status') if line.startswith('Seccomp:')])",
      ].join("\n"),
    );
    expect(result.status).toBe("ok");
    for (const name of ["unshare", "io_uring_setup", "ptrace", "bpf", "keyctl", "perf_event_open"])
      expect(result.text).toContain(`${name} -1 EPERM`);
    expect(result.text).toMatch(/unshare -Urm 1 .*Operation not permitted/);
    expect(result.text).toContain("Seccomp ['2']");
  });

  it("still runs an ordinary data-processing program (threads, subprocess, Pool, sqlite3, csv, zlib)", async () => {
    const result = await kernel.execute(
      [
        "import csv, io, json, sqlite3, subprocess, threading, zlib",
        "from concurrent.futures import ThreadPoolExecutor",
        "from multiprocessing import Pool",
        "rows = [{'id': index, 'value': index * index % 97} for index in range(200_000)]",
        "buffer = io.StringIO()",
        "writer = csv.DictWriter(buffer, fieldnames=['id', 'value'])",
        "writer.writeheader()",
        "writer.writerows(rows)",
        "packed = zlib.compress(buffer.getvalue().encode())",
        "parsed = list(csv.DictReader(io.StringIO(zlib.decompress(packed).decode())))",
        "db = sqlite3.connect('data.sqlite')",
        "db.execute('create table t (id integer, value integer)')",
        "db.executemany('insert into t values (?, ?)', [(row['id'], row['value']) for row in rows])",
        "total = db.execute('select sum(value) from t').fetchone()[0]",
        "with ThreadPoolExecutor(8) as pool:",
        "    squares = sum(pool.map(lambda x: x * x, range(1000)))",
        "threads = [threading.Thread(target=lambda: None) for _ in range(16)]",
        "for thread in threads: thread.start()",
        "for thread in threads: thread.join()",
        "with Pool(3) as pool:",
        "    doubled = sum(pool.map(abs, range(-100, 0)))",
        "echo = subprocess.run(['sh', '-c', 'echo from-shell'], capture_output=True, text=True).stdout.strip()",
        "print(json.dumps({'rows': len(parsed), 'total': total, 'squares': squares, 'doubled': doubled, 'echo': echo}))",
      ].join("\n"),
    );
    expect(result.status, result.text).toBe("ok");
    const summary = JSON.parse(result.stdout) as Record<string, unknown>;
    const expectedTotal = Array.from({ length: 200_000 }, (_, index) => (index * index) % 97).reduce(
      (a, b) => a + b,
      0,
    );
    expect(summary).toEqual({
      rows: 200_000,
      total: expectedTotal,
      squares: 332_833_500,
      doubled: 5_050,
      echo: "from-shell",
    });
  });
});

describe("held limits", () => {
  let kernel: Kernel;
  beforeAll(async () => {
    kernel = createKernel({ timeoutMs: 60_000 });
    await kernel.start();
  });
  afterAll(async () => {
    await kernel.dispose();
  });

  it("stops a thread bomb at the process budget and the kernel serves on", async () => {
    const result = await kernel.execute(
      [
        "import threading, time",
        "stop = threading.Event()",
        "started = 0",
        "try:",
        "    for _ in range(5000):",
        "        threading.Thread(target=stop.wait, daemon=True).start()",
        "        started += 1",
        "except RuntimeError as error:",
        "    print('stopped by', error)",
        "stop.set()",
        "print('threads', started)",
      ].join("\n"),
    );
    expect(result.text).toContain("stopped by can't start new thread");
    expect(Number(/threads (\d+)/.exec(result.text)?.[1])).toBeLessThan(256);
    expect((await kernel.execute("print('alive')")).text).toBe("alive");
  });

  it("stops a descriptor bomb at the open-files limit and the kernel serves on", async () => {
    const result = await kernel.execute(
      [
        "import os",
        "opened = []",
        "try:",
        "    for _ in range(100_000):",
        "        opened.append(os.open('/dev/null', os.O_RDONLY))",
        "except OSError as error:",
        "    print('stopped by', error.strerror)",
        "print('opened', len(opened))",
        "for fd in opened:",
        "    os.close(fd)",
      ].join("\n"),
    );
    expect(result.text).toContain("stopped by Too many open files");
    expect(Number(/opened (\d+)/.exec(result.text)?.[1])).toBeLessThan(1024);
    expect((await kernel.execute("print('alive')")).text).toBe("alive");
  });

  it("shows the model at most 50k characters of a 500 MB print, and the kernel serves on", async () => {
    const result = await kernel.execute(
      "import sys\nchunk = 'y' * (1024 * 1024)\nfor _ in range(500):\n    sys.stdout.write(chunk)",
    );
    expect(result.text.length).toBeLessThanOrEqual(51_000);
    expect(result.truncated).toBe(true);
    expect((await kernel.execute("print('alive')")).text).toBe("alive");
  });
});

describe("two concurrent kernels", () => {
  it("share no /tmp, /dev/shm, sockets, processes or variables", async () => {
    const first = createKernel({ timeoutMs: 20_000 });
    const second = createKernel({ timeoutMs: 20_000 });
    try {
      const setup = await first.execute(
        [
          "import os, socket, subprocess",
          "secret = 'first-kernel-variable'",
          "open('/tmp/first.txt', 'w').write('first')",
          "open('/dev/shm/first.shm', 'w').write('first') if os.path.isdir('/dev/shm') else None",
          "server = socket.socket(socket.AF_UNIX)",
          "server.bind('\\0progagent-first-kernel')",
          "server.listen()",
          "tcp = socket.socket()",
          "tcp.bind(('127.0.0.1', 47123))",
          "tcp.listen()",
          "sleeper = subprocess.Popen(['sleep', '61.5'])",
          "print('ready')",
        ].join("\n"),
      );
      expect(setup.text).toBe("ready");
      const probe = await second.execute(
        [
          "import os, socket",
          "print('variable', 'secret' in globals())",
          "print('tmp', os.listdir('/tmp'))",
          "print('shm', os.listdir('/dev/shm') if os.path.isdir('/dev/shm') else [])",
          "client = socket.socket(socket.AF_UNIX)",
          "try:",
          "    client.connect('\\0progagent-first-kernel')",
          "    print('abstract connected')",
          "except OSError:",
          "    print('abstract refused')",
          "try:",
          "    socket.create_connection(('127.0.0.1', 47123), timeout=2)",
          "    print('tcp connected')",
          "except OSError:",
          "    print('tcp refused')",
          "commands = [open(f'/proc/{p}/cmdline', 'rb').read() for p in os.listdir('/proc') if p.isdigit()]",
          "print('sleeper visible', any(b'61.5' in command for command in commands))",
        ].join("\n"),
      );
      expect(probe.status).toBe("ok");
      expect(probe.text).toContain("variable False");
      expect(probe.text).toContain("tmp []");
      expect(probe.text).toContain("shm []");
      expect(probe.text).toContain("abstract refused");
      expect(probe.text).toContain("tcp refused");
      expect(probe.text).toContain("sleeper visible False");
    } finally {
      await Promise.all([first.dispose(), second.dispose()]);
    }
  });
});

describe("descriptors inherited from the launcher", () => {
  const scratch = mkdtempSync(join(tmpdir(), "progagent-fd-test-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("are not readable from Python when `progagent serve` was started with extra descriptors open", async () => {
    const secret = join(scratch, "host-secret.txt");
    writeFileSync(secret, "HOST-SECRET-THROUGH-FD", { mode: 0o600 });
    const config = join(scratch, "config.json");
    writeFileSync(config, JSON.stringify({ mcpServers: {} }));
    // A launcher (a shell script here) that leaves the secret open at 40 and 300, not close-on-exec.
    const server = spawn(
      "/bin/bash",
      [
        "-c",
        'exec 40<"$1" 300<"$1"; exec "$2" "$3" serve --config "$4" --timeout 30',
        "launcher",
        secret,
        process.execPath,
        cli,
        config,
      ],
      { stdio: ["pipe", "pipe", "ignore"] },
    );
    const replies = new Map<number, (message: Record<string, unknown>) => void>();
    let buffered = "";
    server.stdout.setEncoding("utf8");
    server.stdout.on("data", (chunk: string) => {
      buffered += chunk;
      let newline = buffered.indexOf("\n");
      while (newline >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        newline = buffered.indexOf("\n");
        const message = JSON.parse(line) as { id?: number };
        if (typeof message.id === "number") replies.get(message.id)?.(message);
      }
    });
    const request = (
      id: number,
      method: string,
      params: Record<string, unknown>,
    ): Promise<Record<string, unknown>> =>
      new Promise((done, fail) => {
        const timer = setTimeout(() => fail(new Error(`no answer to ${method}`)), 60_000);
        replies.set(id, (message) => {
          clearTimeout(timer);
          done(message);
        });
        server.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
      });
    try {
      await request(1, "initialize", {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "fd-test", version: "1.0.0" },
      });
      server.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
      const code = [
        "import os",
        "for fd in (40, 300):",
        "    try:",
        "        print(fd, os.read(fd, 100))",
        "    except OSError as error:",
        "        print(fd, 'closed', error.errno)",
        "print('open', sorted(int(fd) for fd in os.listdir('/proc/self/fd')))",
      ].join("\n");
      const answer = await request(2, "tools/call", { name: "programmatic_tool_call", arguments: { code } });
      const text = JSON.stringify(answer);
      expect(text).toContain("40 closed 9");
      expect(text).toContain("300 closed 9");
      expect(text).not.toContain("HOST-SECRET");
    } finally {
      server.kill("SIGTERM");
      await new Promise((done) => server.once("exit", done));
    }
  });
});
