import { execFileSync } from "node:child_process";
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createTempDir } from "../core/index.js";
import { compiledBootstrap } from "./compiled-bootstrap.js";
import { buildSandboxCommand, SANDBOX_BOOTSTRAP, SANDBOX_BOOTSTRAP_COMPILED } from "./sandbox.js";

const PYTHON = "/usr/bin/python3";
const SOURCE = fileURLToPath(new URL("./python/bootstrap.py", import.meta.url));
const dir = createTempDir("compiled-bootstrap-test");
afterAll(() => dir.dispose());

/** What the compiled file holds: the interpreter's magic number matches, and the code's file name. */
function inspect(path: string): { magicMatches: boolean; filename: string } {
  const output = execFileSync(
    PYTHON,
    [
      "-I",
      "-S",
      "-c",
      [
        "import importlib.util, marshal, sys",
        "data = open(sys.argv[1], 'rb').read()",
        "print(data[:4] == importlib.util.MAGIC_NUMBER)",
        "print(marshal.loads(data[16:]).co_filename)",
      ].join("\n"),
      path,
    ],
    { encoding: "utf8" },
  ).trim();
  const [magic, filename] = output.split("\n");
  return { magicMatches: magic === "True", filename: filename! };
}

describe("compiled kernel bootstrap", () => {
  it("compiles once per interpreter, for this interpreter, naming the source's path in the sandbox", async () => {
    const source = join(dir.path, "bootstrap.py");
    copyFileSync(SOURCE, source);
    const first = compiledBootstrap(PYTHON, source, SANDBOX_BOOTSTRAP);
    expect(compiledBootstrap(PYTHON, source, SANDBOX_BOOTSTRAP)).toBe(first);
    const path = await first;
    expect(path).toBeDefined();
    expect(inspect(path!)).toEqual({ magicMatches: true, filename: SANDBOX_BOOTSTRAP });
  });

  it("falls back to the source, saying why, when the source does not compile", async () => {
    const source = join(dir.path, "broken.py");
    writeFileSync(source, "def broken(:\n");
    const warn = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      expect(await compiledBootstrap(PYTHON, source, SANDBOX_BOOTSTRAP)).toBeUndefined();
      expect(warn.mock.calls.map(([text]) => String(text)).join("")).toMatch(
        /could not compile the kernel bootstrap .*SyntaxError/,
      );
    } finally {
      warn.mockRestore();
    }
  });

  it("gives undefined for a missing interpreter (the start itself reports it)", async () => {
    expect(await compiledBootstrap(join(dir.path, "no-python"), SOURCE, SANDBOX_BOOTSTRAP)).toBeUndefined();
  });

  it("runs the compiled file in the sandbox and keeps the source visible for tracebacks", () => {
    const base = {
      interpreter: PYTHON,
      workspaceDir: dir.path,
      bootstrapPath: "/host/bootstrap.py",
      environment: {},
    };
    const plain = buildSandboxCommand(base).args;
    expect(plain.at(-1)).toBe(SANDBOX_BOOTSTRAP);
    expect(plain).not.toContain(SANDBOX_BOOTSTRAP_COMPILED);
    const compiled = buildSandboxCommand({ ...base, compiledBootstrapPath: "/host/bootstrap.pyc" }).args;
    expect(compiled.at(-1)).toBe(SANDBOX_BOOTSTRAP_COMPILED);
    const bind = compiled.indexOf("/host/bootstrap.pyc");
    expect(compiled.slice(bind - 1, bind + 2)).toEqual([
      "--ro-bind",
      "/host/bootstrap.pyc",
      SANDBOX_BOOTSTRAP_COMPILED,
    ]);
    const source = compiled.indexOf("/host/bootstrap.py");
    expect(compiled.slice(source - 1, source + 2)).toEqual([
      "--ro-bind",
      "/host/bootstrap.py",
      SANDBOX_BOOTSTRAP,
    ]);
  });
});
