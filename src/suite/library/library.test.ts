import Database from "better-sqlite3";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTempDir, type TempDir } from "../../core/index.js";
import { buildInstance, listWorkspaceFiles, openStateView, type Instance } from "../../envs/index.js";
import { bindTool, type ToolCallResult } from "../../runtime/index.js";
import * as facts from "./facts.js";
import { libraryTasks } from "./index.js";
import { fundFor, isbn10Of, isbnsOf, normalizeIsbn } from "./marc.js";
import { claimOverdueTask } from "./tasks/claim-overdue.js";
import { libraryTools } from "./tools.js";

let cache: TempDir;
const instances = new Map<number, Instance>();
let db: Database.Database;

/** A private copy of a seed's instance database (the instance is immutable), as an episode gets. */
function episode(seed: number, name: string): Database.Database {
  const path = join(cache.path, `${name}.sqlite`);
  copyFileSync(instances.get(seed)!.dbPath, path);
  return new Database(path);
}

beforeAll(() => {
  cache = createTempDir("library-test");
  for (const seed of [0, 3, 7])
    instances.set(seed, buildInstance(claimOverdueTask, "v0", seed, join(cache.path, `s${seed}`)));
  db = episode(3, "episode");
});

afterAll(() => {
  db.close();
  cache.dispose();
});

async function call(name: string, args: Record<string, unknown>, handle = db): Promise<ToolCallResult> {
  const tool = libraryTools.find((candidate) => candidate.name === name)!;
  const options = { signal: AbortSignal.timeout(5_000), timeoutMs: 5_000 };
  return bindTool(tool, { db: handle, workspaceDir: instances.get(3)!.workspaceDir }).call(args, options);
}

async function value(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await call(name, args);
  if (result.isError) throw new Error(JSON.stringify(result.content));
  return result.structuredContent as Record<string, unknown>;
}

const row = <T>(sql: string): T => db.prepare(sql).get() as T;
function errorText(result: ToolCallResult): string {
  expect(result.isError).toBe(true);
  return result.content.map((part) => ("text" in part ? part.text : "")).join("");
}

it("converts ISBN-10, reads 020 $a only and assigns funds format first", () => {
  expect(isbn10Of("9780306406157")).toBe("0306406152");
  expect(normalizeIsbn("0-306-40615-2 (pbk.)")).toBe("9780306406157");
  expect(normalizeIsbn("978-0-306-40615-7")).toBe("9780306406157");
  const marc = "=020  \\\\$a9780306406157$q(ebook)\n=020  \\\\$z9781861972712\n=300  \\\\$a10 audio discs";
  expect(isbnsOf(marc)).toEqual(["9780306406157"]);
  expect(fundFor(marc)).toBe("AV");
  expect(fundFor("=650  \\0$aDogs.\n=650  \\0$aCats$vJuvenile fiction.\n=655  \\7$aLarge type books.")).toBe(
    "LPRT",
  );
});

describe("library generator", () => {
  it("plants every task's cases at several seeds", () => {
    for (const [seed, instance] of instances) {
      const state = openStateView(instance.dbPath, instance.workspaceDir);
      const view = state.view;
      try {
        expect(facts.duplicateOrders(view).size, `seed ${seed}`).toBeGreaterThanOrEqual(3);
        expect([...facts.misassignedLines(view).values()]).toEqual(
          expect.arrayContaining(["LPRT", "JUV", "AV"]),
        );
        expect(facts.linesToCancel(view).length).toBeGreaterThanOrEqual(3);
        expect(facts.claimsDue(view).length).toBeGreaterThan(2);
        expect([...facts.requestDecisions(view).values()]).toEqual(
          expect.arrayContaining(["approve", "decline"]),
        );
        const problems = [...facts.invoiceProblems(view).values()].map((lines) => lines.length > 0);
        expect(problems).toEqual(expect.arrayContaining([true, false]));
      } finally {
        state.close();
      }
    }
  });

  it("writes four policies and nine shipping notices at v0, and registers eight tasks over known tools", () => {
    const files = listWorkspaceFiles(instances.get(0)!.workspaceDir);
    expect(files.filter((path) => path.startsWith("policies/"))).toHaveLength(4);
    expect(files.filter((path) => path.startsWith("notices/"))).toHaveLength(9);
    expect(libraryTasks.length).toBeGreaterThanOrEqual(8);
    const names = new Set(libraryTools.map((tool) => tool.name));
    for (const task of libraryTasks) for (const tool of task.tools) expect(names.has(tool)).toBe(true);
  });
});

describe("library tools", () => {
  it("paginates in the kit envelope and teaches id formats", async () => {
    const first = await value("list_order_lines", { per_page: 5 });
    expect(Object.keys(first)).toEqual(["lines", "page", "per_page", "total", "has_more"]);
    expect(first.has_more).toBe(true);
    expect(errorText(await call("get_bib", { bib_id: "12" }))).toContain("bib_id must look like BIB-00123");
    expect(errorText(await call("get_invoice_page", { invoice_id: "INV-09999" }))).toContain(
      "use list_invoices",
    );
  });

  it("fails a deeper ledger page once with a 503, and a printout's page 2 once with an error body", async () => {
    const args = { per_page: 10, page: 2 };
    expect(errorText(await call("list_fund_transactions", args))).toContain("503 Service Unavailable");
    expect((await value("list_fund_transactions", args)).page).toBe(2);
    const { invoice_id } = row<{ invoice_id: string }>(
      "SELECT invoice_id FROM invoices WHERE page_count = 2",
    );
    const silent = await call("get_invoice_page", { invoice_id, page: 2 });
    expect(silent.isError).toBeFalsy();
    expect((silent.structuredContent as Record<string, unknown>).status).toBe("error");
    expect(String((await value("get_invoice_page", { invoice_id, page: 2 })).text)).toContain(
      "INVOICE TOTAL",
    );
  });

  it("cancels only lines on order, releasing the encumbrance, and decides a request once", async () => {
    const line = row<{ line_id: string; encumbered: number }>(
      "SELECT line_id, encumbered FROM order_lines WHERE status = 'ordered'",
    );
    const { release } = await value("cancel_order_line", { line_id: line.line_id, reason: "test" });
    expect(release).toMatchObject({ kind: "release", amount: line.encumbered, reference: line.line_id });
    expect(errorText(await call("cancel_order_line", { line_id: line.line_id, reason: "again" }))).toContain(
      "is cancelled",
    );
    const { request_id } = row<{ request_id: string }>(
      "SELECT request_id FROM patron_requests WHERE status = 'approved'",
    );
    const decline = await call("decide_request", { request_id, decision: "decline", note: "again" });
    expect(errorText(decline)).toContain("already approved");
  });
});

it("rewards exactly the due claims end to end", async () => {
  const instance = instances.get(7)!;
  const initial = openStateView(instance.dbPath, instance.workspaceDir);
  const due = facts.claimsDue(initial.view);
  const handle = episode(7, "claims");
  for (const line_id of due) await call("claim_order_line", { line_id, note: "please ship" }, handle);
  handle.close();
  const final = openStateView(join(cache.path, "claims.sqlite"), instance.workspaceDir);
  try {
    const context = { initial: initial.view, final: final.view, scale: "v0", seed: 7 };
    const checks = await claimOverdueTask.verify({ ...context, answer: `claimed: ${due.length}` });
    expect(checks.filter((c) => !c.passed)).toEqual([]);
    const wrong = await claimOverdueTask.verify({ ...context, answer: `claimed: ${due.length + 1}` });
    expect(wrong.some((c) => !c.passed)).toBe(true);
  } finally {
    initial.close();
    final.close();
  }
});
