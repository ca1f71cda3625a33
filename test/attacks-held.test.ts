import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createKernel } from "../src/kernel/index.js";
import {
  bindTool,
  createPtcSession,
  defineTool,
  serveHttp,
  programmaticSessionFactory,
} from "../src/runtime/index.js";
import { descendantCount, descendantPids } from "./helpers/processes.js";

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
  } catch {
    return "";
  }
}

// Regression tests for the "held" rows of attacks.md that no other test file covers: they must stay held.

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const cli = join(projectRoot, "bin", "progagent.js");
const scratch = mkdtempSync(join(tmpdir(), "progagent-attacks-held-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const echo = defineTool({
  name: "echo",
  description: "Returns its text.",
  kind: "read",
  inputSchema: z.object({ text: z.string() }),
  handler: ({ text }) => ({ text }),
});

describe("held: privileges, network and meta-tools from Python", () => {
  const session = createPtcSession({ endpoints: [bindTool(echo, {})], kernelOptions: { timeoutMs: 30_000 } });
  afterAll(async () => {
    await session.dispose();
  });

  it("cannot signal host processes, mount, gain privileges through set-user-ID files or rewrite the bootstrap", async () => {
    const result = await session.run(
      [
        "import os, errno",
        `host = ${process.pid}`,
        "out = []",
        "try:\n    os.kill(host, 0); out.append('kill: allowed')\nexcept OSError as e: out.append('kill: ' + errno.errorcode[e.errno])",
        "import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)",
        "r = libc.mount(b'none', b'/tmp', b'tmpfs', 0, None); out.append('mount: ' + (errno.errorcode[ctypes.get_errno()] if r else 'allowed'))",
        "open('s.sh', 'w').write('#!/bin/sh\\nid -u\\n')",
        "try:\n    os.chmod('s.sh', 0o4755); out.append('setuid: ' + oct(os.stat('s.sh').st_mode & 0o7000))\nexcept OSError as e: out.append('setuid: ' + errno.errorcode[e.errno])",
        "for target in ('/run/progagent/bootstrap.py', '/usr/bin/python3', '/etc/passwd-new'):",
        "    try:\n        open(target, 'a').write('x'); out.append(target + ': written')\n    except OSError as e: out.append(target + ': ' + errno.errorcode[e.errno])",
        "print('\\n'.join(out))",
      ].join("\n"),
    );
    const lines = result.text.split("\n");
    expect(lines[0]).toBe("kill: ESRCH");
    expect(lines[1]).toMatch(/^mount: (EPERM|EACCES)$/);
    // Either refused outright (the set-id filter) or stripped: never a set-user-ID file.
    expect(lines[2]).toMatch(/^setuid: (EPERM|0o0)$/);
    for (const line of lines.slice(3, 6)) expect(line).toMatch(/: (EROFS|EACCES|EPERM|ENOENT)$/);
  });

  it("reaches no host listener: loopback TCP, abstract and filesystem unix sockets, DNS, external addresses", async () => {
    const listener = createServer(() => undefined);
    await new Promise<void>((done) => listener.listen(0, "127.0.0.1", done));
    const port = (listener.address() as { port: number }).port;
    const abstract = createServer(() => undefined);
    const abstractName = `\0progagent-held-${process.pid}`;
    await new Promise<void>((done) => abstract.listen(abstractName, done));
    try {
      const result = await session.run(
        [
          "import socket",
          "def attempt(family, address):",
          "    s = socket.socket(family, socket.SOCK_STREAM)",
          "    s.settimeout(2)",
          "    try:\n        s.connect(address); return 'connected'\n    except OSError as e: return type(e).__name__",
          "    finally: s.close()",
          `print(attempt(socket.AF_INET, ('127.0.0.1', ${port})))`,
          `print(attempt(socket.AF_UNIX, ${JSON.stringify(abstractName)}))`,
          "print(attempt(socket.AF_UNIX, '/run/systemd/private'))",
          "print(attempt(socket.AF_INET, ('1.1.1.1', 53)))",
          "try:\n    socket.getaddrinfo('example.com', 80); print('resolved')\nexcept OSError as e: print(type(e).__name__)",
          "import os\nprint(sorted(os.listdir('/sys/class/net')) if os.path.isdir('/sys/class/net') else ['lo'])",
        ].join("\n"),
      );
      const lines = result.text.split("\n");
      expect(lines.slice(0, 5).every((line) => line !== "connected" && line !== "resolved")).toBe(true);
      expect(lines[5]).toBe("['lo']");
    } finally {
      listener.close();
      abstract.close();
    }
  });

  it("knows no claim_done or programmatic_tool_call: privileged meta-tools are not tools of the kernel", async () => {
    const result = await session.run(
      [
        "for name in ('claim_done', 'programmatic_tool_call'):",
        "    try:\n        tools[name](answer='x')\n    except Exception as e: print(name, type(e).__name__, str(e)[:60])",
      ].join("\n"),
    );
    expect(result.text).toMatch(
      /^claim_done UnknownToolError Unknown tool 'claim_done'. Available tools: echo$/m,
    );
    expect(result.text).toMatch(
      /^programmatic_tool_call UnknownToolError Unknown tool 'programmatic_tool_call'. Available tools: echo$/m,
    );
  });
});

