import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { DECLARATIONS, declarationsFor } from "./declarations.js";

function declared(registers: Array<(program: Command) => void>): string[] {
  const program = new Command();
  for (const register of registers) register(program);
  return program.commands.map((command) => command.name());
}

describe("command declarations", () => {
  it("each entry declares exactly the top-level commands it is named by", async () => {
    for (const entry of DECLARATIONS) expect(declared(await entry.load())).toEqual(entry.names);
  });

  it("a command line naming a command declares only it; anything else declares all, once each", async () => {
    const all = DECLARATIONS.flatMap((entry) => entry.names);
    expect(new Set(all).size).toBe(all.length);
    expect(declared(await declarationsFor(["node", "progagent", "tasks", "list"]))).toEqual(["tasks"]);
    expect(declared(await declarationsFor(["node", "progagent", "start"]))).toEqual([
      "eval",
      "report",
      "start",
    ]);
    for (const argv of [[], ["--help"], ["help", "tasks"], ["taks", "list"], ["-V"]])
      expect(declared(await declarationsFor(["node", "progagent", ...argv]))).toEqual(all);
  });
});
