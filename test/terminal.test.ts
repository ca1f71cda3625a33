import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEpisode, createEpisodeDriver, type HarnessMode } from "../src/envs/index.js";
import { createOpenAiClient, renderSystemPrompt, runAgentEpisode } from "../src/harness/index.js";
import { loadSuite } from "../src/suite/index.js";
import { tinyTask } from "./fixtures/tiny-domain.js";
import {
  assistantToolCall,
  startScriptedOpenAiServer,
  type ScriptedOpenAiServer,
} from "./helpers/scripted-openai-server.js";

const cacheDir = mkdtempSync(join(tmpdir(), "progagent-terminal-test-"));
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));
const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** A workspace with nested folders, unicode names, a large file, a FIFO and links in and out, made by model code. */
const SETUP = `
import os
os.makedirs("deep/er/est", exist_ok=True)
open("deep/er/est/leaf.txt", "w").write("leaf\\n")
os.makedirs("données/été", exist_ok=True)
open("données/été/résumé ✓.txt", "w").write("ça marche\\n")
open("big.txt", "w").write("".join("line %06d\\n" % i for i in range(10000)))
os.mkfifo("pipe")
os.symlink("/etc/passwd", "passwd")
os.symlink("deep/er", "inner")
os.chdir("/tmp")
`;

async function driverFor(mode: HarnessMode, options: { timeoutMs?: number } = {}) {
  const episode = await createEpisode(tinyTask, "v0", 0, { cacheDir, withKernel: true });
  const setup = await episode.execute(SETUP);
  expect(setup.status, setup.text).toBe("ok");
  return createEpisodeDriver(episode, { mode, terminal: true, ...options });
}

