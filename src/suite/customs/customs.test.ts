import type Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSeededRandom } from "../../core/index.js";
import {
  hyphenate,
  listWorkspaceFiles,
  ocrConfuse,
  renderPages,
  openStateView,
  type Instance,
  openToolBench,
  type ToolBench,
} from "../../envs/index.js";
import { INVOICE_LINE, readRules, readShipments, valuate } from "./facts.js";
import { customsTasks } from "./index.js";
import { expectedEntries, fileEntriesTask } from "./tasks/file-entries.js";
import { customsTools } from "./tools.js";
let bench: ToolBench;
let instance: Instance;
let db: Database.Database;

beforeAll(() => {
  bench = openToolBench(fileEntriesTask, customsTools);
  ({ instance, db } = bench);
});

afterAll(() => bench.close());

describe("customs generator", () => {
  it("writes the four rule documents and nine advisories at v0", () => {
    const paths = listWorkspaceFiles(instance.workspaceDir);
    expect(paths).toEqual(
      expect.arrayContaining([
        "memos/duty-and-preference-rules.md",
        "memos/de-minimis.md",
        "rates/currency-rates-june-2025.md",
        "fees/broker-fee-schedule.md",
      ]),
    );
    expect(paths.filter((path) => path.startsWith("advisories/"))).toHaveLength(9);
  });

  it("prints every checked fact readably: each invoice's lines add up to its printed total", () => {
    const state = openStateView(instance.dbPath, instance.workspaceDir);
    const view = state.view;
    try {
      const shipments = readShipments(view);
      expect(shipments.length).toBe(21);
      for (const shipment of shipments) {
        const sum = shipment.lines.reduce((total, line) => total + line.amount, 0);
        expect(Math.abs(sum - shipment.total)).toBeLessThan(0.005);
        expect(shipment.lines.map((line) => line.no)).toEqual(shipment.lines.map((_, index) => index + 1));
      }
      expect(shipments.some((shipment) => valuate(shipment, readRules(view)).program !== null)).toBe(true);
      expect(expectedEntries(view).length).toBeGreaterThan(0);
    } finally {
      state.close();
    }
  });

  it("registers nine tasks, each exposing only known tools", () => {
    expect(customsTasks.length).toBeGreaterThanOrEqual(9);
    const names = new Set(customsTools.map((tool) => tool.name));
    for (const task of customsTasks) for (const tool of task.tools) expect(names.has(tool)).toBe(true);
  });
});

describe("OCR rendering", () => {
  it("hyphenates a word cut at the edge and keeps short lines whole", () => {
    expect(hyphenate("Portable computers aluminium housing", 26)).toEqual([
      "Portable computers",
      "aluminium housing",
    ]);
    expect(hyphenate("Supercalifragilisticexpialidocious", 12)).toEqual([
      "Supercalifr-",
      "agilisticex-",
      "pialidocious",
    ]);
  });

  it("confuses one character at most and frames every page with its page number", () => {
    const random = createSeededRandom(5);
    const noisy = ocrConfuse(random, "SOLO Ltd", 1);
    expect(noisy).toHaveLength("SOLO Ltd".length);
    const pages = renderPages({
      body: Array.from({ length: 5 }, (_, index) => [`line ${index + 1}`]),
      linesPerPage: 2,
      header: () => ["HEAD"],
      footer: (page, count) => [`Page ${page} of ${count}`],
      between: () => ["carried forward"],
      last: ["TOTAL"],
    });
    expect(pages).toHaveLength(3);
    expect(pages[0]).toBe("HEAD\nline 1\nline 2\ncarried forward\nPage 1 of 3");
    expect(pages[2]).toBe("HEAD\nline 5\nTOTAL\nPage 3 of 3");
  });
});

describe("customs tools", () => {
  it("paginates listings in the kit envelope", async () => {
    const first = await bench.value("list_shipments", { per_page: 5 });
    expect(Object.keys(first)).toEqual(["shipments", "page", "per_page", "total", "has_more"]);
    expect(first.total).toBe(21);
    expect(first.has_more).toBe(true);
    expect((await bench.value("list_shipments", { per_page: 5, page: 5 })).has_more).toBe(false);
  });

  it("teaches id formats and page ranges", async () => {
    expect(bench.errorText(await bench.call("get_shipment", { shipment_id: "12" }))).toContain(
      "shipment_id must look like SHP-00123",
    );
    expect(bench.errorText(await bench.call("get_document_page", { doc_id: "DOC-999999" }))).toContain(
      "use list_documents",
    );
    // A two-page document whose pages are not still processing (the fault answers before the range check).
    const doc = db
      .prepare(
        "SELECT doc_id, page_count FROM documents WHERE page_count = 2 AND CAST(substr(doc_id, 5) AS INTEGER) % 5 != 3 LIMIT 1",
      )
      .get() as {
      doc_id: string;
      page_count: number;
    };
    expect(
      bench.errorText(
        await bench.call("get_document_page", { doc_id: doc.doc_id, page: doc.page_count + 1 }),
      ),
    ).toContain(`has ${doc.page_count} page(s)`);
  });

  it("answers 'still processing' as an ordinary result on a second page, then the OCR text", async () => {
    const doc = db
      .prepare(
        "SELECT doc_id FROM documents WHERE page_count = 2 AND doc_type = 'commercial_invoice' LIMIT 1",
      )
      .get() as { doc_id: string };
    const first = await bench.call("get_document_page", { doc_id: doc.doc_id, page: 2 });
    expect(first.isError).toBeFalsy();
    expect((first.structuredContent as Record<string, unknown>).status).toBe("processing");
    const second = await bench.value("get_document_page", { doc_id: doc.doc_id, page: 2 });
    expect(second.status).toBe("ok");
    expect(String(second.text)).toMatch(/TOTAL INVOICE VALUE:\s+[A-Z]{3} [\d,]+\.\d{2}/);
    const page1 = await bench.value("get_document_page", { doc_id: doc.doc_id, page: 1 });
    expect(
      String(page1.text)
        .split("\n")
        .some((line) => INVOICE_LINE.test(line)),
    ).toBe(true);
    expect(String(page1.text)).toContain("Page subtotal carried forward");
  });

  it("fails a deeper document page once with a 503", async () => {
    const args = { per_page: 5, page: 2 };
    expect(bench.errorText(await bench.call("list_documents", args))).toContain("503 Service Unavailable");
    expect((await bench.value("list_documents", args)).page).toBe(2);
  });

  it("files entries only for arrived shipments and releases a hold once", async () => {
    const entered = db
      .prepare("SELECT shipment_id FROM shipments WHERE status = 'entered' LIMIT 1")
      .get() as { shipment_id: string };
    const args = { shipment_id: entered.shipment_id, entered_value_usd: 10, duty_usd: 1, line_count: 1 };
    expect(bench.errorText(await bench.call("file_entry", args))).toContain("only for arrived shipments");
    const hold = db.prepare("SELECT hold_id FROM holds WHERE released_on IS NOT NULL LIMIT 1").get() as
      { hold_id: string } | undefined;
    if (hold)
      expect(
        bench.errorText(await bench.call("release_hold", { hold_id: hold.hold_id, note: "again" })),
      ).toContain("already released");
  });
});
