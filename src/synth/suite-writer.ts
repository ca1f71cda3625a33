import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { writeAtomically } from "./synth-report.js";

/** `<domain>.<slug>` -> an identifier usable as an import name. */
function importName(index: number): string {
  return `task${index}`;
}

/**
 * Writes an accepted task as an ordinary module of the suite folder (`tasks/<slug>.ts`) and regenerates the
 * folder's `index.ts` from the list of accepted modules, so the folder loads with `--suite` like a hand-written one.
 */
export function writeSuiteModule(outDir: string, slug: string, moduleText: string): string {
  mkdirSync(join(outDir, "tasks"), { recursive: true });
  const relativePath = `tasks/${slug}.ts`;
  writeAtomically(join(outDir, relativePath), moduleText);
  return relativePath;
}

export function writeSuiteIndex(outDir: string, suiteName: string, modules: readonly string[]): void {
  mkdirSync(outDir, { recursive: true });
  if (!existsSync(join(outDir, "package.json")))
    writeAtomically(
      join(outDir, "package.json"),
      `${JSON.stringify({ name: suiteName, private: true, type: "module" }, null, 2)}\n`,
    );
  const imports = modules.map(
    (path, index) => `import ${importName(index)} from "./${path.replace(/\.ts$/, ".js")}";`,
  );
  const text = [
    "// Written by `progagent synth`: the accepted tasks (see synth-report.md). Review them before running them",
    "// outside the sandbox: they are synthesised code.",
    `import { defineSuite } from "progagent";`,
    ...imports,
    "",
    `export default defineSuite({`,
    `  name: ${JSON.stringify(suiteName)},`,
    `  description: "Tasks synthesised by progagent synth",`,
    `  tasks: [${modules.map((_, index) => importName(index)).join(", ")}],`,
    `});`,
    "",
  ].join("\n");
  writeAtomically(join(outDir, "index.ts"), text);
}
