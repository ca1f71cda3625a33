import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { loadSuite } from "../src/suite/index.js";
import { exportRl, siblingPath, type RlFormat } from "../src/train/index.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const recipes = join(root, "python", "progagent_rl", "recipes");
const scratch = mkdtempSync(join(tmpdir(), "progagent-recipes-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("python/progagent_rl against a real rollout service", () => {
  it("passes its unittest suite (client, token rollouts, verl and ms-swift shells, launcher)", () => {
    const result = spawnSync("/usr/bin/python3", ["-m", "unittest", "discover", "-s", "python/tests", "-v"], {
      cwd: root,
      encoding: "utf8",
      timeout: 300_000,
      env: {
        ...process.env,
        PROGAGENT_CLI: `${process.execPath} --import tsx ${root}src/cli/main.ts`,
        PROGAGENT_ROOT: root,
        PYTHONDONTWRITEBYTECODE: "1",
      },
    });
    const output = `${result.stdout}\n${result.stderr}`;
    expect(result.error, output).toBeUndefined();
    expect(output).toMatch(/Ran \d+ tests/);
    expect(result.status, output).toBe(0);
  }, 320_000);
});

/** The `progagent export ...` commands a recipe's header tells the user to run (continuation lines joined). */
function headerExports(recipe: string): string[] {
  const comments = readFileSync(join(recipes, recipe), "utf8")
    .split("\n")
    .filter((line) => line.startsWith("#"))
    .map((line) => line.replace(/^#\s*/, ""));
  const joined = comments.join("\n").replace(/\\\n/g, " ");
  return joined.split("\n").filter((line) => line.startsWith("progagent export "));
}

function option(command: string, name: string): string {
  const match = new RegExp(`${name} (\\S+)`).exec(command);
  if (!match) throw new Error(`'${command}' has no ${name}`);
  return match[1]!.replace(/^'|'$/g, "");
}

/** The arguments the recipe passes to its engine (it writes them and exits when asked), run from `cwd`. */
function recipeArguments(recipe: string, cwd: string, env: Record<string, string> = {}): string[] {
  const out = join(scratch, `${recipe}-${Object.values(env).join("-")}.args`);
  const result = spawnSync("bash", [join(recipes, recipe)], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, MODE: "ptc", ...env, PROGAGENT_RECIPE_ARGS_OUT: out },
  });
  expect(result.status, result.stderr).toBe(0);
  return readFileSync(out, "utf8").split("\0").filter(Boolean);
}

/** `key=value` (hydra) or `--key value` (ms-swift) from a recipe's arguments. */
function argument(args: string[], key: string): string {
  const hydra = args.find((item) => item.startsWith(`${key}=`));
  if (hydra !== undefined) return hydra.slice(key.length + 1);
  const index = args.indexOf(`--${key}`);
  if (index < 0) throw new Error(`no ${key} among ${args.join(" ")}`);
  return args[index + 1]!;
}

describe("recipes read exactly the files their header's export command writes", () => {
  it.each([
    ["run_gspo.sh", "verl", "data.train_files", "data.val_files"],
    ["swift_grpo.sh", "ms-swift", "dataset", "val_dataset"],
  ])(
    "%s (export rl --format %s)",
    async (recipe, format, trainKey, valKey) => {
      const [command] = headerExports(recipe);
      expect(command).toContain(`--format ${format}`);
      const cwd = mkdtempSync(join(scratch, "rl-"));
      // The header's command on two tasks (so the validation share holds one), run in the user's working directory.
      exportRl({
        tasks: (await loadSuite("retail.*")).slice(0, 2),
        scales: ["v0"],
        harness: "ptc",
        format: format as RlFormat,
        outPath: join(cwd, option(command!, "--out").replace("$MODE", "ptc")),
        valShare: 0.5,
      });
      const args = recipeArguments(recipe, cwd);
      for (const key of [trainKey, valKey])
        expect(existsSync(join(cwd, argument(args, key))), key).toBe(true);
    },
    120_000,
  );

  it.each([
    ["verl", "data.train_files", "data.val_files"],
    ["ms-swift", "dataset", "val_dataset"],
  ])("sft.sh with ENGINE=%s (export sft --format %s)", (engine, trainKey, valKey) => {
    const command = headerExports("sft.sh").find((line) => line.includes(`--format ${engine} `));
    expect(command, `sft.sh's header names no export for ${engine}`).toBeDefined();
    const out = option(command!, "--out");
    const args = recipeArguments("sft.sh", scratch, { ENGINE: engine });
    expect([argument(args, trainKey), argument(args, valKey)]).toEqual([out, siblingPath(out, ".val")]);
  });
});
