/**
 * The built-in suite's manifest (src/suite/manifest.ts): generated from the definitions, checked in, and used by
 * `tasks list` only while it matches the sources, so that the listing is always the one the definitions give.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { generateSuiteManifest, renderSuiteManifest } from "../scripts/suite-manifest.js";
import { answerFormatOf } from "../src/cli/answer-format.js";
import { formatTable } from "../src/cli/format-table.js";
import { listTasks, loadTasks, type TaskListing } from "../src/cli/load-tasks.js";
import type { TaskDefinition } from "../src/envs/index.js";
import { loadSuite, suiteNameOf, writeSuiteTemplate } from "../src/suite/index.js";
import { parseSuiteManifest, readSuiteManifest } from "../src/suite/manifest.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const manifestPath = join(root, "src", "suite", "manifest.json");
const scratch = mkdtempSync(join(tmpdir(), "progagent-suite-manifest-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const STALE = "src/suite/manifest.json is stale: run `npm run suite:manifest` and commit the file";

async function progagent(
  cli: string,
  args: string[],
  cwd: string,
): Promise<{ stdout: string; stderr: string }> {
  return promisify(execFile)(process.execPath, [cli, ...args], {
    cwd,
    timeout: 120_000,
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, PROGAGENT_LOG_LEVEL: "debug" },
  });
}

/** The rows `tasks list --json` printed before the manifest: straight from the imported definitions. */
function rowsOf(tasks: TaskDefinition[]): Array<Record<string, unknown>> {
  return tasks.map((task) => ({
    id: task.id,
    suite: "builtin",
    domain: task.domain.id,
    tools: task.tools,
    summary: task.summary,
    instruction: task.instruction,
    answerFormat: answerFormatOf(task.instruction),
  }));
}

