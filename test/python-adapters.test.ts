import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

describe("python/progagent_rl against a real rollout service", () => {
  it("passes its unittest suite (client, token rollouts, verl and ms-swift shells)", () => {
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