describe("held: a stopped or killed kernel mid-call", () => {
  it("a program that stops itself is continued; a kernel stopped from outside hits the deadline, the next call is fresh", async () => {
    const kernel = createKernel({ timeoutMs: 3_000, interruptGraceMs: 1_000 });
    try {
      const own = await kernel.execute(
        "import os, signal\nos.kill(os.getpid(), signal.SIGSTOP)\nprint('after')",
      );
      expect(own.text).toContain("after");
      const running = kernel.execute("import time\nx = 1\ntime.sleep(20)");
      await new Promise((done) => setTimeout(done, 500));
      const stopped = descendantPids().filter((pid) => commandLine(pid).includes("bootstrap.py"));
      expect(stopped.length).toBeGreaterThan(0);
      for (const pid of stopped) process.kill(pid, "SIGSTOP");
      const result = await running;
      expect(result.status).toBe("killed");
      expect(result.text).toMatch(/did not stop within 1 s of the interrupt, so the kernel was killed/);
      const next = await kernel.execute("print('fresh', 'x' in globals())");
      expect(next.text).toContain("restarted");
      expect(next.text).toContain("fresh False");
    } finally {
      await kernel.dispose();
    }
  });

  it("kill -9 of the sandbox's processes from inside mid-call is a clear crash; the next call works", async () => {
    const kernel = createKernel({ timeoutMs: 10_000 });
    try {
      const result = await kernel.execute("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)");
      expect(result.status).toBe("crashed");
      const next = await kernel.execute("print(40 + 2)");
      expect(next.text).toContain("restarted");
      expect(next.text).toContain("42");
    } finally {
      await kernel.dispose();
    }
  });
});

