import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDraftFolder } from "../src/synth/draft-folder.js";
import { runDraftSandbox } from "../src/synth/draft-sandbox.js";
import type { ValidationReport } from "../src/synth/worker-protocol.js";
import { waitForProcessCount } from "./helpers/processes.js";

const request = {
  kind: "validate" as const,
  module: "task.ts",
  scales: ["v0", "v1", "v2", "v3"] as const,
  seeds: [0, 1],
  cellTimeoutMs: 60_000,
  domain: "retail",
  minNearMisses: 2,
  minOracleCallsV0: 10,
};

/** A draft built on a built-in retail task, with its body changed by `override` (TypeScript object entries). */
function draftFrom(base: string, id: string, override: string, preamble = ""): string {
  return `import { defineTask, loadBuiltinDomain, loadSuite } from "progagent";
${preamble}
const domain = await loadBuiltinDomain("retail");
const [base] = await loadSuite(${JSON.stringify(base)});
export default defineTask({ ...base!, id: ${JSON.stringify(id)}, domain, ${override} });
`;
}

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "synth-sandbox-test-"));
});
afterAll(async () => {
  // Every sandbox of this file is gone (their command lines name this file's draft folders).
  expect(await waitForProcessCount(root, 0)).toBe(0);
  rmSync(root, { recursive: true, force: true });
});

async function validate(name: string, source: string): Promise<ValidationReport> {
  const folder = openDraftFolder(join(root, name));
  folder.write("task.ts", source);
  const result = await runDraftSandbox({
    draftDir: folder.dir,
    request: { ...request, scales: [...request.scales] },
    timeoutMs: 300_000,
  });
  expect(result.error, result.log).toBeUndefined();
  expect(result.report?.kind).toBe("validation");
  return result.report as ValidationReport;
}

