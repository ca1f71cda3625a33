import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ProgAgentError } from "../core/index.js";
import { instanceKey, type DomainDefinition, type TaskDefinition } from "../envs/index.js";
import { combineSuites, loadUserSuite, resolveSuiteEntry, suiteNameOf } from "./user-suite.js";
import { writeSuiteTemplate } from "./write-suite-template.js";

const scratch = realpathSync(mkdtempSync(join(tmpdir(), "user-suite-unit-")));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function write(path: string, content: string): string {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, content);
  return path;
}

function fakeTask(id: string, domain: DomainDefinition): TaskDefinition {
  return { id, domain } as TaskDefinition;
}
const domainA = { id: "library" } as DomainDefinition;
const domainB = { id: "library" } as DomainDefinition;

describe("resolveSuiteEntry", () => {
  it("finds a folder's index.ts, or the entry its package.json names", () => {
    const plain = join(scratch, "plain");
    const index = write(join(plain, "index.ts"), "");
    write(join(plain, "index.js"), "");
    expect(resolveSuiteEntry("plain", scratch)).toEqual({ root: plain, entryPath: index });
    expect(resolveSuiteEntry("./plain/index.js", scratch)).toEqual({
      root: plain,
      entryPath: join(plain, "index.js"),
    });

    const packaged = join(scratch, "packaged");
    write(
      join(packaged, "package.json"),
      JSON.stringify({ type: "module", exports: { ".": { import: "./lib/main.js" } } }),
    );
    const main = write(join(packaged, "lib", "main.js"), "");
    write(join(packaged, "index.ts"), "");
    expect(resolveSuiteEntry(packaged)).toEqual({ root: packaged, entryPath: main });
  });

  it("finds an installed package by name in node_modules from the working directory upwards", () => {
    const project = join(scratch, "project");
    const installed = join(project, "node_modules", "@acme", "suite");
    write(join(installed, "package.json"), JSON.stringify({ name: "@acme/suite", main: "dist/index.js" }));
    const entry = write(join(installed, "dist", "index.js"), "");
    mkdirSync(join(project, "src", "deep"), { recursive: true });
    expect(resolveSuiteEntry("@acme/suite", join(project, "src", "deep"))).toEqual({
      root: installed,
      entryPath: entry,
    });
  });

  it("says what was expected when nothing is there", () => {
    expect(() => resolveSuiteEntry("./nowhere", scratch)).toThrow(
      /nowhere does not exist \(expected a suite folder/,
    );
    expect(() => resolveSuiteEntry("not-installed", scratch)).toThrow(
      /no package 'not-installed' is installed in node_modules/,
    );
    const empty = join(scratch, "empty");
    mkdirSync(empty);
    expect(() => resolveSuiteEntry(empty)).toThrow(/has no index.ts, index.mts, index.js, index.mjs/);
    const broken = join(scratch, "broken-main");
    write(join(broken, "package.json"), JSON.stringify({ main: "gone.js" }));
    expect(() => resolveSuiteEntry(broken)).toThrow(/gone.js, which does not exist/);
  });
});

describe("combineSuites", () => {
  it("keeps every suite's tasks in order", () => {
    const tasks = combineSuites([
      { name: "builtin", tasks: [fakeTask("retail.a", { id: "retail" } as DomainDefinition)] },
      { name: "mine", tasks: [fakeTask("library.a", domainA), fakeTask("library.b", domainA)] },
    ]);
    expect(tasks.map((task) => task.id)).toEqual(["retail.a", "library.a", "library.b"]);
  });

  it("refuses a task id two suites share, naming both", () => {
    expect(() =>
      combineSuites([
        { name: "builtin", tasks: [fakeTask("library.a", domainA)] },
        { name: "mine", tasks: [fakeTask("library.a", domainA)] },
      ]),
    ).toThrow(/task id 'library.a' is defined by both suite 'builtin' and suite 'mine'.*--no-builtin/);
  });

  it("refuses two different domains under one id", () => {
    expect(() =>
      combineSuites([
        { name: "one", tasks: [fakeTask("library.a", domainA)] },
        { name: "two", tasks: [fakeTask("library.b", domainB)] },
      ]),
    ).toThrow(/domain id 'library' names two different domains, in suite 'one' and suite 'two'/);
  });
});

describe("loadUserSuite (in process)", () => {
  it("loads the init-suite template: TypeScript, 'progagent' and 'zod' resolved without node_modules", async () => {
    const written = writeSuiteTemplate(join(scratch, "template"), { name: "lending" });
    const suite = await loadUserSuite(written.dir);
    expect(suite).toMatchObject({
      name: "lending",
      root: written.dir,
      entryPath: join(written.dir, "index.ts"),
    });
    expect(suite.tasks.map((task) => task.id)).toEqual(["lending.late-fees"]);
    const [task] = suite.tasks;
    expect(suiteNameOf(task!)).toBe("lending");
    expect(task!.domain.tools.map((tool) => tool.name)).toEqual(["list_loans", "charge_late_fee"]);
    // The key carries the suite folder's hash: a task object with the same fields but not loaded from it differs.
    expect(instanceKey(task!, "v0", 0)).not.toBe(instanceKey({ ...task! }, "v0", 0));
  });

  it("reports a module that exports no suite as one ProgAgentError naming the module", async () => {
    const dir = join(scratch, "no-export");
    write(join(dir, "package.json"), JSON.stringify({ type: "module" }));
    write(join(dir, "index.mjs"), "export const version = 1;\n");
    const error = await loadUserSuite(dir).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProgAgentError);
    expect(error).toMatchObject({
      code: "SUITE_INVALID",
      category: "user",
      details: { spec: dir, entryPath: join(dir, "index.mjs") },
    });
    expect((error as Error).message).toMatch(
      /^cannot load suite '.*no-export' \(.*index\.mjs\): it exports no suite/,
    );
  });
});
