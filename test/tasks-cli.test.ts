import { execFile } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { loadSuite } from "../src/suite/index.js";

const cli = join(resolve(dirname(fileURLToPath(import.meta.url)), ".."), "bin", "progagent.js");
type Ran = { code: number; stdout: string; stderr: string };
const progagent = (...args: string[]): Promise<Ran> =>
  promisify(execFile)(process.execPath, [cli, ...args], { timeout: 120_000 })
    .then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }))
    .catch((error: Ran) => error);

describe("what a user can see of a task", () => {
  it("`tasks show <id> --json` gives the instruction, answer format, tools and scales", async () => {
    const task = (await loadSuite("retail.apply-supplier-recall"))[0]!;
    const shown = await progagent("tasks", "show", task.id, "--json");
    expect(shown.code, shown.stderr).toBe(0);
    const description = JSON.parse(shown.stdout) as {
      instruction: string;
      answerFormat: string;
      tools: Array<{ name: string; kind: string; pythonSignature: string; inputSchema: object }>;
      scales: Array<{ scale: string }>;
      finishTool: string;
    };
    expect(description.instruction).toBe(task.instruction);
    expect(description.answerFormat).toBe(
      "Reply with only a JSON array of the ids of the orders you cancelled, in ascending order.",
    );
    const names = description.tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining([...task.tools, "read_file", "list_files"]));
    expect(description.tools.find((tool) => tool.name === "get_order")).toMatchObject({
      kind: "read",
      pythonSignature: "get_order(order_id: int) -> dict",
    });
    expect(description.scales.map((scale) => scale.scale)).toEqual(["v0", "v1", "v2", "v3"]);
    expect(description.finishTool).toBe("claim_done");

    const text = await progagent("tasks", "show", task.id);
    expect(text.stdout).toContain("Instruction:");
    expect(text.stdout).toContain("Answer format:\n  Reply with only a JSON array");
    expect(text.stdout).toContain("cancel_order(order_id: int");
    expect(text.stdout).toContain("v3: database rows x8, workspace files x4");

    const unknown = await progagent("tasks", "show", "retail.nope");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("'retail.nope'");
  });

  it("`tasks list --json` carries each task's instruction", async () => {
    const listed = await progagent("tasks", "list", "--task", "hr.*", "--json");
    const rows = JSON.parse(listed.stdout) as Array<{ id: string; instruction: string }>;
    const tasks = await loadSuite("hr.*");
    expect(rows.map((row) => [row.id, row.instruction])).toEqual(
      tasks.map((task) => [task.id, task.instruction]),
    );
  });

  it("`env serve` takes exactly one scale", async () => {
    for (const scale of ["all", "v3,v1"]) {
      const served = await progagent(
        "env",
        "serve",
        "--task",
        "retail.apply-supplier-recall",
        "--scale",
        scale,
      );
      expect(served.code, scale).toBe(2);
      expect(served.stderr).toContain(`--scale expects one scale (v0, v1, v2, v3), got '${scale}'`);
    }
  });
});