describe("draft sandbox", () => {
  let server: Server;
  let connections = 0;
  let port = 0;
  beforeAll(async () => {
    server = createServer((socket) => {
      connections += 1;
      socket.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("a generator that reads a host file, writes the host and opens a socket fails with the sandbox's errors", async () => {
    const secretDir = mkdtempSync(join(tmpdir(), "synth-secret-"));
    const secret = join(secretDir, "secret.txt");
    const marker = join(secretDir, "written-by-draft.txt");
    writeFileSync(secret, "TOP-SECRET-HOST-CONTENT");
    try {
      const preamble = `import { readFileSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
const socketResult = await new Promise<string>((resolve) => {
  const socket = connect(${port}, "127.0.0.1");
  socket.on("connect", () => { socket.end(); resolve("connected"); });
  socket.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
});`;
      const override = `prepare() {
  let read: string; let wrote: string;
  try { read = readFileSync(${JSON.stringify(secret)}, "utf8"); } catch (error) { read = (error as NodeJS.ErrnoException).code ?? "error"; }
  try { writeFileSync(${JSON.stringify(marker)}, "x"); wrote = "written"; } catch (error) { wrote = (error as NodeJS.ErrnoException).code ?? "error"; }
  throw new Error("host file: " + read + "; host write: " + wrote + "; socket: " + socketResult);
}`;
      const report = await validate(
        "hostile",
        draftFrom("retail.apply-supplier-recall", "retail.hostile", override, preamble),
      );
      expect(report.ok).toBe(false);
      const nullGate = report.gates.find((gate) => gate.id === "null-agent-0")!;
      expect(nullGate.passed).toBe(false);
      expect(nullGate.detail).toContain("host file: ENOENT");
      expect(nullGate.detail).toMatch(/host write: (ENOENT|EROFS|EACCES)/);
      expect(nullGate.detail).toContain("socket: ECONNREFUSED");
      expect(JSON.stringify(report)).not.toContain("TOP-SECRET-HOST-CONTENT");
      expect(existsSync(marker)).toBe(false);
      expect(connections).toBe(0);
    } finally {
      rmSync(secretDir, { recursive: true, force: true });
    }
  }, 300_000);

  it("a draft whose initial state already satisfies the verifier fails the null-agent gate", async () => {
    const report = await validate(
      "no-op-passes",
      draftFrom(
        "retail.apply-supplier-recall",
        "retail.no-op-passes",
        `verify: () => [{ id: "anything", passed: true, message: "ok" }]`,
      ),
    );
    expect(report.ok).toBe(false);
    const nullGate = report.gates.find((gate) => gate.id === "null-agent-0")!;
    expect(nullGate).toMatchObject({ passed: false });
    expect(nullGate.detail).toContain("v0 seed 0: the initial state already passes the verifier");
    expect(report.gates.find((gate) => gate.id === "loads")?.passed).toBe(true);
  }, 300_000);

  it("a draft that changes the shared domain's tools is refused", async () => {
    const report = await validate(
      "changes-domain",
      `import { defineTask, loadBuiltinDomain, loadSuite } from "progagent";
const domain = await loadBuiltinDomain("retail");
const [base] = await loadSuite("retail.apply-supplier-recall");
domain.tools.pop();
export default defineTask({ ...base!, id: "retail.changes-domain", tools: base!.tools.filter((name) => domain.tools.some((tool) => tool.name === name)), domain });
`,
    );
    expect(report.ok).toBe(false);
    expect(report.gates.find((gate) => gate.id === "domain-unchanged")).toMatchObject({ passed: false });
  }, 300_000);

  it("a draft that writes a report of its own on the worker's descriptor gets no report at all", async () => {
    const folder = openDraftFolder(join(root, "forger"));
    folder.write(
      "task.ts",
      `import { writeSync } from "node:fs";
writeSync(3, JSON.stringify({ type: "report", nonce: "0123456789abcdef0123", report: { kind: "validation", ok: true, task: null, gates: [], rows: [], durationMs: 0 } }) + "\\n");
export default {};
`,
    );
    const result = await runDraftSandbox({
      draftDir: folder.dir,
      request: { ...request, scales: [...request.scales] },
      timeoutMs: 300_000,
    });
    expect(result.report).toBeNull();
    expect(result.error).toBe("the draft wrote a report of its own (without the run's key)");
  }, 300_000);

  it("a sound draft passes every gate at v0..v3 and seeds 0 and 1", async () => {
    const report = await validate("sound", draftFrom("retail.apply-supplier-recall", "retail.sound", ""));
    expect(report.gates.filter((gate) => !gate.passed)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.rows.map((row) => `${row.scale}/${row.seed}`)).toEqual([
      "v0/0",
      "v1/0",
      "v2/0",
      "v3/0",
      "v0/1",
      "v1/1",
      "v2/1",
      "v3/1",
    ]);
    for (const seed of [0, 1]) {
      const calls = (scale: string): number =>
        report.rows.find((row) => row.scale === scale && row.seed === seed)!.oracleToolCalls;
      expect(calls("v0")).toBeGreaterThanOrEqual(10);
      expect(calls("v3")).toBeGreaterThan(calls("v0"));
    }
  }, 600_000);

  it("a draft cannot rewrite its own module while it is validated", async () => {
    const report = await validate(
      "rewrites-itself",
      `import { writeFileSync } from "node:fs";
let outcome: string;
try { writeFileSync("/draft/task.ts", "export default {};"); outcome = "rewritten"; } catch (error) { outcome = (error as NodeJS.ErrnoException).code ?? "error"; }
throw new Error("rewrite: " + outcome);
`,
    );
    expect(report.gates[0]).toMatchObject({ id: "loads", passed: false });
    expect(report.gates[0]!.detail).toContain("rewrite: EROFS");
    expect(readFileSync(join(root, "rewrites-itself", "task.ts"), "utf8")).toContain("rewrite: ");
  }, 300_000);

  it("a draft that never finishes is killed at the deadline, with the reason", async () => {
    const folder = openDraftFolder(join(root, "spins"));
    folder.write("task.ts", `for (;;) {}\nexport default {};\n`);
    const result = await runDraftSandbox({
      draftDir: folder.dir,
      request: { ...request, scales: [...request.scales] },
      timeoutMs: 15_000,
    });
    expect(result.report).toBeNull();
    expect(result.error).toBe("the sandbox did not finish within 15 s");
    expect(await waitForProcessCount(folder.dir, 0)).toBe(0);
  }, 120_000);

  it("a module that does not export a task fails to load, with the reason", async () => {
    const report = await validate("syntax", `export default {{ not typescript`);
    expect(report.ok).toBe(false);
    expect(report.gates[0]).toMatchObject({ id: "loads", passed: false });
    expect(report.gates[0]!.detail).toContain("failed to load");
  }, 300_000);
});
