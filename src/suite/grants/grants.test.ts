import Database from "better-sqlite3";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTempDir, type TempDir } from "../../core/index.js";
import { buildInstance, openStateView, type Instance, type StateView } from "../../envs/index.js";
import { bindTool } from "../../runtime/index.js";
import { readLetter, scans } from "./facts.js";
import { grantsTasks } from "./index.js";
import { extensionDecisions } from "./tasks/process-extension-requests.js";
import { invoiceDecisions } from "./tasks/review-subaward-invoices.js";
import { transferUnallowableCostsTask, unallowableCharges } from "./tasks/transfer-unallowable-costs.js";
import { grantsTools } from "./tools.js";

let cache: TempDir;
let instance: Instance;
let initial: { view: StateView; close(): void };
const opened: Database.Database[] = [];

/** A fresh episode database (tools write to a private copy of the instance, as an episode does). */
function episode(name: string): { db: Database.Database; path: string } {
  const path = join(cache.path, `${name}.sqlite`);
  copyFileSync(instance.dbPath, path);
  opened.push(new Database(path));
  return { db: opened.at(-1)!, path };
}

async function call(db: Database.Database, name: string, args: Record<string, unknown>) {
  const tool = grantsTools.find((candidate) => candidate.name === name)!;
  const context = { db, workspaceDir: instance.workspaceDir };
  const result = await bindTool(tool, context).call(args, {
    signal: AbortSignal.timeout(5_000),
    timeoutMs: 5_000,
  });
  const text = result.content.map((part) => ("text" in part ? part.text : "")).join("");
  return { error: result.isError === true, text, value: result.structuredContent as Record<string, unknown> };
}

beforeAll(() => {
  cache = createTempDir("grants-test");
  instance = buildInstance(transferUnallowableCostsTask, "v0", 2, cache.path);
  initial = openStateView(instance.dbPath, instance.workspaceDir);
});

afterAll(() => {
  for (const db of opened) db.close();
  initial.close();
  cache.dispose();
});

describe("grants generator", () => {
  it("writes nine sponsors' terms and the office's documents, and scans of four kinds", () => {
    const files = initial.view.listFiles();
    expect(files.filter((path) => path.startsWith("sponsor-terms/"))).toHaveLength(9);
    expect(files).toHaveLength(12);
    const kinds = initial.view.db.prepare("SELECT DISTINCT doc_type FROM documents ORDER BY 1").pluck().all();
    expect(kinds).toEqual(["award_letter", "effort_certification", "extension_request", "subaward_invoice"]);
    expect(grantsTasks).toHaveLength(9);
  });

  it("plants the cases the near-misses turn on", () => {
    // A misread amount in a current notice that a plain number pattern reads wrong.
    const letters = scans(initial.view, "award_letter").map((doc) => doc.text);
    expect(letters.some((text) => /\$\s+\d[\d,]* [\d,]+\.\d\d/.test(text))).toBe(true);
    expect(letters.map(readLetter).some((letter) => letter.amendment > 0)).toBe(true);
    // Invoices to hold beside one to approve, extensions to grant beside ones to refer.
    const invoices = invoiceDecisions(initial.view);
    expect(invoices.filter((item) => !item.approve).length).toBeGreaterThanOrEqual(4);
    const extensions = extensionDecisions(initial.view);
    expect(extensions.filter((item) => item.grant).length).toBeGreaterThanOrEqual(2);
    expect(extensions.filter((item) => !item.grant).length).toBeGreaterThanOrEqual(4);
  });

  it.each([0, 7, 11])("plants every task's cases at seed %i: no verifier throws", async (seed) => {
    const built = buildInstance(transferUnallowableCostsTask, "v0", seed, cache.path);
    const state = openStateView(built.dbPath, built.workspaceDir);
    const context = { initial: state.view, final: state.view, answer: "", scale: "v0" as const, seed };
    try {
      for (const task of grantsTasks) await task.verify(context);
    } finally {
      state.close();
    }
  });
});

describe("grants tools", () => {
  it("fail like the real services: a 503 on a deep ledger page, OCR still queued, an HR error body", async () => {
    const { db } = episode("faults");
    const deep = await call(db, "list_transactions", { page: 2, per_page: 50 });
    expect(deep.error).toBe(true);
    expect(deep.text).toContain("503 Service Unavailable");
    expect((await call(db, "list_transactions", { page: 2, per_page: 50 })).error).toBe(false);
    const letter = db.prepare("SELECT doc_id FROM documents WHERE doc_type = 'award_letter'").pluck().get();
    const queued = await call(db, "get_document_page", { doc_id: letter, page: 2 });
    expect(queued.value).toMatchObject({ status: "queued" });
    const page = async (n: number) => (await call(db, "get_document_page", { doc_id: letter, page: n })).text;
    expect(await page(2)).toContain("TOTAL DIRECT COSTS");
    expect(await page(3)).toContain("has 2 page(s)");
    const people = db.prepare("SELECT person_id FROM personnel").pluck().all() as string[];
    const faulty = people.find((id) => Number(id.slice(4)) % 7 === 3)!;
    expect((await call(db, "get_person", { person_id: faulty })).value).toMatchObject({ status: "error" });
    expect((await call(db, "get_person", { person_id: faulty })).value).toHaveProperty("commitments");
  });

  it("refuse writes that make no sense, saying why", async () => {
    const { db } = episode("refusals");
    const [charge] = unallowableCharges(initial.view);
    const reason = { txn_id: charge!.txn_id, reason: "unallowable" };
    expect((await call(db, "transfer_cost", reason)).error).toBe(false);
    expect((await call(db, "transfer_cost", reason)).text).toContain("already transferred");
    const letter = db.prepare("SELECT doc_id FROM documents WHERE doc_type = 'award_letter'").pluck().get();
    const approve = { doc_id: letter, subaward_id: "SUB-0043", invoice_number: "X-1", amount: 10 };
    const refused = await call(db, "approve_subaward_invoice", approve);
    expect(refused.text).toContain("is not a pending subaward invoice");
    const closed = db.prepare("SELECT award_id FROM awards WHERE status = 'closed'").pluck().get();
    const extend = { award_id: closed, new_end_date: "2026-06-30" };
    expect((await call(db, "extend_award", extend)).text).toContain("only active awards are extended");
  });
});

describe("grants.transfer-unallowable-costs", () => {
  it("rewards exactly the unallowable charges moved, and fails one transfer too many", async () => {
    const expected = unallowableCharges(initial.view);
    const { db, path } = episode("transfers");
    for (const { txn_id } of expected) await call(db, "transfer_cost", { txn_id, reason: "unallowable" });
    const total = expected.reduce((sum, charge) => sum + charge.amount, 0);
    const final = openStateView(path, instance.workspaceDir);
    const passes = async (answer: string): Promise<boolean> => {
      const context = { initial: initial.view, final: final.view, answer, scale: "v0", seed: 2 };
      return (await transferUnallowableCostsTask.verify(context)).every((item) => item.passed);
    };
    try {
      const answer = `Transferred ${expected.length} charges totalling $${total.toFixed(2)}`;
      expect(await passes(answer)).toBe(true);
      expect(
        await passes(`Transferred ${expected.length} charges totalling $${(total + 1).toFixed(2)}`),
      ).toBe(false);
      const allowed = db.prepare("SELECT txn_id FROM transactions WHERE object_code = '5310'").pluck().get();
      await call(db, "transfer_cost", { txn_id: allowed, reason: "by mistake" });
      expect(await passes(answer)).toBe(false);
    } finally {
      final.close();
    }
  });
});
