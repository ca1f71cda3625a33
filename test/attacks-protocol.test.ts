import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  bindTool,
  connectUpstreams,
  createPtcSession,
  defineTool,
  type PtcSession,
} from "../src/runtime/index.js";
import { waitForProcessCount } from "./helpers/processes.js";

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const cli = join(projectRoot, "bin", "progagent.js");
const require = createRequire(import.meta.url);
const memoryServer = join(
  dirname(require.resolve("@modelcontextprotocol/server-memory/package.json")),
  "dist",
  "index.js",
);
const scratch = mkdtempSync(join(tmpdir(), "progagent-attacks-protocol-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function text(result: unknown): string {
  return ((result as { content: Array<{ text: string }> }).content[0]?.text ?? "").trim();
}

/** Host pids whose command line contains the marker. */
function pidsOf(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(marker)) pids.push(Number(entry));
    } catch {
      // ended while we looked
    }
  }
  return pids;
}

// Attacks on the kernel protocol from model code (attacks.md: M1, M2, R8). The program writes straight to
// the descriptors the bootstrap uses (1021/1022 in the process that runs it).

const echo = defineTool({
  name: "echo",
  description: "Returns its text.",
  kind: "read",
  inputSchema: z.object({ text: z.string() }),
  handler: ({ text }) => ({ text, length: text.length }),
});

