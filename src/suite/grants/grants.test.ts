import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openToolBench, type ToolBench } from "../../envs/index.js";
import { readLetter, scans } from "./facts.js";
import { grantsTasks } from "./index.js";
import { extensionDecisions } from "./tasks/process-extension-requests.js";
import { invoiceDecisions } from "./tasks/review-subaward-invoices.js";
import { transferUnallowableCostsTask, unallowableCharges } from "./tasks/transfer-unallowable-costs.js";
import { grantsTools } from "./tools.js";

let bench: ToolBench;

beforeAll(() => (bench = openToolBench(transferUnallowableCostsTask, grantsTools, { seed: 2 })));
afterAll(() => bench.close());

/** The initial state of the bench's instance (seed 2). */
const initialView = () => bench.build({ seed: 2 }).view;

/** A tool call in the current episode: error flag, text and structured result. */
async function call(name: string, args: Record<string, unknown>) {
  const { error, text, body } = await bench.reply(name, args);
  return { error, text, value: body };
}

describe("grants generator", () => {
  it("writes nine sponsors' terms and the office's documents, and scans of four kinds", () => {
    const files = initialView().listFiles();
    expect(files.filter((path) => path.startsWith("sponsor-terms/"))).toHaveLength(9);
    expect(files).toHaveLength(12);
    const kinds = initialView()
      .db.prepare("SELECT DISTINCT doc_type FROM documents ORDER BY 1")
      .pluck()
      .all();
    expect(kinds).toEqual(["award_letter", "effort_certification", "extension_request", "subaward_invoice"]);
    expect(grantsTasks).toHaveLength(9);
  });

  it("plants the cases the near-misses turn on", () => {
    // A misread amount in a current notice that a plain number pattern reads wrong.
    const letters = scans(initialView(), "award_letter").map((doc) => doc.text);
    expect(letters.some((text) => /\$\s+\d[\d,]* [\d,]+\.\d\d/.test(text))).toBe(true);
    expect(letters.map(readLetter).some((letter) => letter.amendment > 0)).toBe(true);
    // Invoices to hold beside one to approve, extensions to grant beside ones to refer.
    const invoices = invoiceDecisions(initialView());
    expect(invoices.filter((item) => !item.approve).length).toBeGreaterThanOrEqual(4);
    const extensions = extensionDecisions(initialView());
    expect(extensions.filter((item) => item.grant).length).toBeGreaterThanOrEqual(2);
    expect(extensions.filter((item) => !item.grant).length).toBeGreaterThanOrEqual(4);
  });

  it.each([0, 7, 11])("plants every task's cases at seed %i: no verifier throws", async (seed) => {
    const { view } = bench.build({ seed });
    const context = { initial: view, final: view, answer: "", scale: "v0" as const, seed };
    for (const task of grantsTasks) await task.verify(context);
  });
});

describe("grants tools", () => {
  it("fail like the real services: a 503 on a deep ledger page, OCR still queued, an HR error body", async () => {
    const db = bench.reset(); // a new episode
    const deep = await call("list_transactions", { page: 2, per_page: 50 });
    expect(deep.error).toBe(true);
    expect(deep.text).toContain("503 Service Unavailable");
    expect((await call("list_transactions", { page: 2, per_page: 50 })).error).toBe(false);
    const letter = db.prepare("SELECT doc_id FROM documents WHERE doc_type = 'award_letter'").pluck().get();
    const queued = await call("get_document_page", { doc_id: letter, page: 2 });
    expect(queued.value).toMatchObject({ status: "queued" });
    const page = async (n: number) => (await call("get_document_page", { doc_id: letter, page: n })).text;
    expect(await page(2)).toContain("TOTAL DIRECT COSTS");
    expect(await page(3)).toContain("has 2 page(s)");
    const people = db.prepare("SELECT person_id FROM personnel").pluck().all() as string[];
    const faulty = people.find((id) => Number(id.slice(4)) % 7 === 3)!;
    expect((await call("get_person", { person_id: faulty })).value).toMatchObject({ status: "error" });
    expect((await call("get_person", { person_id: faulty })).value).toHaveProperty("commitments");
  });

  it("refuse writes that make no sense, saying why", async () => {
    const db = bench.reset(); // a new episode
    const [charge] = unallowableCharges(initialView());
    const reason = { txn_id: charge!.txn_id, reason: "unallowable" };
    expect((await call("transfer_cost", reason)).error).toBe(false);
    expect((await call("transfer_cost", reason)).text).toContain("already transferred");
    const letter = db.prepare("SELECT doc_id FROM documents WHERE doc_type = 'award_letter'").pluck().get();
    const approve = { doc_id: letter, subaward_id: "SUB-0043", invoice_number: "X-1", amount: 10 };
    const refused = await call("approve_subaward_invoice", approve);
    expect(refused.text).toContain("is not a pending subaward invoice");
    const closed = db.prepare("SELECT award_id FROM awards WHERE status = 'closed'").pluck().get();
    const extend = { award_id: closed, new_end_date: "2026-06-30" };
    expect((await call("extend_award", extend)).text).toContain("only active awards are extended");
  });
});

describe("grants.transfer-unallowable-costs", () => {
  it("rewards exactly the unallowable charges moved, and fails one transfer too many", async () => {
    const expected = unallowableCharges(initialView());
    const db = bench.reset(); // a new episode
    for (const { txn_id } of expected) await call("transfer_cost", { txn_id, reason: "unallowable" });
    const total = expected.reduce((sum, charge) => sum + charge.amount, 0);
    const final = bench.view();
    const passes = async (answer: string): Promise<boolean> => {
      const context = { initial: initialView(), final, answer, scale: "v0", seed: 2 };
      return (await transferUnallowableCostsTask.verify(context)).every((item) => item.passed);
    };
    const answer = `Transferred ${expected.length} charges totalling $${total.toFixed(2)}`;
    expect(await passes(answer)).toBe(true);
    expect(await passes(`Transferred ${expected.length} charges totalling $${(total + 1).toFixed(2)}`)).toBe(
      false,
    );
    const allowed = db.prepare("SELECT txn_id FROM transactions WHERE object_code = '5310'").pluck().get();
    await call("transfer_cost", { txn_id: allowed, reason: "by mistake" });
    expect(await passes(answer)).toBe(false);
  });
});