describe("held: hostile JSON-RPC over stdio", () => {
  it("answers invalid UTF-8, wrong types, unknown tools and unknown methods with errors and keeps serving", async () => {
    const config = join(scratch, "empty.json");
    writeFileSync(config, JSON.stringify({ mcpServers: {} }));
    const server = spawn(process.execPath, [cli, "serve", "--config", config, "--timeout", "20"], {
      stdio: ["pipe", "pipe", "ignore"],
    });
    const answers: Array<Record<string, unknown>> = [];
    let buffer = "";
    server.stdout.setEncoding("utf8");
    server.stdout.on("data", (chunk: string) => {
      buffer += chunk;
      let newline = buffer.indexOf("\n");
      while (newline >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        if (line.trim()) answers.push(JSON.parse(line) as Record<string, unknown>);
        newline = buffer.indexOf("\n");
      }
    });
    const send = (value: string | Buffer): void => {
      server.stdin.write(value);
      server.stdin.write("\n");
    };
    const waitFor = async (id: number): Promise<Record<string, unknown>> => {
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline) {
        const found = answers.find((answer) => answer.id === id);
        if (found) return found;
        await new Promise((done) => setTimeout(done, 50));
      }
      throw new Error(`no answer to request ${id}`);
    };
    try {
      send(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-06-18",
            capabilities: {},
            clientInfo: { name: "t", version: "1" },
          },
        }),
      );
      expect((await waitFor(1)).result).toBeDefined();
      send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
      send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]));
      send(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: { name: "programmatic_tool_call", arguments: { code: 42 } },
        }),
      );
      send(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 3,
          method: "tools/call",
          params: { name: "no_such_tool", arguments: {} },
        }),
      );
      send(JSON.stringify({ jsonrpc: "2.0", id: 4, method: "no/such/method", params: {} }));
      send(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 5,
          method: "tools/call",
          params: { name: "programmatic_tool_call", arguments: { code: "print('alive')" } },
        }),
      );
      const wrongType = await waitFor(2);
      expect(JSON.stringify(wrongType)).toMatch(/code|string|invalid/i);
      expect(JSON.stringify(await waitFor(3))).toMatch(/no_such_tool|unknown|not found/i);
      expect((await waitFor(4)).error).toMatchObject({ code: -32601 });
      expect(JSON.stringify(await waitFor(5))).toContain("alive");
      expect(answers.some((answer) => (answer.error as { code?: number } | undefined)?.code === -32700)).toBe(
        true,
      );
    } finally {
      server.kill("SIGTERM");
      await new Promise((done) => server.once("exit", done));
    }
  }, 90_000);
});

describe("held: 1,000 HTTP sessions", () => {
  let root: string;
  let previousTmp: string | undefined;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "progagent-held-http-"));
    chmodSync(root, 0o711);
    previousTmp = process.env.TMPDIR;
    process.env.TMPDIR = root;
  });
  afterAll(() => {
    if (previousTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previousTmp;
    rmSync(root, { recursive: true, force: true });
  });

  it("open and close without growth in descriptors, children or temp dirs", async () => {
    const factory = programmaticSessionFactory({
      config: { mcpServers: {} },
      timeoutMs: 20_000,
      toolName: "programmatic_tool_call",
    });
    const handle = await serveHttp(factory, { port: 0, maxSessions: 16 });
    const rpc = async (
      body: unknown,
      session?: string,
    ): Promise<{ status: number; session: string | null; text: string }> => {
      const response = await fetch(`${handle.url}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" } : {}),
        },
        body: JSON.stringify(body),
      });
      return {
        status: response.status,
        session: response.headers.get("mcp-session-id"),
        text: await response.text(),
      };
    };
    const oneSession = async (withCode: boolean): Promise<void> => {
      const opened = await rpc({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      });
      expect(opened.status).toBe(200);
      const session = opened.session!;
      await rpc({ jsonrpc: "2.0", method: "notifications/initialized" }, session);
      if (withCode) {
        const ran = await rpc(
          {
            jsonrpc: "2.0",
            id: 2,
            method: "tools/call",
            params: { name: "programmatic_tool_call", arguments: { code: "print(6*7)" } },
          },
          session,
        );
        expect(ran.text).toContain("42");
      }
      const closed = await fetch(`${handle.url}`, {
        method: "DELETE",
        headers: { "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" },
      });
      expect(closed.status).toBeLessThan(300);
    };
    try {
      for (let index = 0; index < 20; index += 1) await oneSession(index % 10 === 0);
      const count = (): { fds: number; children: number; temp: number } => ({
        fds: readdirSync("/proc/self/fd").length,
        children: descendantCount(),
        temp: readdirSync(root).length,
      });
      const before = count();
      for (let index = 0; index < 1_000; index += 1) await oneSession(index % 25 === 0);
      let after = count();
      for (
        let wait = 0;
        wait < 100 && (after.children > before.children || after.temp > before.temp);
        wait += 1
      ) {
        await new Promise((done) => setTimeout(done, 50));
        after = count();
      }
      expect(after.fds - before.fds).toBeLessThanOrEqual(4);
      expect(after.children).toBeLessThanOrEqual(before.children);
      expect(after.temp).toBeLessThanOrEqual(before.temp);
      expect(readFileSync("/proc/self/status", "utf8")).toMatch(/VmRSS/);
    } finally {
      await handle.close();
    }
  }, 900_000);
});
