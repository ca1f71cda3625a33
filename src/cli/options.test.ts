import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { registerEval } from "./commands/eval.js";
import { registerSynth } from "./commands/synth.js";
import { registerTasks } from "./commands/tasks.js";
import { registerTasksCalibrate } from "./commands/tasks-calibrate.js";
import {
  addEndpointOptions,
  addModelOptions,
  endpointFrom,
  modelRunFrom,
  parseIntegerOption,
  parseNumberOption,
  parseScaleOption,
  parseScalesOption,
  parseSecondsOption,
} from "./options.js";

describe("CLI option parsing", () => {
  it("takes whole numbers where a count is meant and names the flag otherwise", () => {
    expect(parseIntegerOption("3", "--samples")).toBe(3);
    expect(parseIntegerOption("0", "--seed", { min: 0 })).toBe(0);
    for (const bad of ["1.5", "2.5", "1e3", "0x10", "", "-1", "two", "0"])
      expect(() => parseIntegerOption(bad, "--samples"), bad).toThrow(
        `--samples expects a positive integer, got '${bad}'`,
      );
    expect(() => parseIntegerOption("-1", "--seed", { min: 0 })).toThrow("a non-negative integer");
    expect(() => parseIntegerOption("99999", "--port", { min: 0, max: 65535 })).toThrow(
      "--port expects a non-negative integer <= 65535, got '99999'",
    );
  });

  it("takes decimals where a quantity may be fractional", () => {
    expect(parseNumberOption("0.7", "--temperature", { min: 0 })).toBe(0.7);
    expect(parseSecondsOption("1.5", "--timeout")).toBe(1500);
    for (const bad of ["0", "-2", "abc", "1e400", "Infinity"])
      expect(() => parseSecondsOption(bad, "--timeout"), bad).toThrow("--timeout expects a positive number");
  });

  it("takes exactly one scale where one instance is meant, a list where several are", () => {
    expect(parseScaleOption("v2")).toBe("v2");
    for (const bad of ["all", "v3,v1", "v4", ""])
      expect(() => parseScaleOption(bad), bad).toThrow(
        `--scale expects one scale (v0, v1, v2, v3), got '${bad}'`,
      );
    expect(parseScalesOption("v3,v1")).toEqual(["v3", "v1"]);
    expect(parseScalesOption("all")).toEqual(["v0", "v1", "v2", "v3"]);
  });
});

function parsed(command: Command, argv: string[]): Record<string, unknown> {
  command.exitOverride().parse(argv, { from: "user" });
  return command.opts();
}

describe("model options", () => {
  it("parse the endpoint, sampling and run flags with their defaults, naming a bad flag", () => {
    expect(modelRunFrom(parsed(addModelOptions(new Command()), []))).toEqual({
      modelOptions: {},
      concurrency: 2,
      seed: 0,
    });
    const argv = ["--base-url", "http://127.0.0.1:9/v1", "--api-key-env", "KEY", "--temperature", "0.5"];
    argv.push("--max-turns", "7", "--concurrency", "3", "--seed", "0");
    expect(modelRunFrom(parsed(addModelOptions(new Command()), argv))).toEqual({
      modelOptions: { baseUrl: "http://127.0.0.1:9/v1", apiKeyEnv: "KEY" },
      temperature: 0.5,
      maxTurns: 7,
      concurrency: 3,
      seed: 0,
    });
    for (const [flag, value, message] of [
      ["--concurrency", "0", "--concurrency expects a positive integer, got '0'"],
      ["--seed", "-1", "--seed expects a non-negative integer, got '-1'"],
      ["--max-turns", "1.5", "--max-turns expects a positive integer, got '1.5'"],
      ["--temperature", "hot", "--temperature expects a non-negative number, got 'hot'"],
    ] as const)
      expect(() => modelRunFrom(parsed(addModelOptions(new Command()), [flag, value])), flag).toThrow(
        message,
      );
  });

  it("give a further endpoint its own prefixed flags, each falling back on its own", () => {
    const command = addEndpointOptions(addEndpointOptions(new Command()), {
      prefix: "auditor",
      whose: "the auditor's",
      fallsBack: true,
    });
    const options = parsed(command, ["--base-url", "http://a", "--auditor-api-key-env", "AUDITOR_KEY"]);
    expect(endpointFrom(options)).toEqual({ baseUrl: "http://a" });
    expect(endpointFrom(options, "auditor")).toEqual({ apiKeyEnv: "AUDITOR_KEY" });
    expect({ ...endpointFrom(options), ...endpointFrom(options, "auditor") }).toEqual({
      baseUrl: "http://a",
      apiKeyEnv: "AUDITOR_KEY",
    });
    expect(command.helpInformation()).toContain("(default: --api-key-env)");
  });

  it("read the same in eval, tasks calibrate and synth: one flag, one help text", () => {
    const program = new Command();
    registerTasks(program);
    registerTasksCalibrate(program);
    registerEval(program);
    registerSynth(program);
    const find = (path: string[]): Command =>
      path.reduce<Command>((command, name) => command.commands.find((sub) => sub.name() === name)!, program);
    const help = (command: Command, flag: string): string | undefined =>
      command.options.find((option) => option.long === flag)?.description;
    const evalCommand = find(["eval"]);
    const calibrate = find(["tasks", "calibrate"]);
    const synth = find(["synth"]);
    for (const flag of [
      "--base-url",
      "--api-key-env",
      "--temperature",
      "--max-turns",
      "--concurrency",
      "--seed",
    ])
      expect(help(calibrate, flag), flag).toBe(help(evalCommand, flag));
    expect(help(calibrate, "--force-new")).toBe(help(evalCommand, "--force-new"));
    expect(help(synth, "--force-new")).toMatch(/^start over in an --out directory that holds an earlier run/);
    expect(help(synth, "--auditor-base-url")).toBe("base URL of the auditor's API (default: --base-url)");
  });
});
