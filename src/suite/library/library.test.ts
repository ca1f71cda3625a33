import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listWorkspaceFiles, openToolBench, type ToolBench } from "../../envs/index.js";
import type { ToolCallResult } from "../../runtime/index.js";
import * as facts from "./facts.js";
import { libraryTasks } from "./index.js";
import { fundFor, isbn10Of, isbnsOf, normalizeIsbn } from "./marc.js";
import { claimOverdueTask } from "./tasks/claim-overdue.js";
import { libraryTools } from "./tools.js";

let bench: ToolBench;

beforeAll(() => (bench = openToolBench(claimOverdueTask, libraryTools)));
afterAll(() => bench.close());

const call = (name: string, args: Record<string, unknown>): Promise<ToolCallResult> => bench.call(name, args);
const value = (name: string, args: Record<string, unknown>) => bench.value(name, args);
const row = <T>(sql: string): T => bench.db.prepare(sql).get() as T;
const errorText = (result: ToolCallResult): string => bench.errorText(result);

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
    for (const seed of [0, 3, 7]) {
      const { view } = bench.build({ seed });
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
    }
  });

  it("writes four policies and nine shipping notices at v0, and registers eight tasks over known tools", () => {
    const files = listWorkspaceFiles(bench.build({ seed: 0 }).instance.workspaceDir);
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
  using claims = openToolBench(claimOverdueTask, libraryTools, { seed: 7 });
  const initial = claims.build({ seed: 7 }).view;
  const due = facts.claimsDue(initial);
  for (const line_id of due) await claims.call("claim_order_line", { line_id, note: "please ship" });
  const context = { initial, final: claims.view(), scale: "v0", seed: 7 };
  const checks = await claimOverdueTask.verify({ ...context, answer: `claimed: ${due.length}` });
  expect(checks.filter((c) => !c.passed)).toEqual([]);
  const wrong = await claimOverdueTask.verify({ ...context, answer: `claimed: ${due.length + 1}` });
  expect(wrong.some((c) => !c.passed)).toBe(true);
});
