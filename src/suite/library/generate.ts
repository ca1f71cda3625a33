import type { SeededRandom } from "../../core/index.js";
import type { GenerateContext } from "../../envs/index.js";
import {
  addDays,
  between,
  daysBetween,
  insertRow,
  randomDate,
  roundCents,
  sample,
} from "../../envs/index.js";
import {
  renderInvoice,
  renderNotice,
  writePolicies,
  type NoticeLine,
  type PrintedLine,
} from "./documents.js";
import { books } from "./books.js";
import { fundFor, renderMarc, type BookDraft } from "./marc.js";
import { FUNDS, TODAY, VENDORS, bibId, invoiceId, lineId, poId, requestId, vendorId } from "./rules.js";

type NextBook = ReturnType<typeof books>;

/** Inserts one row, the values in the table's column order. */
function put(db: GenerateContext["db"], table: string, ...values: unknown[]): void {
  db.prepare(`INSERT INTO ${table} VALUES (${values.map(() => "?").join(", ")})`).run(...values);
}

interface Line {
  id: string;
  vendor: number;
  orderedOn: string;
  bib: BookDraft;
  fund: string;
  qty: number;
  list: number;
  encumbered: number;
  status: "ordered" | "received" | "cancelled";
}

/** Everything the generator drew, shared by its steps. */
interface Draft {
  context: GenerateContext;
  random: SeededRandom;
  lines: Line[];
  pos: number;
  claims: Array<[string, string]>;
}

function newPo(draft: Draft, vendor: number, orderedOn: string, standing = false): string {
  draft.pos += 1;
  const id = poId.format(draft.pos);
  const [vendorCode, type] = [vendorId.format(vendor + 1), standing ? "standing" : "firm"];
  put(draft.context.db, "purchase_orders", id, vendorCode, type, orderedOn);
  return id;
}

/** One order line on a new bib record; `fund` overrides the fund the record calls for. */
function addLine(
  draft: Draft,
  po: string,
  vendor: number,
  orderedOn: string,
  book: BookDraft,
  options: { status?: Line["status"]; fund?: string; qty?: number } = {},
): Line {
  const { random, context } = draft;
  const marc = renderMarc(book, addDays(orderedOn, -random.int(0, 20)));
  put(context.db, "bibs", book.bibId, book.title, addDays(orderedOn, -1), marc);
  const age = daysBetween(orderedOn, TODAY);
  const odds = age > 150 ? "RRRCO" : age > 45 ? "RROC" : "O";
  const status =
    options.status ??
    ({ R: "received", O: "ordered", C: "cancelled" } as const)[random.pick([...odds]) as "R"];
  const qty = options.qty ?? (random.chance(0.7) ? 1 : random.int(2, 4));
  const list = roundCents(between(random, 12, 48));
  const line: Line = {
    id: lineId.format(draft.lines.length + 1),
    vendor,
    orderedOn,
    bib: book,
    fund: options.fund ?? (random.chance(0.06) ? random.pick(FUNDS)[0] : fundFor(marc)),
    qty,
    list,
    encumbered: roundCents(qty * list * (1 - VENDORS[vendor]![1] / 100)),
    status,
  };
  const why = status === "cancelled" ? "vendor could not supply" : null;
  put(context.db, "order_lines", line.id, po, book.bibId, line.fund, qty, list, line.encumbered, status, why);
  draft.lines.push(line);
  return line;
}

function randomLines(draft: Draft, nextBook: NextBook): void {
  const { random, context } = draft;
  for (let n = 0; n < 14 * context.factors.rows; n += 1) {
    const vendor = random.int(0, VENDORS.length - 1);
    const standing = random.chance(0.12);
    const orderedOn = randomDate(random, "2024-03-01", "2025-06-25");
    const po = newPo(draft, vendor, orderedOn, standing);
    for (let k = random.int(3, 6); k > 0; k -= 1) addLine(draft, po, vendor, orderedOn, nextBook());
  }
  // Earlier claims: some recent (within the interval), some long ago.
  for (const line of draft.lines.filter((l) => l.status === "ordered" && random.chance(0.2)))
    draft.claims.push([line.id, addDays(TODAY, -random.int(5, 80))]);
}

