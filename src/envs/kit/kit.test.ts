import Database from "better-sqlite3";
import { Faker, en } from "@faker-js/faker";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createSeededRandom } from "../../core/index.js";
import {
  bindTool,
  ToolFailure,
  decodeToolResult,
  defineTool,
  resultText,
  toolInputJsonSchema,
} from "../../runtime/index.js";
import {
  fingerprintFolder,
  kitSourceFingerprint,
  type DomainTool,
  type ToolContext,
} from "../define-domain.js";
import { answerListItems, answerObjectEntries } from "./answer-fields.js";
import { insertKeyedRow } from "./keyed-rows.js";
import { writeEmailsBySent } from "./email-folder.js";
import { callTool, instanceContents, openToolBench } from "./tool-bench.js";
import { PYTHON_HTML_HELPERS, escapeHtml, htmlElement, htmlFields, htmlLink, htmlTable } from "./html.js";
import { pythonFileLister, pythonPager, pythonRetryingCall } from "./python-pager.js";
import { variantTaskDefiner } from "./variant-tasks.js";
import type { DomainDefinition } from "../define-domain.js";
import type { StateView } from "../define-task.js";
import {
  addBusinessDays,
  addDays,
  earlierDate,
  laterDate,
  variantNearMisses,
  flagNearMisses,
  cachedStatement,
  checkAnswerAmounts,
  checkStateDiff,
  checkCountedWrites,
  daysBetween,
  defineGetTool,
  defineStatusTool,
  updateEntity,
  parseSiteUrl,
  queryListing,
  threadMessagesTable,
  defineIdFormat,
  prefixedId,
  defineListTool,
  optionalChoice,
  optionalDate,
  optionalInt,
  optionalText,
  isoDateSchema,
  formatUsd,
  listPage,
  longDate,
  markdownTable,
  MONTH_NAMES,
  checkAnswerCount,
  checkAnswerIdLists,
  checkAnswerTotal,
  checkAnswerIds,
  requireFile,
  insertRow,
  insertDrafts,
  groupBy,
  sumBy,
  draftsToCsv,
  checkAnswerTally,
  camelCaseName,
  monthEndAfter,
  PYTHON_MARKDOWN_HELPERS,
  ocrAmount,
  ocrAmountsIn,
  parseOcrAmount,
  PYTHON_OCR_HELPERS,
  renderPages,
  pagingFields,
  paginateItems,
  parseCsv,
  parseMarkdownTable,
  personName,
  previousMonth,
  randomDate,
  renderEmail,
  renderMarkdown,
  renderSnapshot,
  requireRow,
  roundCents,
  snapshotFields,
  snapshotLink,
  snapshotNode,
  snapshotTable,
  snapshotText,
  toCsv,
  toJsonDocument,
  weekdayName,
  when,
  withBooleans,
  withSilentFailures,
  withTransientFailures,
} from "../index.js";
import { requireEntity } from "./entity-rows.js";