describe("kernel protocol attacks", () => {
  let session: PtcSession;
  const warnings: string[] = [];
  beforeAll(() => {
    session = createPtcSession({
      endpoints: [bindTool(echo, {})],
      kernelOptions: { timeoutMs: 30_000, onWarning: (message) => warnings.push(message) },
    });
  });
  afterAll(async () => {
    await session.dispose();
  });

  it("M1: a forged done line ends nothing early and tool calls are counted on the host", async () => {
    const result = await session.run(
      [
        "import os",
        "import json",
        "def forge(message):",
        "    os.write(1022, (json.dumps(message) + '\\n').encode())",
        "for forged_id in range(1, 50):",
        "    forge({'t': 'done', 'id': forged_id, 'value': repr('forged'), 'error': None, 'tool_calls': 99})",
        // Supervisor lines need the supervisor's key, which the worker never sees.
        "    forge({'t': 'stopped'})",
        "    forge({'t': 'stopped', 'key': '0' * 32})",
        "    forge({'t': 'exited', 'code': 0, 'signal': None, 'key': None})",
        "tools.echo(text='one')",
        "tools.echo(text='two')",
        "print('the real end')",
      ].join("\n"),
    );
    expect(result.status).toBe("ok");
    expect(result.text).toBe("the real end");
    expect(result.toolCallCount).toBe(2);
    // The kernel is consistent afterwards: no stray reply ends the next execution.
    const next = await session.run(
      "import time\ntime.sleep(0.2)\nprint('next', tools.echo(text='x')['length'])",
    );
    expect(next.text).toBe("next 1");
    expect(next.toolCallCount).toBe(1);
  });

  it("M1: the supervisor's descriptors, memory and key are out of the program's reach", async () => {
    const result = await session.run(
      [
        "import os",
        "def attempt(path):",
        "    try:",
        "        os.close(os.open(path, os.O_RDONLY))",
        "        return 'opened'",
        "    except OSError as error:",
        "        return type(error).__name__",
        "print(attempt('/proc/1/fd/1022'), attempt('/proc/1/mem'), attempt('/proc/1/environ'))",
        "os.set_blocking(1021, False)",
        "try:",
        "    print('pending commands:', os.read(1021, 4096))",
        "except BlockingIOError:",
        "    print('pending commands: none')",
      ].join("\n"),
    );
    const [opened, pending] = result.text.split("\n");
    expect(opened).toBe("PermissionError PermissionError PermissionError");
    // The key line was read by the supervisor before the worker ever ran.
    expect(pending).toBe("pending commands: none");
  });

  it("M1: the supervisor ignores signals from the program (only the host's interrupt and continue count)", async () => {
    const result = await session.run(
      [
        "import os, signal, subprocess, time",
        "os.kill(1, signal.SIGINT)",
        "subprocess.run(['kill', '-INT', '1'])",
        "subprocess.run(['kill', '-CONT', '1'])",
        "time.sleep(0.3)",
        "print('not interrupted')",
      ].join("\n"),
    );
    expect(result.status).toBe("ok");
    expect(result.text).toBe("not interrupted");
  });

  it("M1: a process of the program that resumes the kernel after it stopped gets the kernel ended", async () => {
    warnings.length = 0;
    const result = await session.run(
      [
        "import json, os, signal, subprocess",
        "subprocess.Popen(['sh', '-c', 'while kill -CONT %d 2>/dev/null; do sleep 0.01; done' % os.getpid()])",
        "for forged_id in range(1, 50):",
        "    reply = {'t': 'done', 'id': forged_id, 'value': repr('forged'), 'error': None}",
        "    os.write(1022, (json.dumps(reply) + '\\n').encode())",
        "os.kill(os.getpid(), signal.SIGSTOP)",
        "while True:",
        "    pass",
      ].join("\n"),
    );
    // Either the stop was seen (the program ended its own execution with its own value) or only the resume
    // was: in both cases the program does not run on, because being resumed by the program is a violation.
    if (result.status === "ok") expect(result.text).toBe("'forged'");
    else expect(result.text).toContain("The kernel broke the protocol");
    for (let attempt = 0; attempt < 200 && !warnings.some((line) => line.includes("violation")); attempt += 1)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(warnings.join("\n")).toContain("resumed the kernel after an execution ended");
    const next = await session.run("print('fresh', 'forged_id' in globals())");
    expect(next.text).toContain("kernel was restarted");
    expect(next.text).toContain("fresh False");
  });

  it("M1: a resume is reported even when the worker stopped again before the supervisor saw it continue", () => {
    // CI under load: the worker ran its whole command and stopped before the supervisor reaped the continue,
    // waitpid showed only the stop, and the program's resume after it went unreported. The fixture forces that
    // order in the real supervisor (test/fixtures/supervisor_race.py).
    const run = spawnSync(
      "/usr/bin/python3",
      [
        join(projectRoot, "test", "fixtures", "supervisor_race.py"),
        join(projectRoot, "src", "kernel", "python", "bootstrap.py"),
      ],
      { encoding: "utf8", timeout: 30_000 },
    );
    expect(run.status, run.stderr).toBe(0);
    const kinds = run.stdout
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { t: string }).t);
    expect(kinds).toEqual(["ready", "done", "stopped", "violation"]);
  });

  it("R8: a 100 MB trailing expression is bounded before it leaves the kernel", async () => {
    const result = await session.run("big = 'x' * 100_000_000\nbig");
    expect(result.status).toBe("ok");
    expect(result.value!.length).toBeLessThan(1_100_000);
    expect(result.value).toContain("characters omitted in the kernel");
    expect(result.text.length).toBeLessThan(51_000);
    expect(result.truncated).toBe(true);
    const error = await session.run("raise ValueError('e' * 50_000_000)");
    expect(error.status).toBe("error");
    expect(error.error!.message.length).toBeLessThan(1_100_000);
    expect(error.text).toContain("ValueError: eeee");
    expect((await session.run("len(big)")).text).toBe("100000000");
  });

  it("R8: tool arguments over the message limit raise ToolError naming the limit", async () => {
    const result = await session.run(
      "try:\n    tools.echo(text='a' * 40_000_000)\nexcept ToolError as error:\n    print(str(error)[:200])",
    );
    expect(result.text).toMatch(
      /echo: the arguments are \d+ bytes as JSON; one tool call can carry at most 32 MiB/,
    );
  });

  it("R8: an unterminated 100 MB protocol line fails that execution only", async () => {
    const result = await session.run(
      [
        "import os",
        "state = 'lost'",
        "chunk = b'y' * (1 << 20)",
        "for _ in range(100):",
        "    os.write(1022, chunk)",
        "print('not reached')",
      ].join("\n"),
    );
    expect(result.status).toBe("crashed");
    expect(result.text).toContain("The kernel broke the protocol");
    expect(result.text).toContain("longer than 32 MiB");
    const next = await session.run("print('serving', 'state' in globals())");
    expect(next.text).toContain("serving False");
    expect(next.status).toBe("ok");
  });

  it("M2: kernel warnings are escaped and bounded before they are logged", async () => {
    warnings.length = 0;
    const result = await session.run(
      [
        "import os, json",
        "message = '\\x1b[31mRED\\x1b[0m\\n[progagent] forged log line\\r\\x07' + 'w' * 100_000",
        "os.write(1022, (json.dumps({'t': 'warning', 'message': message}) + '\\n').encode())",
        "for index in range(10_000):",
        '    os.write(1022, b\'{"t":"warning","message":"flood"}\\n\')',
        "print('warned')",
      ].join("\n"),
    );
    expect(result.text).toBe("warned");
    // A flood of warnings is not a flood of log lines.
    expect(warnings.length).toBeLessThanOrEqual(25);
    expect(warnings.at(-1)).toContain("the rest are not logged");
    const [warning] = warnings;
    expect(warning).not.toMatch(/[\u0000-\u001f\u007f]/);
    expect(warning).toContain("\\u001b[31mRED");
    expect(warning).toContain("\\u000a[progagent] forged log line");
    expect(warning!.length).toBeLessThan(3_000);
  });
});