export function generateLibrary(context: GenerateContext): void {
  const { db, random, faker, factors } = context;
  const draft: Draft = { context, random, lines: [], pos: 0, claims: [] };
  VENDORS.forEach(([name, discount], index) =>
    put(
      db,
      "vendors",
      vendorId.format(index + 1),
      name,
      `${random.int(100, 999)}-${random.int(1000, 9999)}`,
      discount,
      `RPL-${random.int(10000, 99999)}`,
    ),
  );
  for (const [code, name, budget] of FUNDS)
    insertRow(db, "funds", { fund_code: code, name, fiscal_year: "FY2025", budget: budget * factors.rows });
  const nextBook = books(random, faker, (n) => bibId.format(n));
  const plants = plantCases(draft, nextBook);
  randomLines(draft, nextBook);
  draft.claims.forEach(([line, on], index) =>
    put(db, "claims", index + 1, line, on, "no shipment received; please advise"),
  );
  writeLedger(draft);
  writeInvoices(draft, plants.invoiceLines);
  writeNotices(draft, plants.notices);
  writeRequests(context);
  writePolicies(context);
}

interface Plants {
  invoiceLines: { over: Line[]; clean: Line[] };
  notices: Array<{ date: string; vendor: number; entries: Array<[Line, string]> }>;
}

/** The cases every task's near-misses depend on, present at every scale and seed. */
function plantCases(draft: Draft, nextBook: NextBook): Plants {
  const recent = addDays(TODAY, -25);
  const po = (vendor: number, on: string, standing = false): string => newPo(draft, vendor, on, standing);
  // Duplicate orders: a hyphenated ISBN, an ISBN-10 only, a match on the second 020, a $z ISBN, a cancelled line.
  const dupPo = po(1, recent);
  const twin = (variant: "hyphen" | "isbn10" | "second" | "cancelled-isbn" | "cancelled-line"): void => {
    const first = nextBook("adult-fiction");
    addLine(draft, dupPo, 1, recent, first);
    const second = nextBook("adult-fiction", { isbn: first.isbn, variant });
    addLine(draft, po(3, addDays(recent, 3)), 3, addDays(recent, 3), second, {
      status: variant === "cancelled-line" ? "cancelled" : "ordered",
    });
  };
  for (const variant of ["hyphen", "isbn10", "second", "cancelled-isbn", "cancelled-line"] as const)
    twin(variant);
  // Funds: large-type juvenile charged to JUV, juvenile fiction found in the second 650, an audiobook charged to AFIC.
  const fundPo = po(4, addDays(TODAY, -12));
  addLine(draft, fundPo, 4, addDays(TODAY, -12), nextBook("juvenile-large-print"), { fund: "JUV" });
  addLine(draft, fundPo, 4, addDays(TODAY, -12), nextBook("juvenile-second-650"), { fund: "AFIC" });
  addLine(draft, fundPo, 4, addDays(TODAY, -12), nextBook("audiobook"), { fund: "AFIC" });
  // A memoir whose 008 says fiction, charged to AFIC: the policy goes by the 650 $v, so ANF.
  const memoir = { ...nextBook("adult-nonfiction"), fiction: true, subtitle: "a memoir" };
  addLine(draft, fundPo, 4, addDays(TODAY, -12), memoir, { fund: "AFIC" });
  // Claims: a 45-day vendor at 50 and exactly 45 days, a 90-day vendor at 70 and 110 days, a standing order, a
  // recent and an old claim.
  for (const on of [addDays(TODAY, -50), addDays(TODAY, -45)])
    addLine(draft, po(0, on), 0, on, nextBook(), { status: "ordered" });
  addLine(draft, po(2, addDays(TODAY, -70)), 2, addDays(TODAY, -70), nextBook(), { status: "ordered" });
  const late = po(2, addDays(TODAY, -110));
  for (let n = 0; n < 3; n += 1)
    addLine(draft, late, 2, addDays(TODAY, -110), nextBook(), { status: "ordered" });
  const standing = addDays(TODAY, -200);
  addLine(draft, po(1, standing, true), 1, standing, nextBook(), { status: "ordered" });
  const claimed = addDays(TODAY, -100);
  const claimPo = po(5, claimed);
  for (const daysAgo of [10, 50])
    draft.claims.push([
      addLine(draft, claimPo, 5, claimed, nextBook(), { status: "ordered" }).id,
      addDays(TODAY, -daysAgo),
    ]);
  // Notices: a line OP then back in stock, one backordered then OP, OSI, PC, and an OP report on a cancelled line.
  const noticePo = po(0, addDays(TODAY, -40));
  const onOrder = Array.from({ length: 4 }, () =>
    addLine(draft, noticePo, 0, addDays(TODAY, -40), nextBook(), { status: "ordered" }),
  );
  const gone = addLine(draft, noticePo, 0, addDays(TODAY, -40), nextBook(), { status: "cancelled" });
  const report = (date: string, codes: string, lines: Line[]) => ({
    date,
    vendor: 0,
    entries: codes.split(" ").map((code, n): [Line, string] => [lines[n]!, code]),
  });
  const notices = [
    report("2025-05-27", "OP BO", onOrder),
    report("2025-06-02", "BO OP OSI PC OP", [...onOrder, gone]),
  ];
  // Invoices: eleven received lines (only the second page holds a price over tolerance), a clean four-line one
  // with a price difference within tolerance and a short shipment, and a two-line one over-invoicing a quantity.
  const invoiced = addDays(TODAY, -60);
  const overPo = po(0, invoiced);
  const over = Array.from({ length: 11 }, () =>
    addLine(draft, overPo, 0, invoiced, nextBook(), { status: "received" }),
  );
  const cleanPo = po(2, invoiced);
  const clean = Array.from({ length: 6 }, () =>
    addLine(draft, cleanPo, 2, invoiced, nextBook(), { status: "received", qty: 3 }),
  );
  return { invoiceLines: { over, clean }, notices };
}

