import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  createEpisode,
  createEpisodeDriver,
  episodeMcpSession,
  type Episode,
  type HarnessMode,
} from "../src/envs/index.js";
import { tinyTask } from "./fixtures/tiny-domain.js";

const cacheDir = mkdtempSync(join(tmpdir(), "progagent-driver-test-"));
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

const episodeFor = (mode: HarnessMode): Promise<Episode> =>
  createEpisode(tinyTask, "v0", 0, { cacheDir, withKernel: mode !== "dtc" });

/** An MCP client connected in memory to `env serve`'s session for one episode. */
async function connect(episode: Episode, mode: HarnessMode, options: { timeoutMs?: number } = {}) {
  const session = episodeMcpSession(episode, mode, options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await session.server.connect(serverSide);
  const client = new Client({ name: "test", version: "0" });
  await client.connect(clientSide);
  return {
    client,
    async close() {
      await client.close();
      await session.dispose();
    },
  };
}

type TextResult = { content: Array<{ type: string; text: string }>; isError?: boolean };

describe("the episode driver", () => {
  it("offers each mode's tools, environment tools only where they are callable", async () => {
    const names: Record<string, string[]> = {};
    for (const mode of ["dtc", "ptc", "hybrid"] as const) {
      await using driver = createEpisodeDriver(await episodeFor(mode), { mode });
      names[mode] = driver.functionTools().map((tool) => tool.function.name);
    }
    const environment = ["list_items", "deactivate_item", "list_files", "read_file", "search_files"];
    expect(names.dtc).toEqual([...environment, "claim_done"]);
    expect(names.ptc).toEqual(["programmatic_tool_call", "claim_done"]);
    expect(names.hybrid).toEqual([...environment, "programmatic_tool_call", "claim_done"]);
  });

  it("documents the runtime in programmatic_tool_call unless the caller's system prompt does", async () => {
    await using inline = createEpisodeDriver(await episodeFor("ptc"), { mode: "ptc", timeoutMs: 7_000 });
    await using prompted = createEpisodeDriver(await episodeFor("ptc"), {
      mode: "ptc",
      ptcDocumentation: "system_prompt",
    });
    const ptc = (driver: typeof inline) =>
      driver.tools.find((tool) => tool.name === "programmatic_tool_call")!;
    expect(ptc(inline).description).toContain("def list_items(page: int = 1, per_page: int = 20) -> dict");
    expect(ptc(inline).description).toContain("limited to 7 s");
    expect(ptc(prompted).description).toContain("see the system prompt");
  });

  it("takes arguments as an object or as JSON text, and ends the episode with claim_done", async () => {
    await using driver = createEpisodeDriver(await episodeFor("dtc"), { mode: "dtc" });
    const asText = await driver.call("list_items", '{"per_page": 2}');
    const asObject = await driver.call("list_items", { per_page: 2 });
    expect(asText.kind).toBe("environment");
    expect(asText.text).toBe(asObject.text);
    expect(asText.result.structuredContent).toMatchObject({ per_page: 2 });
    const malformed = await driver.call("list_items", "{nope");
    expect(malformed.kind).toBe("invalid_arguments");
    expect(malformed.text).toContain("not a valid JSON object");
    const unknown = await driver.call("programmatic_tool_call", { code: "print(1)" });
    expect(unknown.text).toBe(
      "Error: unknown tool 'programmatic_tool_call'. Available tools: list_items, deactivate_item, list_files, read_file, search_files, claim_done",
    );
    const done = await driver.call("claim_done", { answer: "12.5" });
    expect(done).toMatchObject({ kind: "claim_done", endReason: "claim_done", answer: "12.5" });
    expect(done.verdict?.reward).toBe(0);
    expect(driver.endReason).toBe("claim_done");
    const after = await driver.call("list_items", {});
    expect(after.kind).toBe("episode_over");
    expect(after.result.isError).toBe(true);
    expect(driver.stats.toolCalls).toBe(5);
  });

  it("refuses direct calls in PTC mode with the code that would work, and counts them as PTC errors", async () => {
    await using driver = createEpisodeDriver(await episodeFor("ptc"), { mode: "ptc" });
    const refused = await driver.call("list_items", '{"page": 2}');
    expect(refused.kind).toBe("refused_direct_call");
    expect(refused.text).toContain('result = tools["list_items"](page=2)');
    const code = await driver.call("programmatic_tool_call", {
      code: 'print(tools["list_items"](page=2)["page"])',
    });
    expect(code.text).toBe("2");
    expect(code.execution?.result.toolCallCount).toBe(1);
    const failing = await driver.call("programmatic_tool_call", { code: "1/0" });
    expect(failing.runtimeError).toBe(true);
    const missing = await driver.call("programmatic_tool_call", { source: "print(1)" });
    expect(missing.text).toContain('expects {"code": string}');
    expect(driver.stats).toEqual({
      toolCalls: 4,
      codeBlocks: 2,
      runtimeErrors: 3,
      refusedDirectCalls: 1,
      terminalCommands: 0,
    });
  });

  it("ends the episode at the tool-call limit without running the call", async () => {
    await using driver = createEpisodeDriver(await episodeFor("dtc"), { mode: "dtc", maxToolCalls: 1 });
    await driver.call("deactivate_item", { item_id: 3 });
    const limited = await driver.call("deactivate_item", { item_id: 7 });
    expect(limited).toMatchObject({ kind: "tool_call_limit", endReason: "max_tool_calls" });
    expect(driver.episode.calls.map((call) => call.args)).toEqual([{ item_id: 3 }]);
    expect((await driver.call("claim_done", { answer: "1" })).kind).toBe("episode_over");
  });

  it("serves env serve's MCP session through the same dispatch (PTC refusal included)", async () => {
    const served = await connect(await episodeFor("ptc"), "ptc");
    try {
      const listed = await served.client.listTools();
      expect(listed.tools.map((tool) => tool.name)).toEqual(["programmatic_tool_call", "claim_done"]);
      const refused = (await served.client.callTool({
        name: "list_items",
        arguments: { page: 2 },
      })) as TextResult;
      expect(refused.isError).toBe(true);
      expect(refused.content[0]?.text).toContain('tools["list_items"](page=2)');
      const ran = (await served.client.callTool({
        name: "programmatic_tool_call",
        arguments: { code: "print(6 * 7)" },
      })) as TextResult;
      expect(ran.content[0]?.text).toBe("42");
    } finally {
      await served.close();
    }
  });
});

describe("claim_done while code is running (M3)", () => {
  it("interrupts the running call cleanly, answers it, and only then ends the episode", async () => {
    const episode = await episodeFor("ptc");
    const served = await connect(episode, "ptc");
    try {
      const order: string[] = [];
      const running = served.client
        .callTool({
          name: "programmatic_tool_call",
          arguments: {
            // 'started' is written after the print: the test interrupts as soon as it sees the file
            code: "import time\nprint('before sleep', flush=True)\nopen('started', 'w').close()\ntime.sleep(30)",
          },
        })
        .then((result) => {
          order.push("code");
          return result as TextResult;
        });
      const deadline = Date.now() + 20_000;
      while (!existsSync(join(episode.workspaceDir, "started")) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      const done = (await served.client.callTool({
        name: "claim_done",
        arguments: { answer: "0" },
      })) as TextResult;
      order.push("claim_done");
      const code = await running;
      expect(order).toEqual(["code", "claim_done"]);
      expect(done.content[0]?.text).toContain("Reward: 0");
      expect(code.content[0]?.text).toContain("before sleep");
      expect(code.content[0]?.text).toContain("interrupted");
      expect(code.content[0]?.text).toContain("The episode ended (claim_done) while this call was running");
      expect(code.content[0]?.text).not.toMatch(/EBADF|Error: /);
      const later = (await served.client.callTool({
        name: "programmatic_tool_call",
        arguments: { code: "print(1)" },
      })) as TextResult;
      expect(later.content[0]?.text).toBe("The episode is over: claim_done was already called.");
    } finally {
      await served.close();
    }
  });

  it("never starts code queued behind the interrupted call, and disposing mid-call leaves no error", async () => {
    const episode = await episodeFor("ptc");
    await using driver = createEpisodeDriver(episode, { mode: "ptc" });
    const first = driver.call("programmatic_tool_call", {
      code: "import time\nopen('started', 'w').close()\ntime.sleep(30)",
    });
    const queued = driver.call("programmatic_tool_call", { code: "open('queued-ran', 'w').close()" });
    const deadline = Date.now() + 20_000;
    while (!existsSync(join(episode.workspaceDir, "started")) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const done = await driver.call("claim_done", { answer: "0" });
    expect(done.kind).toBe("claim_done");
    expect((await first).execution?.result.status).toBe("timeout");
    expect((await queued).text).toContain("Not run: the episode ended");
    expect(existsSync(join(episode.workspaceDir, "queued-ran"))).toBe(false);

    const other = await episodeFor("ptc");
    const running = other.execute("import time\nopen('started', 'w').close()\ntime.sleep(30)");
    while (!existsSync(join(other.workspaceDir, "started")) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    await other.dispose();
    expect((await running).status).toBe("timeout");
  });
});

describe("what an MCP client and the model see of the episode", () => {
  it("env serve sends the task's instruction as MCP instructions and as the prompt 'task'", async () => {
    const served = await connect(await episodeFor("dtc"), "dtc");
    try {
      const instructions = served.client.getInstructions() ?? "";
      expect(instructions).toContain(tinyTask.instruction);
      expect(instructions).toContain("call claim_done once with your final answer");
      const prompts = await served.client.listPrompts();
      expect(prompts.prompts.map((prompt) => prompt.name)).toEqual(["task"]);
      const prompt = await served.client.getPrompt({ name: "task" });
      expect(prompt.messages[0]).toMatchObject({
        role: "user",
        content: { type: "text", text: instructions },
      });
    } finally {
      await served.close();
    }
  });

  it("claim_done's reply names the checks without their expected values unless the verdict is revealed", async () => {
    const replies: Record<string, string> = {};
    for (const reveal of [false, true]) {
      await using driver = createEpisodeDriver(await episodeFor("dtc"), {
        mode: "dtc",
        revealVerdict: reveal,
      });
      const done = await driver.call("claim_done", { answer: "12.5" });
      replies[String(reveal)] = done.text;
      expect(done.verdict?.checks.find((item) => item.id === "deactivated")?.message).toBe(
        "expected 3,7,11, found ",
      );
    }
    expect(replies.false).toContain("Reward: 0");
    expect(replies.false).toContain("- [FAIL] deactivated\n");
    expect(replies.false).toContain("- [FAIL] total");
    expect(replies.false).not.toContain("expected");
    expect(replies.true).toContain("- [FAIL] deactivated: expected 3,7,11, found");
  });
});