describe("transport and upstream attacks", () => {
  it("R7: an 11 MB request over stdio gets a JSON-RPC error naming the limit and the server keeps serving", async () => {
    const config = join(scratch, "empty.json");
    writeFileSync(config, JSON.stringify({ mcpServers: {} }));
    const client = new Client({ name: "attacker", version: "1" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cli, "serve", "--config", config, "--timeout", "30"],
        stderr: "ignore",
      }),
    );
    try {
      const huge = `print('never')\n#${"x".repeat(11 * 1024 * 1024)}`;
      await expect(
        client.callTool({ name: "programmatic_tool_call", arguments: { code: huge } }),
      ).rejects.toThrow(
        /Request too large: \d+ bytes; one MCP message over stdio is limited to 8388608 bytes \(8 MiB\)/,
      );
      const large = await client.callTool({
        name: "programmatic_tool_call",
        arguments: { code: `print('never')\n#${"x".repeat(2 * 1024 * 1024)}` },
      });
      expect(large.isError).toBe(true);
      expect(text(large)).toMatch(
        /The code is \d+ bytes; programmatic_tool_call runs at most 1 MiB of code per call/,
      );
      const after = await client.callTool({
        name: "programmatic_tool_call",
        arguments: { code: "print('still serving')" },
      });
      expect(text(after)).toBe("still serving");
    } finally {
      await client.close();
    }
  });

  it("R11: an upstream that closes on a 30 MB argument or is killed mid-session is restarted; the failed call says what happened", async () => {
    const marker = `--r11-marker-${process.pid}`;
    const upstream = await connectUpstreams(
      {
        mcpServers: {
          memory: {
            command: process.execPath,
            args: [memoryServer, marker],
            env: { MEMORY_FILE_PATH: join(scratch, "r11-memory.jsonl") },
          },
        },
      },
      { restartBackoffMs: 100 },
    );
    // Deadlines far above the server's own time to fail: on a loaded machine parsing 30 MB took over 30 s, and
    // the call then ended on our deadline instead of the server's exit this test is about.
    const session = createPtcSession({
      endpoints: upstream.endpoints,
      toolTimeoutMs: 240_000,
      kernelOptions: { timeoutMs: 280_000 },
    });
    try {
      const first = await session.run(
        [
          "tools.create_entities(entities=[{'name': 'kept', 'entityType': 'city', 'observations': []}])",
          "try:",
          "    tools.create_entities(entities=[{'name': 'x' * 30_000_000, 'entityType': 'city', 'observations': []}])",
          "except ToolError as error:",
          "    print(str(error)[:400])",
          "print([e['name'] for e in tools.read_graph()['entities']])",
        ].join("\n"),
      );
      expect(first.text).toContain("the server closed the connection during the call (its process exited)");
      expect(first.text).toContain("restart 1 of 3");
      expect(first.text).toContain("['kept']");

      const [before] = pidsOf(marker);
      expect(before).toBeDefined();
      process.kill(before!, "SIGKILL");
      expect(await waitForProcessCount(marker, 0)).toBe(0);
      const later = await session.run(
        [
          "errors = []",
          "for attempt in range(5):",
          "    try:",
          "        print([e['name'] for e in tools.read_graph()['entities']])",
          "        break",
          "    except ToolError as error:",
          "        errors.append(str(error))",
          "print(errors)",
        ].join("\n"),
      );
      expect(later.text.split("\n")[0]).toBe("['kept']");
      const [after] = pidsOf(marker);
      expect(after).toBeDefined();
      expect(after).not.toBe(before);
    } finally {
      await session.dispose();
      await upstream.dispose();
    }
    expect(await waitForProcessCount(marker, 0)).toBe(0);
  });

  it("R11: an upstream that exits mid-call is restarted at most 3 times, and each failure says so", async () => {
    const upstream = await connectUpstreams(
      {
        mcpServers: {
          exiting: {
            command: process.execPath,
            args: ["--import", "tsx", join(projectRoot, "test/fixtures/exiting-mcp-server.ts")],
          },
        },
      },
      { restartBackoffMs: 20 },
    );
    const session = createPtcSession({ endpoints: upstream.endpoints, kernelOptions: { timeoutMs: 60_000 } });
    try {
      const result = await session.run(
        [
          "pids, failures = [tools.pid()], []",
          "for attempt in range(4):",
          "    try:",
          "        tools.exit()",
          "    except ToolError as error:",
          "        failures.append(str(error))",
          "    try:",
          "        pids.append(tools.pid())",
          "    except ToolError as error:",
          "        failures.append(str(error))",
          "print(len(set(pids)), len(pids))",
          "print('\\n'.join(failures))",
        ].join("\n"),
      );
      const [counts, ...failures] = result.text.split("\n");
      // The first server and three restarts, each serving a call; the fourth exit ends it for the session.
      expect(counts).toBe("4 4");
      expect(failures[0]).toContain("the server closed the connection during the call (its process exited)");
      expect(failures[0]).toContain("fixture: exiting in the middle of a call");
      expect(failures[0]).toContain("restart 1 of 3");
      expect(failures[2]).toContain("restart 3 of 3");
      expect(failures[3]).toContain("restarted 3 times already and is not restarted again");
      expect(failures[4]).toContain("it is not restarted again in this session");
      expect(failures).toHaveLength(5);
    } finally {
      await session.dispose();
      await upstream.dispose();
    }
  });
});