describe("terminal", () => {
  it("runs ls, find and cat inside the sandbox, in every mode, wherever the program chdir'ed", async () => {
    for (const mode of ["dtc", "ptc", "hybrid"] as const) {
      await using driver = await driverFor(mode);
      expect(driver.functionTools().map((tool) => tool.function.name)).toContain("terminal");
      const ls = await driver.call("terminal", { command: "ls -R deep" });
      expect(ls.kind).toBe("terminal");
      expect(ls.text).toBe("deep:\ner\n\ndeep/er:\nest\n\ndeep/er/est:\nleaf.txt");
      const find = await driver.call("terminal", { command: "find . -name '*.txt' -path '*é*'" });
      expect(find.text).toBe("./données/été/résumé ✓.txt");
      const cat = await driver.call("terminal", '{"command": "cat -n \\"données/été/résumé ✓.txt\\""}');
      expect(cat.text).toBe("     1\tça marche");
      const inner = await driver.call("terminal", { command: "cat /workspace/inner/est/leaf.txt" });
      expect(inner.text).toBe("leaf");
      const listing = await driver.call("terminal", { command: "ls" });
      expect(listing.text.split("\n")).toEqual(
        ["big.txt", "données", "deep", "inner", "memo.md", "notes", "passwd", "pipe"].sort(),
      );
      expect(driver.stats.terminalCommands).toBe(5);
    }
  });

  it("composes output like a code execution: stderr block, exit code, middle truncation", async () => {
    await using driver = await driverFor("ptc");
    const missing = await driver.call("terminal", { command: "cat nothing-here" });
    expect(missing.result.isError).toBe(true);
    expect(missing.text).toBe(
      "[stderr]:\ncat: nothing-here: No such file or directory\n[cat exited with code 1]",
    );
    const big = await driver.call("terminal", { command: "cat big.txt" });
    expect(big.terminal?.result?.truncated).toBe(true);
    expect(big.text.length).toBeLessThan(50_500);
    expect(big.text.startsWith("line 000000\nline 000001\n")).toBe(true);
    expect(big.text.endsWith("line 009999")).toBe(true);
    expect(big.text).toMatch(/\[\d+ characters omitted: output truncated to 50000 characters/);
  });

  it("refuses what is not allowed with a message naming what is, without running anything", async () => {
    await using driver = await driverFor("dtc");
    const cases: Array<[string, string]> = [
      ["cat memo.md | head", "refused a pipe '|'"],
      ["python3 -c 'print(1)'", "refused the program 'python3'"],
      ["cat ../../etc/passwd", "refused '..' in the path"],
      ["cat /etc/passwd", "refused the absolute path '/etc/passwd'"],
      ["cat passwd", "a symbolic link that points out of the workspace (to /etc/passwd)"],
      ["find . -delete", "refused find's '-delete' (it deletes files)"],
    ];
    for (const [command, message] of cases) {
      const refused = await driver.call("terminal", { command });
      expect(refused.result.isError, command).toBe(true);
      expect(refused.text, command).toContain(message);
      expect(refused.text, command).toContain("terminal runs only ls, find and cat");
      expect(refused.terminal?.argv, command).toBeNull();
    }
    expect((await driver.call("terminal", {})).text).toContain('expects {"command": string}');
    expect(readFileSync(join(driver.episode.workspaceDir, "memo.md"), "utf8")).toContain("Discontinued");
  });

  it("stops a command at the deadline and the kernel keeps its state", async () => {
    await using driver = await driverFor("ptc", { timeoutMs: 1_000 });
    await driver.call("programmatic_tool_call", { code: "kept = 41" });
    const blocked = await driver.call("terminal", { command: "cat pipe" });
    expect(blocked.terminal?.result?.status).toBe("timeout");
    expect(blocked.text).toBe("[cat timed out after 1 s and was stopped.]");
    const after = await driver.call("programmatic_tool_call", { code: "kept + 1" });
    expect(after.text).toBe("42");
  });
});

describe("claim_done{action}", () => {
  it("gives the same verdict as claim_done{answer} and records it as the answer", async () => {
    const verdicts = [];
    for (const args of [{ answer: "12.5" }, { action: "12.5" }, { action: "12.5", answer: "12.5" }]) {
      await using driver = createEpisodeDriver(await createEpisode(tinyTask, "v0", 0, { cacheDir }), {
        mode: "dtc",
      });
      await driver.call("deactivate_item", { item_id: 3 });
      const done = await driver.call("claim_done", args);
      expect(done.answer).toBe("12.5");
      verdicts.push(done.verdict);
    }
    expect(verdicts[1]).toEqual(verdicts[0]);
    expect(verdicts[2]).toEqual(verdicts[0]);
    await using driver = createEpisodeDriver(
      await createEpisode(tinyTask, "v0", 0, { cacheDir, withKernel: true }),
      { mode: "dtc", interface: "paper" },
    );
    const neither = await driver.call("claim_done", { result: "x" });
    expect(neither.kind).toBe("invalid_arguments");
    expect(neither.text).toContain('expects {"action": string}');
    const different = await driver.call("claim_done", { action: "1", answer: "2" });
    expect(different.text).toContain("different");
    expect(driver.endReason).toBeUndefined();
  });
});

describe("the paper parity profile", () => {
  const fixture = JSON.parse(
    readFileSync(join(projectRoot, "test", "fixtures", "paper-interface.json"), "utf8"),
  ) as {
    metaTools: Record<string, string[]>;
    toolsByMode: Record<HarnessMode, string[]>;
    terminalPrograms: string[];
    executionTimeoutSeconds: { training: number; evaluation: number };
    systemPrompt: Record<HarnessMode, { contains: string[]; excludes: string[] }>;
  };

  it("offers the paper's meta-tools, argument names and timeouts, and documents them in the system prompt", async () => {
    const environment = ["list_items", "deactivate_item", "list_files", "read_file", "search_files"];
    for (const mode of ["dtc", "ptc", "hybrid"] as const) {
      const episode = await createEpisode(tinyTask, "v0", 0, { cacheDir, withKernel: true });
      await using driver = createEpisodeDriver(episode, { mode, interface: "paper" });
      const tools = driver.functionTools();
      expect(
        tools.map((tool) => tool.function.name),
        mode,
      ).toEqual(
        fixture.toolsByMode[mode].flatMap((name) => (name === "<environment>" ? environment : [name])),
      );
      for (const tool of tools) {
        const expected = fixture.metaTools[tool.function.name];
        if (!expected) continue;
        expect(Object.keys(tool.function.parameters.properties ?? {}), tool.function.name).toEqual(expected);
        expect(tool.function.parameters.required, tool.function.name).toEqual(expected);
      }
      const terminal = tools.find((tool) => tool.function.name === "terminal")!;
      for (const program of fixture.terminalPrograms)
        expect(terminal.function.description).toContain(program);
      const prompt = renderSystemPrompt(mode, episode.endpoints, fixture.executionTimeoutSeconds.evaluation, {
        profile: driver.profile,
        terminal: driver.terminal,
      });
      for (const text of fixture.systemPrompt[mode].contains)
        expect(prompt, `${mode}: ${text}`).toContain(text);
      for (const text of fixture.systemPrompt[mode].excludes)
        expect(prompt, `${mode}: ${text}`).not.toContain(text);
      expect(driver.profile.executionTimeoutMs).toEqual({
        training: fixture.executionTimeoutSeconds.training * 1000,
        evaluation: fixture.executionTimeoutSeconds.evaluation * 1000,
      });
    }
  });
});

describe("terminal and the profile in the harness", () => {
  let server: ScriptedOpenAiServer;
  beforeAll(async () => {
    server = await startScriptedOpenAiServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it("counts terminal calls like any tool call, records action as the answer, and records the profile", async () => {
    const client = createOpenAiClient({
      baseUrl: server.baseUrl,
      model: "scripted",
      requestTimeoutMs: 5_000,
    });
    server.push(
      assistantToolCall("terminal", { command: "ls notes" }),
      assistantToolCall("terminal", { command: "cat memo.md > copy" }),
      assistantToolCall("claim_done", { action: "0" }),
    );
    const trajectory = await runAgentEpisode({
      task: tinyTask,
      scale: "v0",
      seed: 0,
      runId: "test",
      sample: 0,
      mode: "ptc",
      client,
      interface: "paper",
      cacheDir,
    });
    expect(trajectory.endReason).toBe("claim_done");
    expect(trajectory.answer).toBe("0");
    expect(trajectory.interface).toBe("paper");
    expect(trajectory.terminal).toBe(true);
    expect(trajectory.toolCalls.map((call) => [call.name, call.args, call.isError])).toEqual([
      ["terminal", { command: "ls notes" }, false],
      ["terminal", { command: "cat memo.md > copy" }, true],
    ]);
    const toolMessages = trajectory.messages.filter((message) => message.role === "tool");
    expect(toolMessages[0]?.content).toBe("note-0.txt\nnote-1.txt");
    const request = server.requests[0] as { tools: Array<{ function: { name: string } }> };
    expect(request.tools.map((tool) => tool.function.name)).toEqual([
      "programmatic_tool_call",
      "terminal",
      "claim_done",
    ]);
  });
});

describe("progagent env serve --terminal", () => {
  it("offers terminal beside programmatic_tool_call and claim_done, and runs it", async () => {
    const task = (await loadSuite("retail.*"))[0]!;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        join(projectRoot, "bin", "progagent.js"),
        "env",
        "serve",
        "--task",
        task.id,
        "--mode",
        "ptc",
        "--terminal",
      ],
      stderr: "ignore",
    });
    const client = new Client({ name: "test", version: "0" });
    await client.connect(transport);
    try {
      const listed = await client.listTools();
      expect(listed.tools.map((tool) => tool.name)).toEqual([
        "programmatic_tool_call",
        "terminal",
        "claim_done",
      ]);
      const result = (await client.callTool({
        name: "terminal",
        arguments: { command: "find . -maxdepth 1" },
      })) as {
        content: Array<{ text: string }>;
      };
      expect(result.content[0]?.text.split("\n")[0]).toBe(".");
      expect(client.getInstructions()).toContain(task.instruction);
    } finally {
      await client.close();
    }
  });
});
