import { mkdtempSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKernel, type Kernel } from "../src/kernel/index.js";

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

describe("sandbox", () => {
  let kernel: Kernel;
  let listener: Server;
  let port = 0;
  const secretPath = join(dirname(projectRoot), `progagent-test-secret-${process.pid}.txt`);
  const hostTmp = mkdtempSync(join(tmpdir(), "sandbox-probe-"));

  beforeAll(async () => {
    writeFileSync(secretPath, "TOP-SECRET-FILE");
    process.env.PROGAGENT_TEST_SECRET = "TOP-SECRET-ENV";
    listener = createServer((socket) => socket.end("hello"));
    await new Promise<void>((done) => listener.listen(0, "127.0.0.1", () => done()));
    port = (listener.address() as { port: number }).port;
    kernel = createKernel({ timeoutMs: 20_000 });
    await kernel.start();
  });

  afterAll(async () => {
    await kernel.dispose();
    listener.close();
    rmSync(secretPath, { force: true });
    rmSync(hostTmp, { recursive: true, force: true });
    delete process.env.PROGAGENT_TEST_SECRET;
  });

  it("has no network, not even the host's loopback", async () => {
    const result = await kernel.execute(
      `import socket\ntry:\n    socket.create_connection(("127.0.0.1", ${port}), timeout=2)\n    print("connected")\nexcept OSError as error:\n    print("blocked", type(error).__name__)\ntry:\n    socket.getaddrinfo("registry.npmjs.org", 443)\n    print("resolved")\nexcept OSError:\n    print("no dns")`,
    );
    expect(result.text).toContain("blocked");
    expect(result.text).toContain("no dns");
    expect(result.text).not.toContain("connected");
  });

  it("cannot see host files outside the allowlist or host environment variables", async () => {
    const result = await kernel.execute(
      [
        "import os",
        `print(os.path.exists(${JSON.stringify(secretPath)}), os.path.exists(${JSON.stringify(projectRoot)}))`,
        "print(os.path.exists('/root'), os.path.exists('/home'), os.path.exists('/etc/passwd'))",
        "print('PROGAGENT_TEST_SECRET' in os.environ, sorted(os.environ))",
        "found = []",
        "for top in ('/', '/tmp', '/workspace', '/run', '/etc', '/usr/local'):",
        "    for root, dirs, files in os.walk(top):",
        "        if root == '/':",
        "            dirs[:] = [d for d in dirs if d not in ('usr', 'proc', 'sys', 'dev', 'lib', 'lib64', 'bin', 'sbin')]",
        "        for name in files:",
        "            path = os.path.join(root, name)",
        "            try:",
        "                if os.path.getsize(path) < 1_000_000 and b'TOP-SECRET' in open(path, 'rb').read():",
        "                    found.append(path)",
        "            except OSError:",
        "                pass",
        // The protocol supervisor (PID 1) is not dumpable: its environ is unreadable, which is a stronger "no leak".
        "def environ(pid):",
        "    try:",
        "        return open(f'/proc/{pid}/environ', 'rb').read()",
        "    except PermissionError:",
        "        return b''",
        "env_leak = any(b'TOP-SECRET' in environ(p) for p in os.listdir('/proc') if p.isdigit())",
        "print('found', found, env_leak)",
      ].join("\n"),
    );
    expect(result.status).toBe("ok");
    expect(result.text).toContain("False False\nFalse False False\nFalse");
    expect(result.text).toContain("found [] False");
    expect(result.text).not.toContain("TOP-SECRET-ENV");
  });

  it("writes only to the workspace (cwd and HOME) and a private /tmp", async () => {
    const result = await kernel.execute(
      [
        "import os",
        "print(os.getcwd(), os.environ['HOME'])",
        "open('result.txt', 'w').write('ok')",
        "open('/tmp/private.txt', 'w').write('tmp')",
        "for path in ('/usr/evil.txt', '/etc/evil.txt', '/evil.txt'):",
        "    try:",
        "        open(path, 'w').write('x')",
        "        print('wrote', path)",
        "    except OSError as error:",
        "        print('refused', path)",
      ].join("\n"),
    );
    expect(result.text).toContain("/workspace /workspace");
    expect(result.text).not.toContain("wrote");
    expect(result.text.match(/refused/g)).toHaveLength(3);
    expect(existsSync(join(kernel.workspaceDir, "result.txt"))).toBe(true);
    expect(existsSync("/tmp/private.txt")).toBe(false);
  });

  it("contains a fork bomb and the host serves on", async () => {
    const result = await kernel.execute(
      [
        "import os, signal, time",
        "children = []",
        "try:",
        "    for _ in range(5000):",
        "        pid = os.fork()",
        "        if pid == 0:",
        "            time.sleep(30)",
        "            os._exit(0)",
        "        children.append(pid)",
        "except OSError as error:",
        "    print('stopped by', type(error).__name__)",
        "print('forked', len(children))",
        "for pid in children:",
        "    os.kill(pid, signal.SIGKILL)",
        "for pid in children:",
        "    os.waitpid(pid, 0)",
      ].join("\n"),
    );
    expect(result.text).toContain("stopped by");
    const forked = Number(/forked (\d+)/.exec(result.text)?.[1]);
    expect(forked).toBeLessThan(256);
    const other = createKernel();
    expect((await other.execute("print('host fine')")).text).toBe("host fine");
    await other.dispose();
  });

  it("contains a memory bomb with MemoryError and keeps the kernel", async () => {
    const result = await kernel.execute("block = bytearray(3 * 1024 ** 3)");
    expect(result.text).toContain("MemoryError");
    expect((await kernel.execute("print('alive')")).text).toBe("alive");
  });
});

describe("sandbox refusal", () => {
  it("refuses to run code without bubblewrap and says how to install it", async () => {
    const { assertSandboxAvailable } = await import("../src/kernel/sandbox.js");
    expect(() => assertSandboxAvailable("/nonexistent/bwrap")).toThrow(
      /apt-get install -y bubblewrap.*--unsafe-no-sandbox/s,
    );
    const kernel = createKernel({ bwrapPath: "/nonexistent/bwrap" });
    await expect(kernel.execute("print('should not run')")).rejects.toMatchObject({
      code: "SANDBOX_UNAVAILABLE",
    });
    await kernel.dispose();
  });

  it("runs without a sandbox only when asked, and says so loudly", async () => {
    const warnings: string[] = [];
    const kernel = createKernel({ unsafeNoSandbox: true, onWarning: (message) => warnings.push(message) });
    expect(warnings.join("\n")).toMatch(/UNSAFE.*WITHOUT a sandbox/);
    expect((await kernel.execute("print('dev mode')")).text).toBe("dev mode");
    await kernel.dispose();
  });
});