const CALL_OPTIONS = { signal: new AbortController().signal, timeoutMs: 5_000 };
const opened: Database.Database[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

function storeDb(): Database.Database {
  const db = new Database(":memory:");
  opened.push(db);
  db.exec(`CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, tier TEXT NOT NULL, opt_in INTEGER NOT NULL);
           CREATE TABLE notes (id INTEGER PRIMARY KEY, customer_id INTEGER, body TEXT);
           CREATE TABLE audit (id INTEGER PRIMARY KEY, what TEXT);`);
  const insert = db.prepare("INSERT INTO customers (id, name, tier, opt_in) VALUES (?, ?, ?, ?)");
  for (let id = 1; id <= 45; id += 1)
    insert.run(id, `Customer ${id}`, id % 3 === 0 ? "gold" : "standard", id % 2);
  return db;
}

const listCustomers = defineTool({
  name: "list_customers",
  description: "List customers.",
  kind: "read",
  inputSchema: z.object({ tier: z.enum(["gold", "standard"]).optional(), ...pagingFields }),
  handler: ({ tier, page, per_page }, { db }: ToolContext) =>
    listPage(db, {
      key: "customers",
      from: "customers",
      select: "id, name, tier, opt_in",
      where: [when(tier, "tier = ?")],
      orderBy: "id",
      page,
      perPage: per_page,
      map: (row) => withBooleans(row, "opt_in"),
    }),
});

const customerId = defineIdFormat({
  field: "customer_id",
  entity: "customer",
  prefix: "C-",
  digits: 5,
  listTool: "list_customers",
});

const getCustomer = defineTool({
  name: "get_customer",
  description: "Get one customer.",
  kind: "read",
  inputSchema: z.object({ customer_id: customerId.schema("The customer") }),
  handler: ({ customer_id }, { db }: ToolContext) => {
    const row = requireRow(
      db,
      "SELECT * FROM customers WHERE id = ?",
      [Number(customer_id.slice(2))],
      customerId.notFound(customer_id).message,
    );
    return { customer: row };
  },
});

async function callText(
  tool: DomainTool,
  context: ToolContext,
  args: unknown,
): Promise<{ text: string; isError: boolean }> {
  const result = await bindTool(tool, context).call(args as Record<string, unknown>, CALL_OPTIONS);
  return {
    text: result.content.map((part) => ("text" in part ? part.text : "")).join(""),
    isError: !!result.isError,
  };
}

describe("listPage", () => {
  it("pages a filtered listing in the suite envelope, with every page adding up to the total", async () => {
    const context = { db: storeDb(), workspaceDir: "/nonexistent" };
    const first = JSON.parse((await callText(listCustomers, context, { tier: "gold", per_page: 10 })).text);
    expect(Object.keys(first)).toEqual(["customers", "page", "per_page", "total", "has_more"]);
    expect(first).toMatchObject({ page: 1, per_page: 10, total: 15, has_more: true });
    expect(first.customers[0]).toEqual({ id: 3, name: "Customer 3", tier: "gold", opt_in: true });
    const last = JSON.parse(
      (await callText(listCustomers, context, { tier: "gold", per_page: 10, page: 2 })).text,
    );
    expect(last).toMatchObject({ page: 2, total: 15, has_more: false });
    expect(last.customers).toHaveLength(5);
    const all = JSON.parse((await callText(listCustomers, context, { per_page: 50 })).text);
    expect(all.total).toBe(45);
    expect(all.has_more).toBe(false);
  });

  it("rejects a per_page above 50 with the expected range", async () => {
    const { text, isError } = await callText(
      listCustomers,
      { db: storeDb(), workspaceDir: "" },
      { per_page: 500 },
    );
    expect(isError).toBe(true);
    expect(text).toContain("per_page");
    expect(text).toContain("Expected: list_customers(");
  });

  it("declared with defineListTool, lists the same pages with filters before page and per_page", async () => {
    const declared = defineListTool({
      name: "list_customers",
      description: "List customers.",
      filters: { tier: z.enum(["gold", "standard"]).optional() },
      key: "customers",
      from: "customers",
      select: "id, name, tier, opt_in",
      where: ({ tier }) => [when(tier, "tier = ?")],
      orderBy: "id",
      map: (row) => withBooleans(row, "opt_in"),
    });
    expect(toolInputJsonSchema(declared.inputSchema)).toEqual(toolInputJsonSchema(listCustomers.inputSchema));
    expect(Object.keys(toolInputJsonSchema(declared.inputSchema).properties ?? {})).toEqual([
      "tier",
      "page",
      "per_page",
    ]);
    const context = { db: storeDb(), workspaceDir: "" };
    for (const args of [{ tier: "gold", per_page: 4, page: 2 }, {}])
      expect(await callText(declared, context, args)).toEqual(await callText(listCustomers, context, args));
  });

  it("derives the conditions from a where record, '=' standing for '<filter> = ?', in the record's order", async () => {
    const byRecord = defineListTool({
      name: "list_customers",
      description: "List customers.",
      filters: {
        tier: optionalChoice(["gold", "standard"], "Only customers in this tier"),
        name: optionalText("Exact name"),
        above: optionalInt("Only ids above this"),
      },
      key: "customers",
      from: "customers",
      select: "id, name, tier",
      where: { above: "id > ?", tier: "=" },
      orderBy: "id",
    });
    const context = { db: storeDb(), workspaceDir: "" };
    const page = JSON.parse(
      (await callText(byRecord, context, { tier: "gold", above: 30, per_page: 50 })).text,
    );
    expect(page.customers.map((row: { id: number }) => row.id)).toEqual([33, 36, 39, 42, 45]);
    expect(JSON.parse((await callText(byRecord, context, { name: "Customer 4" })).text).total).toBe(45);
    expect(toolInputJsonSchema(byRecord.inputSchema).properties?.tier).toEqual({
      type: "string",
      enum: ["gold", "standard"],
      description: "Only customers in this tier",
    });
    expect(() =>
      defineListTool({
        name: "list_x",
        description: "x",
        filters: { tier: optionalText("t") },
        key: "x",
        from: "customers",
        where: { tier: "=", teir: "tier = ?" } as never,
        orderBy: "id",
      }),
    ).toThrow("list tool 'list_x': where names no filter teir");
  });

  it("declares optional filters whose schemas are the long-hand ones", () => {
    const pairs = [
      [optionalText("a"), z.string().min(1).optional().describe("a")],
      [optionalInt("b"), z.number().int().optional().describe("b")],
      [optionalChoice(["x", "y"], "c"), z.enum(["x", "y"]).optional().describe("c")],
      [optionalDate("d"), isoDateSchema.optional().describe("d")],
    ] as const;
    for (const [short, long] of pairs)
      expect(z.toJSONSchema(z.object({ f: short }))).toEqual(z.toJSONSchema(z.object({ f: long })));
    expect(optionalDate("d").safeParse("2025-13").success).toBe(false);
  });

  it("pages in-memory items the same way", () => {
    const page = paginateItems("things", ["a", "b", "c", "d", "e"], 2, 2);
    expect(page).toEqual({ things: ["c", "d"], page: 2, per_page: 2, total: 5, has_more: true });
  });
});

describe("cachedStatement", () => {
  it("prepares one statement per SQL text per database handle", () => {
    const one = storeDb();
    const two = storeDb();
    const sql = "SELECT name FROM customers WHERE id = ?";
    expect(cachedStatement(one, sql)).toBe(cachedStatement(one, sql));
    expect(cachedStatement(one, sql)).not.toBe(cachedStatement(two, sql));
    expect(cachedStatement(two, sql).get(2)).toEqual({ name: "Customer 2" });
  });
});

describe("prefixedId", () => {
  it("is defineIdFormat with a prefix, digits and an optional list tool", () => {
    const invoice = prefixedId("invoice_id", "invoice", "INV-", 5, "list_invoices");
    expect(invoice.format(42)).toBe("INV-00042");
    expect(invoice.notFound("INV-00099").message).toContain("use list_invoices to find invoice ids");
    expect(prefixedId("code", "code", "C-", 2).notFound("C-01").message).not.toContain("use ");
  });
});

describe("defineIdFormat", () => {
  it("teaches the expected shape for a malformed id and names the list tool for an unknown one", async () => {
    const context = { db: storeDb(), workspaceDir: "" };
    const malformed = await callText(getCustomer, context, { customer_id: "42" });
    expect(malformed.isError).toBe(true);
    expect(malformed.text).toContain("field 'customer_id': customer_id must look like C-00123");
    const unknown = await callText(getCustomer, context, { customer_id: "C-00999" });
    expect(unknown).toEqual({
      text: "Error: customer C-00999 not found; use list_customers to find customer ids",
      isError: true,
    });
    const found = JSON.parse((await callText(getCustomer, context, { customer_id: "C-00007" })).text);
    expect(found.customer.name).toBe("Customer 7");
  });

  it("formats and parses ids, and refuses a definition whose example does not match", () => {
    expect(customerId.format(123)).toBe("C-00123");
    expect(customerId.parse("C-00123")).toBe("C-00123");
    expect(() => customerId.parse("C-123")).toThrow("customer_id must look like C-00123");
    expect(() => customerId.format(123456)).toThrow("does not fit");
    expect(() =>
      defineIdFormat({ field: "sku", entity: "product", pattern: /^[A-Z]{3}-\d{4}$/, example: "ab-1" }),
    ).toThrow("does not match");
  });

  it("reads the highest id in a table and gives the next", () => {
    const db = new Database(":memory:");
    opened.push(db);
    db.exec("CREATE TABLE accounts (customer_id TEXT, ref TEXT)");
    expect(customerId.highest(db, "accounts")).toBe(0);
    expect(customerId.next(db, "accounts")).toBe("C-00001");
    db.exec("INSERT INTO accounts VALUES ('C-00009', 'C-00120'), ('C-00102', 'C-00003')");
    expect(customerId.next(db, "accounts")).toBe("C-00103");
    expect(customerId.next(db, "accounts", "ref")).toBe("C-00121");
  });
});

describe("defineGetTool", () => {
  it("answers like the hand-written get tool: same schema, the row under its key, the same errors", async () => {
    const declared = defineGetTool({
      name: "get_customer",
      description: "Get one customer.",
      input: { customer_id: customerId.schema("The customer") },
      key: "customer",
      from: "customers",
      idColumn: "id",
      normalizeId: (id) => Number(id.slice(2)),
      notFound: customerId,
    });
    expect(declared.kind).toBe("read");
    expect(toolInputJsonSchema(declared.inputSchema)).toEqual(toolInputJsonSchema(getCustomer.inputSchema));
    const context = { db: storeDb(), workspaceDir: "" };
    for (const args of [{ customer_id: "C-00007" }, { customer_id: "C-00999" }, { customer_id: "7" }, {}])
      expect(await callText(declared, context, args)).toEqual(await callText(getCustomer, context, args));
  });

  it("maps the row and appends the related keys in order, each bound to the id looked up", async () => {
    const db = storeDb();
    db.exec("INSERT INTO notes (customer_id, body) VALUES (4, 'second'), (3, 'other'), (4, 'first')");
    const getWithNotes = defineGetTool({
      name: "get_customer",
      description: "Get one customer with notes.",
      input: { id: z.number().int() },
      key: "customer",
      from: "customers",
      select: "id, name, opt_in",
      map: (row) => withBooleans(row, "opt_in"),
      notFound: (id) => `customer ${id} not found; use list_customers`,
      related: {
        notes: "SELECT body FROM notes WHERE customer_id = ? ORDER BY body",
        note_count: (handle, id, row) => ({
          id,
          name: row.name,
          count: handle.prepare("SELECT COUNT(*) AS n FROM notes WHERE customer_id = ?").get(id),
        }),
      },
    });
    const context = { db, workspaceDir: "" };
    const found = await callText(getWithNotes, context, { id: 4 });
    expect(Object.keys(JSON.parse(found.text))).toEqual(["customer", "notes", "note_count"]);
    expect(JSON.parse(found.text)).toEqual({
      customer: { id: 4, name: "Customer 4", opt_in: false },
      notes: [{ body: "first" }, { body: "second" }],
      note_count: { id: 4, name: "Customer 4", count: { n: 2 } },
    });
    expect(await callText(getWithNotes, context, { id: 99 })).toEqual({
      text: "Error: customer 99 not found; use list_customers",
      isError: true,
    });
  });

  it("without a key returns the row's columns, and refuses an input that is not exactly one argument", async () => {
    const getRaw = defineGetTool({
      name: "get_customer_row",
      description: "Get one customer's columns.",
      input: { customer_id: z.number().int() },
      from: "customers",
      select: "name, tier",
      idColumn: "id",
      notFound: (id) => `customer ${id} not found`,
    });
    const context = { db: storeDb(), workspaceDir: "" };
    expect(JSON.parse((await callText(getRaw, context, { customer_id: 3 })).text)).toEqual({
      name: "Customer 3",
      tier: "gold",
    });
    const base = { name: "get_x", description: "x", from: "customers", notFound: () => "missing" };
    expect(() => defineGetTool({ ...base, input: {} })).toThrow("exactly one argument, the id (got none)");
    expect(() => defineGetTool({ ...base, input: { a: z.number(), b: z.number() } })).toThrow("(got a, b)");
  });
});

describe("defineStatusTool and updateEntity", () => {
  const ticketId = defineIdFormat({ field: "ticket_id", entity: "ticket", prefix: "T-", digits: 3 });
  const ticketsDb = (): Database.Database => {
    const db = new Database(":memory:");
    opened.push(db);
    db.exec(`CREATE TABLE tickets (ticket_id TEXT PRIMARY KEY, status TEXT NOT NULL, note TEXT, seq INTEGER);
             INSERT INTO tickets VALUES ('T-001', 'open', NULL, 1), ('T-002', 'closed', 'done', 2),
                                        ('T-003', 'waiting', NULL, 3);`);
    return db;
  };
  const handWritten = defineTool({
    name: "close_ticket",
    description: "Close an open or waiting ticket. Returns `ticket`.",
    kind: "write",
    inputSchema: z.object({
      ticket_id: ticketId.schema("The ticket"),
      note: z.string().min(3).describe("Why it is closed"),
    }),
    handler: ({ ticket_id, note }, { db }: ToolContext) => {
      const row = requireRow<{ status: string }>(
        db,
        "SELECT * FROM tickets WHERE ticket_id = ?",
        [ticket_id],
        ticketId.notFound(ticket_id).message,
      );
      if (row.status !== "open" && row.status !== "waiting")
        throw new ToolFailure(
          `ticket ${ticket_id} is ${row.status}; only open or waiting tickets can be closed`,
        );
      db.prepare("UPDATE tickets SET status = 'closed', note = ? WHERE ticket_id = ?").run(
        note.trim(),
        ticket_id,
      );
      return { ticket: db.prepare("SELECT * FROM tickets WHERE ticket_id = ?").get(ticket_id) };
    },
  });
  const declared = defineStatusTool({
    name: "close_ticket",
    description: "Close an open or waiting ticket. Returns `ticket`.",
    id: ticketId,
    idDescription: "The ticket",
    input: { note: z.string().min(3).describe("Why it is closed") },
    table: "tickets",
    from: ["open", "waiting"],
    refusal: (id, status) => `ticket ${id} is ${status}; only open or waiting tickets can be closed`,
    set: ({ note }) => ({ status: "closed", note: note.trim() }),
    key: "ticket",
  });

  it("answers and writes like the hand-written tool: same schema, results, refusals and state", async () => {
    expect(declared.kind).toBe("write");
    expect(toolInputJsonSchema(declared.inputSchema)).toEqual(toolInputJsonSchema(handWritten.inputSchema));
    const [mine, theirs] = [ticketsDb(), ticketsDb()];
    const calls = [
      { ticket_id: "T-001", note: "  fixed " },
      { ticket_id: "T-001", note: "again" },
      { ticket_id: "T-002", note: "closed already" },
      { ticket_id: "T-003", note: "answered" },
      { ticket_id: "T-009", note: "missing" },
      { ticket_id: "9", note: "bad id" },
      { ticket_id: "T-003", note: "x" },
    ];
    const answers = [];
    for (const args of calls) {
      const answer = await callText(declared, { db: mine, workspaceDir: "" }, args);
      expect(answer).toEqual(await callText(handWritten, { db: theirs, workspaceDir: "" }, args));
      answers.push(answer);
    }
    expect(JSON.parse(answers[0]!.text)).toEqual({
      ticket: { ticket_id: "T-001", status: "closed", note: "fixed", seq: 1 },
    });
    expect(answers[1]!.text).toBe(
      "Error: ticket T-001 is closed; only open or waiting tickets can be closed",
    );
    expect(answers[4]!.text).toBe("Error: ticket T-009 not found");
    const dump = (db: Database.Database): unknown =>
      db.prepare("SELECT * FROM tickets ORDER BY ticket_id").all();
    expect(dump(mine)).toEqual(dump(theirs));
  });

  it("updateEntity sets the columns in order and returns the row after; an empty change is refused", () => {
    const db = ticketsDb();
    expect(updateEntity(db, "tickets", ticketId, "T-003", { note: "n", seq: 7 })).toEqual({
      ticket_id: "T-003",
      status: "waiting",
      note: "n",
      seq: 7,
    });
    expect(() => updateEntity(db, "tickets", ticketId, "T-003", {})).toThrow("nothing to set");
    expect(() => defineStatusTool({ ...declared, from: [] } as never)).toThrow("'from' names no status");
  });
});

describe("threadMessagesTable", () => {
  it("creates a message table whose columns are a ThreadMessage's, tied to its threads table", () => {
    const db = new Database(":memory:");
    opened.push(db);
    db.exec(
      `CREATE TABLE desk_threads (thread_id TEXT PRIMARY KEY); ${threadMessagesTable("desk_mail", "desk_threads")}`,
    );
    const columns = (db.prepare("PRAGMA table_info(desk_mail)").all() as Array<{ name: string }>).map(
      (c) => c.name,
    );
    expect(columns).toEqual([
      "message_id",
      "thread_id",
      "sent_at",
      "from_name",
      "from_email",
      "to_email",
      "style",
      "body",
      "attachment_name",
      "attachment_text",
    ]);
    expect(db.prepare("PRAGMA foreign_key_list(desk_mail)").get()).toMatchObject({ table: "desk_threads" });
  });
});

describe("parseSiteUrl and queryListing", () => {
  const ORIGIN = "https://shop.example";
  const parse = (raw: string) =>
    parseSiteUrl(raw, ORIGIN, {
      invalid: (text) => `'${text}' is not a URL`,
      blocked: "only the shop opens",
    });
  const listing = {
    from: "customers",
    select: "id, tier",
    orderBy: "id",
    filters: {
      tier: { sql: "tier = ?", values: ["gold", "standard"] },
      above: { sql: "id > ?", values: /^\d+$/ },
    },
    pageSize: 10,
    term: "filter",
  };

  it("reads a path and query on the site's origin and refuses other origins and non-URLs", () => {
    expect(parse(" /customers/?tier=gold ")).toMatchObject({
      path: "/customers",
      url: "/customers?tier=gold",
    });
    expect(parse("https://shop.example/").path).toBe("/");
    expect(() => parse("https://elsewhere.example/customers")).toThrow("only the shop opens");
    expect(() => parse("http://[::1")).toThrow("'http://[::1' is not a URL");
  });

  it("pages a filtered listing and answers 400 for unknown keys, bad values and bad pages", () => {
    const db = storeDb();
    const gold = queryListing(db, parse("/customers?tier=gold&page=2"), listing);
    expect([gold.total, gold.page, gold.first, gold.rows.length]).toEqual([15, 2, 11, 5]);
    expect(gold.rows[0]).toEqual({ id: 33, tier: "gold" });
    expect(gold.pageUrl(3)).toBe("/customers?tier=gold&page=3");
    expect(queryListing(db, parse("/customers?above=40"), listing).rows.map((row) => row.id)).toEqual([
      41, 42, 43, 44, 45,
    ]);
    expect(() => queryListing(db, parse("/customers?colour=red"), listing)).toThrow(
      "400 Bad Request: /customers has no filter 'colour'; filters: tier, above, page",
    );
    expect(() => queryListing(db, parse("/customers?tier=silver"), listing)).toThrow(
      "400 Bad Request: tier='silver' is not valid; one of gold, standard",
    );
    expect(() => queryListing(db, parse("/customers?above=x"), listing)).toThrow(
      "400 Bad Request: above='x' is not valid",
    );
    expect(() => queryListing(db, parse("/customers?page=0"), listing)).toThrow(
      "page must be a positive integer",
    );
  });
});

describe("documents", () => {
  it("writes CSV that reads back to the same values, quoting only where needed", () => {
    const csv = toCsv(
      ["id", "note", "amount"],
      [
        [1, 'says "hi", twice', 2.5],
        [2, "line\nbreak", null],
      ],
    );
    expect(csv.split("\n")[0]).toBe("id,note,amount");
    expect(csv).toContain('1,"says ""hi"", twice",2.5');
    expect(parseCsv(csv)).toEqual([
      { id: "1", note: 'says "hi", twice', amount: "2.5" },
      { id: "2", note: "line\nbreak", amount: "" },
    ]);
    expect(parseCsv(" id , name \r\n\r\n 1 , Ann \r\n", { trim: true })).toEqual([{ id: "1", name: "Ann" }]);
  });

  it("renders an e-mail: headers in order, a blank line, paragraphs apart, a final newline", () => {
    const text = renderEmail(
      { From: "Ann Lee <ann@example.com>", Sent: "2025-06-02 09:15", Subject: "Hold" },
      ["Hello,", "Please hold lot L-1.", "Thanks,\nAnn"],
    );
    expect(text).toBe(
      "From: Ann Lee <ann@example.com>\nSent: 2025-06-02 09:15\nSubject: Hold\n\nHello,\n\nPlease hold lot L-1.\n\nThanks,\nAnn\n",
    );
    expect(text.split("\n\n").slice(1).join("\n\n")).toBe("Hello,\n\nPlease hold lot L-1.\n\nThanks,\nAnn\n");
    expect(renderEmail({ Subject: "One line" }, "Body")).toBe("Subject: One line\n\nBody\n");
  });

  it("names the months as memos write them", () => {
    expect(MONTH_NAMES).toHaveLength(12);
    for (const [index, name] of MONTH_NAMES.entries())
      expect(longDate(`2025-${String(index + 1).padStart(2, "0")}-09`)).toBe(`${name} 9, 2025`);
  });

  it("renders Markdown with tables that parse back under their heading", () => {
    const text = renderMarkdown("Policy", [
      "Effective 2025-01-01.",
      { heading: "Windows" },
      {
        table: {
          headers: ["tier", "days"],
          rows: [
            ["gold", 60],
            ["standard", 30],
          ],
        },
      },
      { bullets: ["one", "two"] },
    ]);
    expect(
      text.startsWith("# Policy\n\nEffective 2025-01-01.\n\n## Windows\n\n| tier | days |\n| --- | --- |"),
    ).toBe(true);
    expect(text.endsWith("- one\n- two\n")).toBe(true);
    expect(parseMarkdownTable(text, "Windows")).toEqual([
      ["gold", "60"],
      ["standard", "30"],
    ]);
    expect(markdownTable(["a"], [[1]])).toBe("| a |\n| --- |\n| 1 |");
    expect(() => parseMarkdownTable(text, "Missing")).toThrow("no heading containing 'Missing'");
    expect(toJsonDocument({ a: [1] })).toBe('{\n  "a": [\n    1\n  ]\n}\n');
  });
});

describe("seeded values", () => {
  it("give the same names, dates and amounts for the same seed", () => {
    const draw = (seed: number) => {
      const faker = new Faker({ locale: [en] });
      faker.seed(seed);
      const random = createSeededRandom(seed);
      const taken = new Set<string>();
      return {
        people: Array.from({ length: 30 }, () => personName(faker, "example.com", taken)),
        date: randomDate(random, "2025-01-01", "2025-01-31"),
      };
    };
    const first = draw(7);
    expect(draw(7)).toEqual(first);
    expect(new Set(first.people.map((person) => person.email)).size).toBe(30);
    expect(first.people[0]!.email).toMatch(/^[a-z0-9]+\.[a-z0-9]+\d*@example\.com$/);
    expect(first.date >= "2025-01-01" && first.date <= "2025-01-31").toBe(true);
  });

  it("do calendar and money arithmetic in whole UTC days and cents", () => {
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(daysBetween("2025-01-01", "2025-03-01")).toBe(59);
    expect(weekdayName("2025-06-30")).toBe("Monday");
    expect(addBusinessDays("2025-06-27", 1)).toBe("2025-06-30");
    expect(addBusinessDays("2025-06-27", 2, new Set(["2025-06-30"]))).toBe("2025-07-02");
    expect(previousMonth("2025-01-15")).toEqual({
      start: "2024-12-01",
      end: "2024-12-31",
      label: "December 2024",
      key: "2024-12",
    });
    expect(roundCents(1.005)).toBe(1.01);
    expect(formatUsd(1234.5)).toBe("$1,234.50");
    expect(formatUsd(-12)).toBe("-$12.00");
  });
});

describe("checkStateDiff", () => {
  function states() {
    const initial = storeDb();
    const final = storeDb();
    return { initial, final };
  }

  it("passes exactly the expected change and fails a wrong value, a missing change and collateral changes", () => {
    const expectation = [
      { table: "customers", key: "id", changed: new Map([[3, { tier: "standard" }]]) },
      { table: "notes", key: "id", added: [{ customer_id: 3 }] },
    ];
    const good = states();
    good.final.prepare("UPDATE customers SET tier = 'standard' WHERE id = 3").run();
    good.final.prepare("INSERT INTO notes (customer_id, body) VALUES (3, 'downgraded')").run();
    const passing = checkStateDiff(good.initial, good.final, expectation);
    expect(passing.every((item) => item.passed)).toBe(true);
    expect(passing.map((item) => item.id)).toContain("no-collateral-changes");

    const wrong = states();
    wrong.final.prepare("UPDATE customers SET tier = 'gold', name = 'X' WHERE id = 3").run();
    wrong.final.prepare("UPDATE customers SET tier = 'gold' WHERE id = 4").run();
    wrong.final.prepare("INSERT INTO audit (what) VALUES ('oops')").run();
    const failing = checkStateDiff(wrong.initial, wrong.final, expectation);
    const failed = Object.fromEntries(
      failing.filter((item) => !item.passed).map((item) => [item.id, item.message]),
    );
    expect(failed["customers-changed"]).toContain("customers 3.tier is 'gold', expected 'standard'");
    expect(failed["customers-changed"]).toContain("customers 3.name changed");
    expect(failed["customers-changed"]).toContain("rows changed that should not be: 4");
    expect(failed["notes-added"]).toContain('missing notes rows: {"customer_id":3}');
    expect(failed["no-collateral-changes"]).toContain("audit");

    const none = states();
    const untouched = checkStateDiff(none.initial, none.final, expectation);
    expect(untouched.find((item) => item.id === "customers-changed")?.message).toContain(
      "customers 3 did not change",
    );
  });
});

describe("tool faults", () => {
  it("fail transiently with an MCP error the first time a matching call is made, per episode", async () => {
    const flaky = withTransientFailures(listCustomers, { when: (input) => input.page === 2 });
    const context = { db: storeDb(), workspaceDir: "" };
    expect((await callText(flaky, context, { page: 1 })).isError).toBe(false);
    expect(await callText(flaky, context, { page: 2 })).toEqual({
      text: "Error: 503 Service Unavailable: list_customers is temporarily unavailable, retry the same call",
      isError: true,
    });
    expect((await callText(flaky, context, { page: 2 })).isError).toBe(false);
    // Another episode (another database handle) counts afresh.
    expect((await callText(flaky, { db: storeDb(), workspaceDir: "" }, { page: 2 })).isError).toBe(true);
  });

  it("fail silently: an error body without isError that decodes as an ordinary value", async () => {
    const silent = withSilentFailures(listCustomers, { failures: 2 });
    const context = { db: storeDb(), workspaceDir: "" };
    const result = await bindTool(silent, context).call({}, CALL_OPTIONS);
    expect(result.isError).toBeFalsy();
    const decoded = decodeToolResult(result);
    expect(decoded).toEqual({
      ok: true,
      value: {
        status: "error",
        error: "upstream timeout: list_customers returned no data, retry the request",
      },
    });
    expect((await callText(silent, context, {})).text).toContain('"status":"error"');
    expect(JSON.parse((await callText(silent, context, {})).text).total).toBe(45);
  });
});

describe("accessibility snapshots", () => {
  it("prints roles, JSON-quoted names, refs for interactive nodes in order, links and leaf texts", () => {
    const page = renderSnapshot([
      snapshotNode("main", undefined, [
        snapshotText('Say "hi"'),
        snapshotTable("Rows", ["Id", "Name"], [[snapshotLink("A-1", "/a/1"), "Ann"]]),
        snapshotFields([["Status", "Open"]]),
        snapshotNode("textbox", "Date", undefined, { name: "date" }),
      ]),
    ]);
    expect(page.split("\n")).toEqual([
      "- main:",
      '  - text: "Say \\"hi\\""',
      '  - table "Rows":',
      "    - row:",
      '      - columnheader "Id"',
      '      - columnheader "Name"',
      "    - row:",
      "      - cell:",
      '        - link "A-1" [ref=e1] -> /a/1',
      '      - cell "Ann"',
      '  - list "Details":',
      '    - term: "Status"',
      '    - definition: "Open"',
      '  - textbox "Date" [name=date] [ref=e2]',
    ]);
  });
});

describe("checkAnswerAmounts", () => {
  it("passes exactly the expected keys within the tolerance and names what differs", () => {
    const expected = new Map([
      ["PLR", 120.5],
      ["REI", 95],
    ]);
    expect(checkAnswerAmounts("a", 'Totals: {"PLR": "$120.50", "REI": 95.004}', expected).passed).toBe(true);
    const wrong = checkAnswerAmounts("a", '{"PLR": 120.4, "TEC": 1}', expected);
    expect(wrong.passed).toBe(false);
    expect(wrong.message).toBe("PLR: expected 120.5, got 120.4; missing REI; unexpected TEC");
    expect(checkAnswerAmounts("a", "no json", expected).passed).toBe(false);
  });
});

describe("answer checks", () => {
  it("read a reply's last dollar amount, its first count and a JSON map of id sets", () => {
    const reply = "Moved $12.50 and $100; total $1,112.50 in 3 charges";
    expect(checkAnswerTotal(reply, 1112.5).passed).toBe(true);
    expect(checkAnswerTotal(reply, 1112.49).passed).toBe(true);
    expect(checkAnswerTotal(reply, 1112.48).message).toBe("expected $1112.48, got 1112.50");
    expect(checkAnswerTotal("no amount", 0).passed).toBe(false);
    expect(checkAnswerTotal("Posted €12.00 and €3.50: €15.50 in all", 15.5, "€").passed).toBe(true);
    expect(checkAnswerTotal("€15.50 ($16.90)", 15.5).message).toBe("expected $15.50, got 16.90");
    expect(checkAnswerIds('["inv-2", "INV-1"]', ["INV-1", "INV-2"]).passed).toBe(true);
    expect(checkAnswerIds("INV-1", ["INV-1", "INV-2"]).message).toBe('expected ["INV-1","INV-2"]');
    expect(requireFile({ readFile: () => "text" }, "a.md")).toBe("text");
    expect(() => requireFile({ readFile: () => null }, "rules/a.md")).toThrow(
      "workspace file rules/a.md is missing",
    );
    expect(checkAnswerCount("Recoded AWD-10007 and INV-42: 2 charges", 2).passed).toBe(true);
    expect(checkAnswerCount("Recoded 3 charges", 2).message).toBe("expected 2, got 3");
    const expected = new Map([["A", ["x", "y"]]]);
    expect(checkAnswerIdLists('{"A": ["y", "x", "x"]}', expected).passed).toBe(true);
    expect(checkAnswerIdLists('{"A": ["x"], "B": []}', expected).message).toBe(
      "A: expected x,y, got x; unexpected B",
    );
    expect(checkAnswerIdLists("none", expected).passed).toBe(false);
  });
});

describe("insertRow and monthEndAfter", () => {
  it("insert a row and return it as stored, key and defaults filled in", () => {
    const db = storeDb();
    expect(insertRow(db, "notes", { customer_id: 3, body: "called" })).toEqual({
      id: 1,
      customer_id: 3,
      body: "called",
    });
    expect(insertRow(db, "notes", { body: "again" })).toEqual({ id: 2, customer_id: null, body: "again" });
  });

  it("give the last day of a later month, leap years included", () => {
    expect(monthEndAfter("2025-01-15", 0)).toBe("2025-01-31");
    expect(monthEndAfter("2024-01-31", 1)).toBe("2024-02-29");
    expect(monthEndAfter("2025-08-31", 6)).toBe("2026-02-28");
    expect(monthEndAfter("2025-12-01", -1)).toBe("2025-11-30");
  });
});

describe("OCR text", () => {
  it("misreads amounts in ways the readers undo and a naive pattern does not", () => {
    const random = createSeededRandom(5);
    const lines: string[] = [];
    let naiveMisses = 0;
    for (let n = 0; n < 200; n += 1) {
      const value = random.int(1000, 9_999_999) / 100;
      const text = ocrAmount(random, value, { probability: 1 });
      if (value >= 10) expect(text).not.toBe(value.toLocaleString("en-US", { minimumFractionDigits: 2 }));
      expect(parseOcrAmount(text)).toBe(value);
      const line = `Equipment    $ ${text}      ${text}   Page 2 of 3`;
      expect(ocrAmountsIn(line)).toEqual([value, value]);
      lines.push(line);
      const naive = /([\d,]+\.\d{2})/.exec(line)?.[1]?.replace(/,/g, "");
      if (Number(naive) !== value) naiveMisses += 1;
    }
    expect(naiveMisses).toBeGreaterThan(150);
    expect(ocrAmountsIn("Total 12.50, lab 3.00, I 0.5")).toEqual([12.5, 3]);
    expect(ocrAmount(random, 12_450, { probability: 1, kind: "split" })).toMatch(/^\d[\d,]* [\d,]+\.00$/);
    expect(ocrAmount(random, 12_450, { probability: 1, kind: "zero" })).toBe("12,45O.00");
    expect(parseOcrAmount("n/a")).toBeNull();
    // The Python reader oracles use agrees with the TypeScript one verifiers use.
    const program = `import json, re\n${PYTHON_OCR_HELPERS}\nprint(json.dumps([ocr_amounts(l) for l in json.loads(input())]))`;
    const output = execFileSync("python3", ["-c", program], { input: `${JSON.stringify(lines)}\n` });
    expect(JSON.parse(output.toString())).toEqual(lines.map(ocrAmountsIn));
  });

  it("reads Markdown tables in Python as parseMarkdownTable does", () => {
    const text = renderMarkdown("Rates", [
      { heading: "Caps" },
      "Intro.",
      {
        table: {
          headers: ["who", "cap"],
          rows: [
            ["faculty", "90%"],
            ["staff", 100],
          ],
        },
      },
      { heading: "Other" },
      { table: { headers: ["a"], rows: [["b"]] } },
    ]);
    const program = `import json, re\n${PYTHON_MARKDOWN_HELPERS}\nprint(json.dumps(md_table(json.loads(input()), "Caps")))`;
    const output = execFileSync("python3", ["-c", program], { input: `${JSON.stringify(text)}\n` });
    expect(JSON.parse(output.toString())).toEqual(parseMarkdownTable(text, "Caps"));
    expect(parseMarkdownTable(text, "Caps")).toEqual([
      ["faculty", "90%"],
      ["staff", "100"],
    ]);
  });

  it("breaks pages between blocks, framing each with its header and footer", () => {
    const pages = renderPages({
      body: [["a1", "a2"], ["b1", "b2"], ["c1"]],
      linesPerPage: 3,
      header: (page, count) => [`HEADER ${page}/${count}`],
      footer: (page, count) => [`Page ${page} of ${count}`],
      between: () => ["(continued)"],
      last: ["END"],
    });
    expect(pages).toEqual([
      "HEADER 1/2\na1\na2\n(continued)\nPage 1 of 2",
      "HEADER 2/2\nb1\nb2\nc1\nEND\nPage 2 of 2",
    ]);
  });
});

describe("rendered HTML", () => {
  it("escapes text and reads tables, fields, links, forms and alerts back in Python", () => {
    const html = [
      "<script>var x = '<td>noise</td>';</script>",
      htmlTable(
        "items",
        "Items",
        ["Id", "Name"],
        [[htmlLink("/items/1", "A-1", { rel: "next" }), escapeHtml('Tom & "Jerry" <3')]],
      ),
      htmlFields([["Status", "Open"]]),
      htmlElement(
        "form",
        { action: "/go", method: "post" },
        htmlElement("input", { type: "hidden", name: "t", value: "x1" }),
      ),
      htmlElement("div", { role: "alert", hidden: false }, "Bad amount"),
    ].join("\n");
    expect(html).toContain("Tom &amp; &quot;Jerry&quot; &lt;3");
    expect(html).not.toContain("hidden=");
    const program = `import json\n${PYTHON_HTML_HELPERS}\nd = Doc(input())\nprint(json.dumps([d.rows("items"), d.fields, d.forms, d.alerts, d.next_url()]))`;
    const output = execFileSync("python3", ["-c", program], {
      input: `${html.replace(/\n/g, " ")}\n`,
    });
    expect(JSON.parse(output.toString())).toEqual([
      [{ Id: "A-1", Name: 'Tom & "Jerry" <3', _links: ["/items/1"] }],
      { Status: "Open" },
      { "/go": { t: "x1" } },
      ["Bad amount"],
      "/items/1",
    ]);
  });
});

describe("instance keys", () => {
  it("fingerprint source folders by content, ignoring tests, and include the kit's sources", () => {
    const folder = mkdtempSync(join(tmpdir(), "kit-fingerprint-"));
    try {
      writeFileSync(join(folder, "a.ts"), "export const a = 1;\n");
      const before = fingerprintFolder(folder);
      writeFileSync(join(folder, "a.test.ts"), "test\n");
      expect(fingerprintFolder(folder)).toBe(before);
      writeFileSync(join(folder, "a.ts"), "export const a = 2;\n");
      expect(fingerprintFolder(folder)).not.toBe(before);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    expect(kitSourceFingerprint()).toBe(fingerprintFolder(new URL(".", import.meta.url).pathname));
  });
});

describe("earlierDate and laterDate", () => {
  it("pick the earlier and the later of two ISO dates", () => {
    expect(earlierDate("2024-03-01", "2024-02-29")).toBe("2024-02-29");
    expect(laterDate("2024-03-01", "2024-02-29")).toBe("2024-03-01");
    expect(earlierDate("2024-05-05", "2024-05-05")).toBe("2024-05-05");
  });
});

describe("variantNearMisses", () => {
  it("builds one near-miss per entry, in order, from the full variant with the entry's change", () => {
    const cells = (variant: { cap: boolean; window: number }) => [
      `cap=${variant.cap} window=${variant.window}`,
    ];
    expect(
      variantNearMisses(
        cells,
        { cap: true, window: 90 },
        {
          "ignores-cap": [{ cap: false }, "No cap."],
          "short-window": [{ window: 30 }, "A shorter window."],
        },
      ),
    ).toEqual([
      { id: "ignores-cap", description: "No cap.", cells: ["cap=false window=90"] },
      { id: "short-window", description: "A shorter window.", cells: ["cap=true window=30"] },
    ]);
  });
});

describe("flagNearMisses", () => {
  it("builds one near-miss per row, in order, from the row's flags or, without flags, its id", () => {
    const cells = (flags: string[]) => [`NEAR = ${JSON.stringify(flags)}`];
    expect(
      flagNearMisses(cells, [
        ["no-retry", "Gives up on a 503."],
        ["sent-date", "Files by the sent date.", "sent-date", "no-dedupe"],
      ]),
    ).toEqual([
      { id: "no-retry", description: "Gives up on a 503.", cells: ['NEAR = ["no-retry"]'] },
      {
        id: "sent-date",
        description: "Files by the sent date.",
        cells: ['NEAR = ["sent-date","no-dedupe"]'],
      },
    ]);
  });
});

describe("requireEntity", () => {
  it("returns the row by its id field, or throws the id format's not-found failure", () => {
    const db = new Database(":memory:");
    db.exec("CREATE TABLE orders (order_id TEXT PRIMARY KEY, status TEXT, total REAL)");
    db.prepare("INSERT INTO orders VALUES ('O-001', 'open', 12.5)").run();
    const orderId = defineIdFormat({
      field: "order_id",
      entity: "order",
      prefix: "O-",
      digits: 3,
      listTool: "list_orders",
    });
    expect(requireEntity(db, "orders", orderId, "O-001")).toEqual({
      order_id: "O-001",
      status: "open",
      total: 12.5,
    });
    expect(requireEntity(db, "orders", orderId, "O-001", "status")).toEqual({ status: "open" });
    expect(() => requireEntity(db, "orders", orderId, "O-002")).toThrow(
      "order O-002 not found; use list_orders to find order ids",
    );
    db.close();
  });
});

describe("list checks (check-lists.ts)", () => {
  it("checkNone passes on nothing found and names what was found", async () => {
    const { checkNone } = await import("./check-lists.js");
    const describe = (ids: readonly number[]): string => `stray: ${ids.join(", ")}`;
    expect(checkNone("rows", [], "clean", describe)).toMatchObject({
      id: "rows",
      passed: true,
      message: "clean",
    });
    expect(checkNone("rows", [3, 4], "clean", describe)).toMatchObject({
      passed: false,
      message: "stray: 3, 4",
    });
  });

  it("compareAnswerAmounts names missing, extra and wrong ids", async () => {
    const { compareAnswerAmounts } = await import("./check-lists.js");
    const expected = new Map([
      ["MRN-1", 212.5],
      ["MRN-2", 130],
    ]);
    expect(compareAnswerAmounts('{" mrn-1": "$212.50", "MRN-3": 5}', expected)).toEqual({
      missing: ["MRN-2"],
      extra: ["MRN-3"],
      wrong: [],
    });
    expect(compareAnswerAmounts('{"MRN-1": 212.4, "MRN-2": 130}', expected)?.wrong).toEqual([
      "MRN-1: expected 212.50, got 212.4",
    ]);
    expect(compareAnswerAmounts("[1, 2]", expected)).toBeNull();
  });

  it("keysChangedBeyond names rows where a column outside the allowed ones changed", async () => {
    const { keysChangedBeyond } = await import("./check-lists.js");
    const changes = [
      { key: "1", before: { id: 1, status: "open", amount: 5 }, after: { id: 1, status: "paid", amount: 5 } },
      { key: "2", before: { id: 2, status: "open", amount: 5 }, after: { id: 2, status: "paid", amount: 7 } },
    ];
    expect(keysChangedBeyond(changes, ["status"])).toEqual(["2"]);
    expect(keysChangedBeyond(changes, ["status", "amount"])).toEqual([]);
  });
});

describe("insertRecords", () => {
  it("maps camelCase fields to snake_case columns and booleans to 1/0, in order", async () => {
    const { columnName, insertRecords } = await import("./records.js");
    expect(columnName("weightKg")).toBe("weight_kg");
    expect(columnName("originWarehouseId")).toBe("origin_warehouse_id");
    const db = new Database(":memory:");
    try {
      db.exec("CREATE TABLE lots (lot_id TEXT, unit_cost REAL, is_hazmat INTEGER, note TEXT)");
      insertRecords(db, "lots", [
        { lotId: "L-1", unitCost: 1.5, isHazmat: true, note: null },
        { isHazmat: false, lotId: "L-2", unitCost: 2 },
      ]);
      expect(db.prepare("SELECT * FROM lots ORDER BY rowid").all()).toEqual([
        { lot_id: "L-1", unit_cost: 1.5, is_hazmat: 1, note: null },
        { lot_id: "L-2", unit_cost: 2, is_hazmat: 0, note: null },
      ]);
    } finally {
      db.close();
    }
  });
});

describe("openToolBench", () => {
  it("binds a domain's tools to a private copy of a built instance", async () => {
    const { tinyDomain, tinyTask } = await import("../../../test/fixtures/tiny-domain.js");
    const bench = openToolBench(tinyTask, tinyDomain.tools, { seed: 1 });
    try {
      expect(await bench.value("list_items", { per_page: 5 })).toMatchObject({ page: 1, total: 30 });
      await bench.value("deactivate_item", { item_id: 3 });
      expect(bench.db.prepare("SELECT active FROM items WHERE id = 3").get()).toEqual({ active: 0 });
      expect(await bench.reply("deactivate_item", { item_id: 998 })).toEqual({
        error: true,
        text: "Error: item 998 not found",
        body: {},
      });
      expect((await bench.reply("list_items", { per_page: 1 })).body).toMatchObject({ total: 30 });
      const missing = await bench.call("deactivate_item", { item_id: 999 });
      expect(missing.isError).toBe(true);
      expect(resultText(missing)).toBe("Error: item 999 not found");
      await expect(bench.value("deactivate_item", { item_id: 999 })).rejects.toThrow(
        "deactivate_item failed",
      );
      const pristine = new Database(bench.instance.dbPath, { readonly: true });
      expect(pristine.prepare("SELECT active FROM items WHERE id = 3").get()).toEqual({ active: 1 });
      pristine.close();
      expect(bench.view().db.prepare("SELECT active FROM items WHERE id = 3").get()).toEqual({ active: 0 });
      const fresh = bench.reset();
      expect(bench.db).toBe(fresh);
      expect(fresh.prepare("SELECT active FROM items WHERE id = 3").get()).toEqual({ active: 1 });
      expect(instanceContents(bench.rebuild())).toEqual(instanceContents(bench.instance));
      const contents = instanceContents(bench.instance);
      expect(Object.keys(contents.tables)).toContain("items");
      expect(instanceContents(bench.rebuild({ seed: 2 })).tables).not.toEqual(contents.tables);
      const other = bench.build({ seed: 2 });
      expect(other.instance.seed).toBe(2);
      expect(bench.build({ seed: 2 })).toBe(other);
      expect(other.view.listFiles()).toEqual(bench.build({ seed: 2 }).view.listFiles());
      const context = { db: fresh, workspaceDir: bench.instance.workspaceDir };
      expect(resultText(await callTool(tinyDomain.tools, context, "list_items", { per_page: 1 }))).toContain(
        '"total":30',
      );
      await expect(callTool(tinyDomain.tools, context, "list_itemz")).rejects.toThrow("no tool list_itemz");
    } finally {
      bench.close();
    }
  });
});

describe("answer fields", () => {
  it("read the object or the list under a key of a JSON reply, null when it is not there", () => {
    const reply = 'Done.\n{"swaps": {"fl-00012": "N104RA"}, "missed": [" k7qxzp", 42]}';
    expect(answerObjectEntries(reply, "swaps")).toEqual([["fl-00012", "N104RA"]]);
    expect(answerObjectEntries('{"C-1": ["rest"]}')).toEqual([["C-1", ["rest"]]]);
    expect(answerObjectEntries(reply, "changed")).toBeNull();
    expect(answerObjectEntries("no JSON here", "swaps")).toBeNull();
    expect(answerListItems(reply, "missed")).toEqual(["k7qxzp", "42"]);
    expect(answerListItems(reply, "swaps")).toBeNull();
    expect(answerListItems("[1, 2]", "missed")).toBeNull();
  });
});

describe("insertKeyedRow", () => {
  it("inserts into a table without rowid and returns the row as stored, defaults filled in", () => {
    const db = storeDb();
    db.exec(
      "CREATE TABLE tickets (code TEXT PRIMARY KEY, seat TEXT, status TEXT NOT NULL DEFAULT 'open') WITHOUT ROWID",
    );
    expect(insertKeyedRow(db, "tickets", "code", { code: "K7QXZP", seat: "3A" })).toEqual({
      code: "K7QXZP",
      seat: "3A",
      status: "open",
    });
    expect(() => insertKeyedRow(db, "tickets", "code", { code: "K7QXZP" })).toThrow(/UNIQUE/);
  });
});

describe("groupBy and writeEmailsBySent", () => {
  it("group items by key in first-appearance order, each group in the items' order", () => {
    const groups = groupBy(["b1", "a1", "b2", "c1", "a2"], (item) => item[0]);
    expect([...groups]).toEqual([
      ["b", ["b1", "b2"]],
      ["a", ["a1", "a2"]],
      ["c", ["c1"]],
    ]);
  });

  it("write e-mails as numbered files in the order they were sent", () => {
    const files = new Map<string, string>();
    const context = { writeFile: (path: string, content: string) => void files.set(path, content) };
    writeEmailsBySent(context, "emails/ops-", [
      { headers: { From: "b@example.com", Sent: "2025-06-30 09:00", Subject: "Later" }, body: ["Two."] },
      { headers: { From: "a@example.com", Sent: "2025-06-29 16:05", Subject: "Earlier" }, body: "One." },
    ]);
    expect([...files.keys()]).toEqual(["emails/ops-01.md", "emails/ops-02.md"]);
    expect(files.get("emails/ops-01.md")).toBe(
      "From: a@example.com\nSent: 2025-06-29 16:05\nSubject: Earlier\n\nOne.\n",
    );
    writeEmailsBySent(
      context,
      "inbox/message-",
      [{ headers: { Sent: "2025-06-30 10:00", Subject: "Third" }, body: "Three." }],
      { digits: 3, extension: ".eml" },
    );
    expect(files.has("inbox/message-001.eml")).toBe(true);
  });
});

describe("insertDrafts", () => {
  it("insert drafts by camelCase property per snake_case column, booleans as 1/0, overrides first", () => {
    const db = storeDb();
    const drafts = [
      { id: 101, name: "Ann", tier: "gold", optIn: true },
      { id: 102, name: "Bo", tier: "standard", optIn: false },
    ];
    insertDrafts(db, "customers", "id, name, tier, opt_in", drafts, (draft) =>
      draft.id === 102 ? { tier: "silver" } : {},
    );
    expect(db.prepare("SELECT * FROM customers WHERE id > 100 ORDER BY id").all()).toEqual([
      { id: 101, name: "Ann", tier: "gold", opt_in: 1 },
      { id: 102, name: "Bo", tier: "silver", opt_in: 0 },
    ]);
    expect(camelCaseName("card_last4")).toBe("cardLast4");
    expect(() => insertDrafts(db, "notes", "id, customer_id", [{ id: 1 }])).toThrow(/column customer_id/);
  });
});

describe("checkAnswerTally", () => {
  it("pass when the reply's JSON object gives every count, numbers as strings allowed", () => {
    const counts = { approved: 3, rejected: 1 };
    expect(checkAnswerTally('Done: {"approved": 3, "rejected": "1", "note": "x"}', counts).passed).toBe(true);
    expect(checkAnswerTally('{"approved": 3}', counts)).toEqual({
      id: "answer-counts",
      passed: false,
      message: 'expected {"approved":3,"rejected":1}, found {"approved": 3}',
    });
    expect(checkAnswerTally("  ", counts).message).toBe(
      'expected {"approved":3,"rejected":1}, found (empty answer)',
    );
  });
});

describe("draftsToCsv", () => {
  it("write drafts as CSV by camelCase property per column, overrides first, null as an empty cell", () => {
    const drafts = [
      { orderId: 7, promoCode: null, total: 12.5 },
      { orderId: 8, promoCode: "SAVE, 10", total: 3 },
    ];
    expect(
      draftsToCsv("order_id, promo_code, total", drafts, (draft) => ({ total: draft.total.toFixed(2) })),
    ).toBe('order_id,promo_code,total\n7,,12.50\n8,"SAVE, 10",3.00\n');
  });
});

describe("groupBy", () => {
  it("group items by key in first-appearance order, optionally storing another value", () => {
    const lines = [
      { sku: "B", order: 2 },
      { sku: "A", order: 1 },
      { sku: "B", order: 3 },
    ];
    expect([...groupBy(lines, (line) => line.sku)]).toEqual([
      ["B", [lines[0], lines[2]]],
      ["A", [lines[1]]],
    ]);
    expect(
      groupBy(
        lines,
        (line) => line.sku,
        (line) => line.order,
      ).get("B"),
    ).toEqual([2, 3]);
  });
});

describe("sumBy", () => {
  it("totals a number per key in first-appearance order", () => {
    const rows = [
      { at: "LOC-04", units: 5 },
      { at: "LOC-02", units: 3 },
      { at: "LOC-04", units: 7 },
    ];
    expect([
      ...sumBy(
        rows,
        (row) => row.at,
        (row) => row.units,
      ),
    ]).toEqual([
      ["LOC-04", 12],
      ["LOC-02", 3],
    ]);
  });
});

describe("pythonPager", () => {
  it("pages through a listing via the domain's own call, stopping early on its condition", () => {
    const listing = `
ITEMS = list(range(1, 121))
CALLS = []
NEAR = set()
def call(name, page, per_page, **filters):
    CALLS.append((name, page, filters))
    chunk = ITEMS[(page - 1) * per_page : page * per_page]
    return {"rows": chunk, "has_more": page * per_page < len(ITEMS)}
`;
    const pager = pythonPager({ name: "all_rows", toolParam: "tool", stopWhen: '"first-page" in NEAR' });
    expect(pager.endsWith("page += 1")).toBe(true);
    const program = `import json\n${listing}\n${pager}\nfull = all_rows("list_rows", "rows", status="open")
NEAR.add("first-page")
print(json.dumps([len(full), full[-1], len(all_rows("list_rows", "rows")), CALLS[0]]))`;
    const output = execFileSync("python3", ["-c", program]);
    expect(JSON.parse(output.toString())).toEqual([120, 120, 50, ["list_rows", 1, { status: "open" }]]);
    expect(pythonPager()).toContain(
      "def fetch(name, key, **filters):\n    items, page = [], 1\n    while True:\n        result = call(name, page=page",
    );
  });
});

describe("pythonFileLister", () => {
  it("pages through list_files of one folder, or of the whole workspace, and returns every path", () => {
    const fakeTools = `
import json
from types import SimpleNamespace
CALLS = []
FILES = [f"memos/{i}.md" for i in range(45)]
def list_files(page, path="."):
    CALLS.append((path, page))
    chunk = FILES[(page - 1) * 20 : page * 20]
    return {"files": [{"path": name} for name in chunk], "has_more": page * 20 < len(FILES)}
tools = SimpleNamespace(list_files=list_files)
`;
    const inFolder = pythonFileLister({ name: "folder_paths", folderParam: "folder" });
    const whole = pythonFileLister();
    const withDefault = pythonFileLister({ name: "under_paths", folderParam: 'under="."' });
    expect(inFolder.endsWith("page += 1")).toBe(true);
    const program = `${fakeTools}\n${inFolder}\n\n${whole}\n\n${withDefault}
a = folder_paths("memos")
b = workspace_files()
c = under_paths()
print(json.dumps([len(a), a[-1], len(b), len(c), CALLS[:3], CALLS[3], CALLS[6]]))`;
    const output = execFileSync("python3", ["-c", program]);
    expect(JSON.parse(output.toString())).toEqual([
      45,
      "memos/44.md",
      45,
      45,
      [
        ["memos", 1],
        ["memos", 2],
        ["memos", 3],
      ],
      [".", 1],
      [".", 1],
    ]);
    expect(whole).toContain("def workspace_files():\n");
    expect(whole).toContain("tools.list_files(page=page)");
    expect(withDefault).toContain('def under_paths(under="."):');
    expect(withDefault).toContain("tools.list_files(path=under, page=page)");
  });
});

describe("pythonRetryingCall", () => {
  it("repeats a call that raised a 503, raises other errors at once, and gives up when told to", () => {
    const fakeTools = `
import json
from types import SimpleNamespace
COUNT = {"flaky": 0, "broken": 0}
def flaky():
    COUNT["flaky"] += 1
    if COUNT["flaky"] < 3:
        raise RuntimeError("HTTP 503 Service Unavailable")
    return {"ok": True}
def broken():
    COUNT["broken"] += 1
    raise ValueError("400 bad input")
tools = {"flaky": flaky, "broken": broken}
NEAR = set()
`;
    const program = `${fakeTools}\n${pythonRetryingCall({ giveUpWhen: '"no-retry" in NEAR' })}
results = [call("flaky"), COUNT["flaky"]]
try:
    call("broken")
except ValueError:
    results.append(COUNT["broken"])
NEAR.add("no-retry")
COUNT["flaky"] = 0
try:
    call("flaky")
except RuntimeError as error:
    results.append(str(error))
print(json.dumps(results))`;
    const output = execFileSync("python3", ["-c", program]);
    expect(JSON.parse(output.toString())).toEqual([{ ok: true }, 3, 1, "HTTP 503 Service Unavailable"]);
    expect(pythonRetryingCall({ attempts: 2 })).toContain("for attempt in range(2):");
    expect(pythonRetryingCall()).toContain('if "503" not in str(error):\n');
  });
});

describe("variantTaskDefiner", () => {
  it("puts the domain's helper cell before every program and takes near-misses as a record or as rows", () => {
    const domain = { id: "demo", tools: [{ name: "list_items" }] } as unknown as DomainDefinition;
    const define = variantTaskDefiner(domain, "HELPERS");
    const cells = (variant: { strict?: boolean; pages?: number }) =>
      `strict=${variant.strict ?? true} pages=${variant.pages ?? "all"}`;
    const text = { summary: "s", instruction: "i", tools: ["list_items"], verify: () => [] };
    const fromRows = define({
      ...text,
      id: "demo.count",
      cells,
      nearMisses: [
        ["lenient", "Not strict.", { strict: false }],
        ["first-page", "One page.", { pages: 1 }],
      ],
    });
    const fromRecord = define({
      ...text,
      id: "demo.count",
      cells: (variant: { strict?: boolean; pages?: number }) => [cells(variant), "print(answer)"],
      nearMisses: { lenient: [{ strict: false }, "Not strict."], "first-page": [{ pages: 1 }, "One page."] },
    });
    expect(fromRows.domain).toBe(domain);
    expect(fromRows.oracle).toEqual(["HELPERS", "strict=true pages=all"]);
    expect(fromRows.nearMisses).toEqual([
      { id: "lenient", description: "Not strict.", cells: ["HELPERS", "strict=false pages=all"] },
      { id: "first-page", description: "One page.", cells: ["HELPERS", "strict=true pages=1"] },
    ]);
    expect(fromRecord.nearMisses.map((miss) => miss.cells)).toEqual([
      ["HELPERS", "strict=false pages=all", "print(answer)"],
      ["HELPERS", "strict=true pages=1", "print(answer)"],
    ]);
    expect(() => define({ ...text, id: "other.count", cells, nearMisses: [] })).toThrow(/must start with/);
    const withHelpers = variantTaskDefiner(
      domain,
      ({ helpers = "" }: { helpers?: string }) => `HELPERS${helpers}`,
    );
    const swapped = withHelpers({
      ...text,
      id: "demo.swap",
      cells,
      nearMisses: { "naive-post": [{ helpers: "+NAIVE" }, "Posts blindly."] },
    });
    expect(swapped.oracle).toEqual(["HELPERS", "strict=true pages=all"]);
    expect(swapped.nearMisses[0]!.cells).toEqual(["HELPERS+NAIVE", "strict=true pages=all"]);
  });
});

describe("checkCountedWrites", () => {
  it("checks the table changes, then the reply's count of them", () => {
    const initial = new Database(":memory:");
    initial.exec("CREATE TABLE holds (hold_id TEXT PRIMARY KEY, status TEXT)");
    const final = new Database(":memory:");
    final.exec("CREATE TABLE holds (hold_id TEXT PRIMARY KEY, status TEXT)");
    final.prepare("INSERT INTO holds VALUES ('H-1', 'open')").run();
    const state = (db: Database.Database) => ({ db }) as unknown as StateView;
    const tables = [{ table: "holds", key: "hold_id", added: [{ hold_id: "H-1", status: "open" }] }];
    const good = checkCountedWrites(
      { initial: state(initial), final: state(final), answer: "Placed 1 hold" },
      1,
      tables,
    );
    expect(good.every((item) => item.passed)).toBe(true);
    expect(good.at(-1)!.id).toBe("answer-count");
    const wrong = checkCountedWrites(
      { initial: state(initial), final: state(final), answer: "Placed 2 holds" },
      1,
      tables,
    );
    expect(wrong.at(-1)!.passed).toBe(false);
  });
});