describe("the built-in suite's manifest", () => {
  it("is what the task definitions give now, for the sources they load now", async () => {
    const checkedIn = parseSuiteManifest(JSON.parse(readFileSync(manifestPath, "utf8")) as unknown);
    const generated = await generateSuiteManifest();
    // Tasks first: a task added, changed or removed shows here as the difference in what `tasks list` prints.
    expect(checkedIn.domains, STALE).toEqual(generated.domains);
    expect(checkedIn.sources, STALE).toEqual(generated.sources);
    expect(readFileSync(manifestPath, "utf8"), STALE).toBe(renderSuiteManifest(generated));
    expect(readSuiteManifest().state, STALE).toBe("fresh");
  });

  it("gives `tasks list` and `tasks list --json` byte for byte what the imported definitions give", async () => {
    const rows = rowsOf(await loadSuite("*"));
    const json = await progagent(join(root, "bin", "progagent.js"), ["tasks", "list", "--json"], root);
    expect(json.stderr, STALE).toContain("listed from the suite manifest");
    expect(json.stdout).toBe(`${JSON.stringify(rows, null, 2)}\n`);

    const table = await progagent(join(root, "bin", "progagent.js"), ["tasks", "list", "--wide"], root);
    const cells = rows.map((row) => [
      String(row.id),
      String(row.suite),
      String(row.domain),
      (row.tools as string[]).length,
      String(row.summary),
    ]);
    expect(table.stdout).toBe(
      `${formatTable(["task", "suite", "domain", "domain tools", "summary"], cells)}\n`,
    );
    // Without --wide, every line fits 100 columns.
    const narrow = await progagent(join(root, "bin", "progagent.js"), ["tasks", "list"], root);
    expect(
      Math.max(
        ...narrow.stdout
          .trimEnd()
          .split("\n")
          .map((line) => line.length),
      ),
    ).toBeLessThanOrEqual(100);
  });

  it("selects what loadSuite selects for any glob, and fails as it does when nothing matches", async () => {
    for (const glob of ["*", "retail.*", "hr.overtime*,clinic.*", "*t,hr.*", "*.*-review", "airline.x*"]) {
      const expected = await loadSuite(glob).then(rowsOf, (error: Error) => error.message);
      const listed = await listTasks(glob).then(
        (tasks) => tasks.map((task) => ({ ...task, answerFormat: answerFormatOf(task.instruction) })),
        (error: Error) => error.message,
      );
      expect(listed, glob).toEqual(expected);
    }
  });

  it("with a user's suite, imports only that suite and lists what importing both lists", async () => {
    const suite = writeSuiteTemplate(join(scratch, "user-suite")).dir;
    // Built on a built-in domain: only the definitions tell that domain from another one with its id.
    const onRetail = join(scratch, "on-retail");
    cpSync(suite, onRetail, { recursive: true });
    writeFileSync(
      join(onRetail, "index.ts"),
      `import { defineSuite, defineTask, loadBuiltinDomain, loadSuite } from "progagent";
const domain = await loadBuiltinDomain("retail");
const [base] = await loadSuite("retail.net-revenue-by-category");
export default defineSuite({ name: "on-retail", tasks: [defineTask({ ...base!, id: "retail.revenue-again", domain })] });
`,
    );
    const listing = (tasks: TaskDefinition[]): TaskListing[] =>
      tasks.map((task) => ({
        id: task.id,
        suite: suiteNameOf(task) ?? "builtin",
        domain: task.domain.id,
        tools: task.tools,
        summary: task.summary,
        instruction: task.instruction,
      }));
    for (const suites of [[suite], [onRetail], [suite, onRetail]])
      for (const glob of ["*", "lending.*", "retail.*", "retail.revenue*", "nothing.*"]) {
        const expected = await loadTasks(glob, { suites }).then(
          (tasks) => listing(tasks as TaskDefinition[]),
          (error: Error) => error.message,
        );
        const listed = await listTasks(glob, { suites }).catch((error: Error) => error.message);
        expect(listed, `${glob} with ${suites.join(", ")}`).toEqual(expected);
      }

    const cli = join(root, "bin", "progagent.js");
    const fast = await progagent(cli, ["tasks", "list", "--suite", suite, "--json"], root);
    expect(fast.stderr, STALE).toContain("built-in tasks listed from the suite manifest");
    expect(fast.stderr).not.toContain("importing");
    const rows = JSON.parse(fast.stdout) as Array<{ id: string; suite: string }>;
    expect(rows.at(-1)).toMatchObject({ id: "lending.late-fees", suite: "user-suite" });
    expect(rows.filter((row) => row.suite === "builtin")).toHaveLength((await loadSuite("*")).length);
    const slow = await progagent(cli, ["tasks", "list", "--suite", onRetail, "--task", "retail.*"], root);
    expect(slow.stderr).toContain(
      "a user's task is in a built-in domain; importing the built-in definitions",
    );
    expect(slow.stdout).toContain("retail.revenue-again");
  });

  it("in a clone where a task was edited without regenerating, lists the edit and says why in the debug log", async () => {
    const clone = join(scratch, "clone");
    for (const entry of ["bin", "src", "package.json"])
      cpSync(join(root, entry), join(clone, entry), { recursive: true });
    symlinkSync(join(root, "node_modules"), join(clone, "node_modules"), "dir");
    const cli = join(clone, "bin", "progagent.js");
    const id = "retail.net-revenue-by-category";
    const [task] = await loadSuite(id);
    const file = join(clone, "src", "suite", "retail", "tasks", "net-revenue-by-category.ts");
    const source = readFileSync(file, "utf8");
    expect(source, `the test edits ${id}'s summary in ${file}`).toContain(JSON.stringify(task!.summary));
    writeFileSync(file, source.replace(JSON.stringify(task!.summary), JSON.stringify("An edited summary.")));

    const edited = await progagent(cli, ["tasks", "list", "--task", id, "--json"], clone);
    expect((JSON.parse(edited.stdout) as Array<{ summary: string }>)[0]!.summary).toBe("An edited summary.");
    expect(edited.stderr).toContain(
      "suite manifest stale (suite/retail/tasks/net-revenue-by-category.ts changed); importing the task definitions",
    );

    rmSync(join(clone, "src", "suite", "manifest.json"));
    const missing = await progagent(cli, ["tasks", "list", "--task", id], clone);
    expect(missing.stdout).toContain("An edited summary.");
    expect(missing.stderr).toContain("suite manifest missing");
  });
});