/** The FY2024 and FY2025 ledger: encumbrances, releases and payments per line, credits and transfers. */
function writeLedger(draft: Draft): void {
  const { random, context } = draft;
  // fund_code, posted_on, kind, amount, reference: the table's columns after txn_id.
  const rows: Array<[string, string, string, number, string]> = [];
  const post = (...row: (typeof rows)[number]): number => rows.push(row);
  for (const line of draft.lines) {
    post(line.fund, line.orderedOn, "encumber", line.encumbered, line.id);
    if (line.status === "ordered") continue;
    const on = [addDays(line.orderedOn, random.int(15, 60)), TODAY].sort()[0]!;
    post(line.fund, on, "release", line.encumbered, line.id);
    const paid = roundCents(line.encumbered + (random.chance(0.3) ? between(random, -1, 1) : 0));
    if (line.status === "received") post(line.fund, on, "expend", paid, line.id);
  }
  for (let n = 0; n < 3 * context.factors.rows; n += 1) {
    const on = randomDate(random, "2024-05-01", TODAY);
    post(
      random.pick(FUNDS)[0],
      on,
      "credit",
      roundCents(between(random, 8, 60)),
      `CM-${random.int(1000, 9999)}`,
    );
  }
  for (let n = 0; n < 2 + context.factors.rows; n += 1) {
    const [from, to] = random.shuffle(FUNDS.map((fund) => fund[0]));
    const on = randomDate(random, "2024-05-01", TODAY);
    const amount = 250 * random.int(1, 8);
    post(from!, on, "transfer_out", amount, `TR-${n + 1} to ${to}`);
    post(to!, on, "transfer_in", amount, `TR-${n + 1} from ${from}`);
  }
  rows.sort((a, b) => a[1].localeCompare(b[1]));
  rows.forEach((row, index) => put(context.db, "fund_transactions", index + 1, ...row));
}

const CHANGES = [undefined, undefined, undefined, undefined, "noise", "over", "qty", "short"] as const;

function printed(random: SeededRandom, line: Line, change?: "over" | "qty" | "noise" | "short"): PrintedLine {
  const discount = VENDORS[line.vendor]![1];
  const net = roundCents(line.list * (1 - discount / 100));
  const [lower, noisy] = [discount - random.int(3, 6), roundCents(net + random.int(3, 8) / 100)];
  return {
    lineId: line.id,
    isbn: line.bib.isbn,
    title: line.bib.title,
    qty: change === "qty" ? line.qty + 1 : change === "short" && line.qty > 1 ? line.qty - 1 : line.qty,
    list: line.list,
    disc: change === "over" ? lower : discount,
    net: change === "over" ? roundCents(line.list * (1 - lower / 100)) : change === "noise" ? noisy : net,
  };
}

function writeInvoices(draft: Draft, plants: Plants["invoiceLines"]): void {
  const { random, context } = draft;
  let count = 0;
  const write = (vendor: number, lines: PrintedLine[], date: string, status: string): void => {
    count += 1;
    const number = String(random.int(100000, 999999));
    const pages = renderInvoice(vendor, number, date, lines, roundCents(between(random, 0, 12)));
    const total = lines.reduce((sum, line) => sum + Math.round(line.qty * line.net * 100) / 100, 0);
    const id = invoiceId.format(count);
    put(
      context.db,
      "invoices",
      id,
      vendorId.format(vendor + 1),
      number,
      date,
      roundCents(total),
      pages.length,
      status,
      null,
    );
    pages.forEach((text, index) => put(context.db, "invoice_pages", id, index + 1, text));
  };
  const planted = new Set([...plants.over, ...plants.clean].map((line) => line.id));
  VENDORS.forEach((_, vendor) => {
    const received = draft.lines.filter(
      (line) => line.vendor === vendor && line.status === "received" && !planted.has(line.id),
    );
    const pending = Math.ceil(received.length * 0.35);
    for (let start = 0; start < received.length; start += 4) {
      const chunk = received.slice(start, start + 4);
      const isPending = start >= received.length - pending;
      const lines = chunk.map((line) => printed(random, line, isPending ? random.pick(CHANGES) : undefined));
      write(
        vendor,
        lines,
        addDays(chunk.at(-1)!.orderedOn, 30),
        isPending ? "pending" : random.pick(["paid", "paid", "approved"]),
      );
    }
  });
  const overLines = plants.over.map((line, index) => printed(random, line, index === 9 ? "over" : undefined));
  write(0, overLines, addDays(TODAY, -8), "pending");
  const changes = [undefined, "noise", "short", undefined, undefined, "qty"] as const;
  const cleanLines = plants.clean.map((line, index) => printed(random, line, changes[index]));
  write(2, cleanLines.slice(0, 4), addDays(TODAY, -6), "pending");
  write(2, cleanLines.slice(4), addDays(TODAY, -5), "pending");
}

const CODES = ["BO", "BO", "NYP", "NYP", "SH", "BO", "OP", "OSI", "PC"];

function writeNotices(draft: Draft, plants: Plants["notices"]): void {
  const { random, context } = draft;
  const planted = new Set(plants.flatMap((notice) => notice.entries.map(([line]) => line.id)));
  const dates = random.shuffle(
    Array.from({ length: 88 }, (_, day) => addDays("2025-04-01", day)).filter(
      (day) => !plants.some((notice) => notice.date === day),
    ),
  );
  const notices = [...plants];
  for (let n = notices.length; n < 9 * context.factors.files; n += 1) {
    const vendor = random.int(0, VENDORS.length - 1);
    const candidates = draft.lines.filter(
      (line) =>
        line.vendor === vendor &&
        line.status !== "cancelled" &&
        line.orderedOn < dates[n]! &&
        !planted.has(line.id),
    );
    const code = (line: Line): string => (line.status === "received" ? "SH" : random.pick(CODES));
    const entries = sample(random, candidates, random.int(4, 9)).map((line): [Line, string] => [
      line,
      code(line),
    ]);
    notices.push({ date: dates[n]!, vendor, entries });
  }
  const sans = new Map<string, string>();
  notices.forEach((notice, index) => {
    const number = `ASN-${random.int(10000, 99999)}`;
    const lines: NoticeLine[] = notice.entries.map(([line, code]) => ({
      lineId: line.id,
      isbn: line.bib.isbn,
      ordered: line.qty,
      shipped: code === "SH" ? line.qty : 0,
      code,
    }));
    const san = sans.get(String(notice.vendor)) ?? `${random.int(100, 999)}-${random.int(1000, 9999)}`;
    sans.set(String(notice.vendor), san);
    context.writeFile(
      `notices/${VENDORS[notice.vendor]![0].split(" ")[0]!.toLowerCase()}-${number.slice(4)}-${index}.txt`,
      renderNotice(notice.vendor, san, number, notice.date, lines),
    );
  });
}

const FORMATS = ["hardcover", "paperback", "large print", "audiobook cd", "dvd"];

/** Patron purchase requests: decided ones from this and last fiscal year, and the pending queue. */
function writeRequests(context: GenerateContext): void {
  const { random, faker, factors, db } = context;
  let count = 0;
  const patrons = Array.from({ length: 8 * factors.rows }, () => `P${random.int(2000000, 2999999)}`);
  const add = (
    patron: string,
    on: string,
    status: string,
    fields: { format?: string; year?: number; price?: number } = {},
  ): void => {
    count += 1;
    const format = fields.format ?? random.pick(FORMATS);
    put(
      db,
      "patron_requests",
      requestId.format(count),
      patron,
      on,
      faker.book.title(),
      faker.person.fullName(),
      `978${random.int(100000000, 999999999)}`,
      format,
      fields.year ?? (random.chance(0.2) ? random.int(2012, 2021) : random.int(2022, 2025)),
      fields.price ?? roundCents(between(random, 9, random.chance(0.25) ? 80 : 40)),
      status,
      status === "pending" ? null : addDays(on, random.int(1, 6)),
      status === "pending" ? null : status === "approved" ? "ordered" : "outside selection policy",
    );
  };
  // A patron at the limit's edge, a patron with last year's approvals, the price cap and the oldest year exactly.
  const [edge, lastYear] = ["P1000017", "P1000029"];
  add(edge, "2024-09-12", "approved", { year: 2024, price: 20 });
  add(edge, "2025-02-03", "approved", { year: 2024, price: 20 });
  add(edge, "2025-03-11", "declined", { year: 2018, price: 20 });
  for (const on of ["2023-10-02", "2024-01-15", "2024-03-20"])
    add(lastYear, on, "approved", { year: 2023, price: 20 });
  // The edge patron's later request was keyed in first: ids do not follow request dates.
  add(edge, "2025-06-23", "pending", { format: "hardcover", year: 2023, price: 28 });
  add(lastYear, "2025-06-21", "pending", { format: "hardcover", year: 2022, price: 30 });
  add(edge, "2025-06-20", "pending", { format: "paperback", year: 2024, price: 25 });
  for (let n = 0; n < 22 * factors.rows; n += 1) {
    const pending = random.chance(0.4);
    const on = pending
      ? randomDate(random, "2025-05-15", "2025-06-28")
      : randomDate(random, "2024-01-01", "2025-05-14");
    add(random.pick(patrons), on, pending ? "pending" : random.pick(["approved", "approved", "declined"]));
  }
}
