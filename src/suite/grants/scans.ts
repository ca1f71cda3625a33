/**
 * The database rows and the scanned document pile as the OCR service returns it: award letters (two pages, the
 * budget table running onto the second), subaward invoices, effort certifications and no-cost-extension memos,
 * with drifting columns, stamps, stray marks, hyphenation and misread amounts.
 */
import type { GenerateContext } from "../../envs/index.js";
import { addDays, cell, hyphenate, longDate, numberCell, ocrAmount } from "../../envs/index.js";
import { ocrConfuse, roundCents, scanStamp, strayLine } from "../../envs/index.js";
import type { Award, GrantsWorld, Invoice, Letter, Person, Subaward, Txn } from "./generate.js";
import { BUDGET_PERIOD, CATEGORIES, EFFORT_PERIOD, OBJECT_CODES, SUBAWARD_MTDC_CAP } from "./rules.js";
import { UNIVERSITY, documentId, txnId } from "./rules.js";
import type { Category } from "./rules.js";

type Random = GenerateContext["random"];

const RULE = "-".repeat(72);
const gap = (random: Random, low = 4, high = 18): string => " ".repeat(random.int(low, high));
/** `07/31/2025` */
const mdy = (date: string): string => `${date.slice(5, 7)}/${date.slice(8, 10)}/${date.slice(0, 4)}`;
const footer = (random: Random, day: string, page: number, pages: number): string[] => [
  ...strayLine(random),
  `${scanStamp(random, day)}${gap(random)}Page ${page} of ${pages}`,
];
const money = (random: Random, value: number, forced = false): string =>
  ocrAmount(random, value, forced ? { probability: 1, kind: "split" } : { probability: 0.12 });
const sum = (values: Iterable<number>): number => [...values].reduce((total, value) => total + value, 0);

function indirect(world: GrantsWorld, award: Award, budget: Map<Category, number>): number {
  const { idc } = award.sponsor.terms;
  if (!idc) return 0;
  const cap = Math.max(0, (budget.get("subawards") ?? 0) - SUBAWARD_MTDC_CAP);
  const excluded = (budget.get("equipment") ?? 0) + (budget.get("participant_support") ?? 0) + cap;
  const rate = idc.rate === "negotiated" ? world.negotiatedRate : idc.rate;
  return roundCents(((sum(budget.values()) - (idc.base === "MTDC" ? excluded : 0)) * rate) / 100);
}

function letterPages(random: Random, world: GrantsWorld, award: Award, letter: Letter): string[] {
  const label =
    letter.amendment === 0 ? "NOTICE OF AWARD" : `NOTICE OF AWARD - AMENDMENT No. ${letter.amendment}`;
  const line = (text: string, amount: number, forced = false): string =>
    `${cell(random, text, 30)}$${numberCell(random, money(random, amount, forced), 12)}`;
  const rows = [...letter.budget].map(([category, amount]) =>
    line(CATEGORIES[category], amount, letter.noisy === category),
  );
  const [total, idc] = [sum(letter.budget.values()), indirect(world, award, letter.budget)];
  const periodEnd = award.end < BUDGET_PERIOD.end ? award.end : BUDGET_PERIOD.end;
  const preamble =
    letter.amendment > 0
      ? "This amendment supersedes the approved budget in all earlier notices for this budget period. All other terms remain unchanged."
      : "This notice incorporates the sponsor's terms and conditions by reference. Acceptance of funds constitutes acceptance of those terms.";
  const header = "CATEGORY                              AMOUNT";
  const officer = random.pick(["Dana Whitcomb", "Luis Ortega", "Priya Natarajan", "Helen Brandt"]);
  const first = [
    `${UNIVERSITY.toUpperCase()}${gap(random)}OFFICE OF SPONSORED PROGRAMS`,
    `${gap(random, 30, 44)}RECEIVED ${mdy(letter.received)}`,
    ocrConfuse(random, award.sponsor.name),
    label,
    `Award No.: ${award.id}${gap(random)}Sponsor Award No.: ${award.sponsorAwardNo}`,
    `Principal Investigator: ${ocrConfuse(random, award.commitments[0]!.person.name.fullName)}`,
    ...hyphenate(`Project Title: ${award.title}`, 58),
    `Project Period: ${mdy(award.start)} - ${mdy(award.end)}`,
    `Budget Period: ${mdy(BUDGET_PERIOD.start)} - ${mdy(periodEnd)}`,
    ...hyphenate(preamble, 70),
    ...strayLine(random),
    "APPROVED BUDGET - DIRECT COSTS",
    header,
    ...rows.slice(0, 2),
    "(continued on next page)",
    ...footer(random, letter.received, 1, 2),
  ];
  const second = [
    `${award.id}${gap(random)}${label} (continued)`,
    header,
    ...rows.slice(2),
    RULE,
    line("TOTAL DIRECT COSTS", total),
    line("Indirect costs (F&A)", idc),
    line("TOTAL THIS BUDGET PERIOD", roundCents(total + idc)),
    ...strayLine(random),
    `Grants officer: ${ocrConfuse(random, officer)}`,
    ...footer(random, letter.received, 2, 2),
  ];
  return [first.join("\n"), second.join("\n")];
}

/** One invoice of a subaward; `cumulative` is what the subrecipient has billed so far, this invoice included. */
function invoicePage(random: Random, award: Award, subaward: Subaward, invoice: Invoice, cumulative: number) {
  const shares = [0.5, 0.15, 0.1, 0.25];
  const parts = shares.slice(0, 3).map((share) => roundCents(invoice.amount * share));
  parts.push(roundCents(invoice.amount - sum(parts)));
  const before = cumulative - invoice.amount;
  const labels = ["Salaries and wages", "Fringe benefits", "Materials and supplies", "Indirect costs (F&A)"];
  const lines = labels.map((label, index) => {
    const [current, total] = [parts[index]!, roundCents(before * shares[index]! + parts[index]!)];
    return `${cell(random, label, 28)}${numberCell(random, money(random, current), 14)}${gap(random, 3, 8)}${numberCell(random, money(random, total), 12)}`;
  });
  const dated = mdy(addDays(invoice.to, 8));
  const certification =
    "I certify that to the best of my knowledge the expenses billed are for the work performed under the subaward and are allowable and allocable.";
  const signer = ocrConfuse(random, `${subaward.subrecipient.split(" ")[0]} Finance Office`);
  return [
    `${ocrConfuse(random, subaward.subrecipient)}${gap(random, 10, 24)}INVOICE`,
    `Office of Sponsored Research${gap(random)}Invoice No.: ${invoice.invoiceNo}`,
    `Invoice Date: ${dated}`,
    `Bill to: ${UNIVERSITY}, Sponsored Programs Accounting`,
    `Subaward No.: ${subaward.id}${gap(random)}Prime Award: ${award.id}`,
    `Period of performance billed: ${mdy(invoice.from)} - ${mdy(invoice.to)}`,
    RULE,
    "COST CATEGORY                  CURRENT PERIOD        CUMULATIVE",
    ...lines,
    RULE,
    `TOTAL AMOUNT DUE${gap(random, 8, 14)}$ ${money(random, invoice.amount, invoice.noisy)}${gap(random, 4, 8)}$ ${money(random, roundCents(cumulative))}`,
    ...strayLine(random),
    ...hyphenate(certification, 70),
    invoice.signed
      ? `Signature: /s/ ${signer}${gap(random)}Date: ${dated}`
      : "Signature: ____________________    Date: ________",
    ...footer(random, addDays(invoice.to, 13), 1, 1),
  ].join("\n");
}

function certificationPage(random: Random, world: GrantsWorld, person: Person): string | null {
  const during = (award: Award): boolean =>
    award.start <= EFFORT_PERIOD.end && award.end >= EFFORT_PERIOD.start;
  const rows = world.awards
    .filter(during)
    .flatMap((award) => award.commitments.filter((c) => c.person === person).map((c) => ({ award, c })));
  if (rows.length === 0) return null;
  const percent = (value: number): string => `${value}${random.pick(["", "%", " %", ".0"])}`;
  const lines = rows.flatMap(({ award, c }) => {
    const [first, ...rest] = hyphenate(award.sponsor.name, 26);
    const columns = `${numberCell(random, percent(c.pct), 8)}${numberCell(random, percent(c.certified), 12)}`;
    return [
      `${cell(random, award.id, 14, 2)}${cell(random, first!, 28, 2)}${columns}`,
      ...rest.map((part) => `${" ".repeat(15)}${part}`),
    ];
  });
  const other = Math.max(0, 100 - sum(rows.map(({ c }) => c.certified)));
  const statement =
    "I certify that the distribution of effort above is a reasonable estimate of the work I performed in the reporting period.";
  return [
    UNIVERSITY.toUpperCase(),
    "PERSONNEL ACTIVITY REPORT - EFFORT CERTIFICATION",
    `Employee: ${ocrConfuse(random, person.name.fullName)}${gap(random)}Employee ID: ${person.id}`,
    `Department: ${person.department}${gap(random)}Appointment: ${person.appointment.replace("_", " ")}`,
    `Reporting period: ${mdy(EFFORT_PERIOD.start)} - ${mdy(EFFORT_PERIOD.end)}`,
    RULE,
    "AWARD          SPONSOR                       COMMITTED %   CERTIFIED %",
    ...lines,
    `Non-sponsored activity (instruction, service)${gap(random, 10, 16)}${other}`,
    `TOTAL${gap(random, 50, 56)}100`,
    ...hyphenate(statement, 70),
    `Signature: /s/ ${ocrConfuse(random, person.name.fullName)}${gap(random)}Date: ${mdy(addDays(EFFORT_PERIOD.end, random.int(20, 40)))}`,
    ...footer(random, "2025-02-14", 1, 1),
  ].join("\n");
}

const REASONS = [
  "Field work was delayed by weather and a permit backlog.",
  "A key instrument was out of service for several months.",
  "Recruitment of study participants took longer than planned.",
];

function requestPage(random: Random, world: GrantsWorld, award: Award): string {
  const { newEnd, received } = award.request!;
  const ask = `I request a no-cost extension of award ${award.id} (${award.sponsor.name}, sponsor award ${award.sponsorAwardNo}) from the current end date of ${longDate(award.end)} to ${longDate(newEnd)}. ${random.pick(REASONS)}`;
  const balance = `The unobligated balance is estimated at $ ${money(random, roundCents(5_000 + random.next() * 60_000))} and will be spent on the remaining work; no additional funds are requested.`;
  return [
    "MEMORANDUM",
    `To: Office of Sponsored Programs${gap(random)}RECEIVED ${mdy(received)}`,
    `From: ${ocrConfuse(random, award.commitments[0]!.person.name.fullName)}, Department of ${award.department}`,
    `Date: ${mdy(addDays(received, -random.int(1, 4)))}`,
    `Re: Request for no-cost extension - Award ${award.id}`,
    RULE,
    ...hyphenate(ask, 72),
    "",
    ...hyphenate(balance, 72),
    ...strayLine(random, 0.5),
    `Department chair: ${ocrConfuse(random, random.pick(world.people).name.fullName)}${gap(random)}Endorsed`,
    ...footer(random, received, 1, 1),
  ].join("\n");
}

/** type, award, title, received, status, pages */
type Doc = [string, string | null, string, string, string, string[]];

/** Every scanned document with its pages, and whether its id must match the OCR queue's fault rule. */
function documentsOf(random: Random, world: GrantsWorld): Array<[Doc, boolean]> {
  const docs: Array<[Doc, boolean]> = [];
  for (const award of world.awards)
    for (const letter of award.letters) {
      const title = `Notice of award${letter.amendment ? `, amendment ${letter.amendment}` : " (original)"}`;
      const pages = letterPages(random, world, award, letter);
      docs.push([["award_letter", award.id, title, letter.received, "filed", pages], random.chance(0.2)]);
    }
  for (const award of world.awards)
    for (const subaward of award.subawards) {
      const paid = sum(subaward.payments.map((payment) => payment.amount));
      const last = { ...subaward.payments.at(-1)!, signed: true, noisy: false, faulty: false };
      const invoices: Array<[Invoice, number, string]> = [[last, paid, "paid"]];
      const { pending } = subaward;
      if (pending) invoices.push([pending, paid + (pending.paidOn ? 0 : pending.amount), "pending"]);
      for (const [invoice, cumulative, status] of invoices) {
        const [title, received] = [`Invoice ${invoice.invoiceNo} (${subaward.id})`, addDays(invoice.to, 15)];
        const pages = [invoicePage(random, award, subaward, invoice, cumulative)];
        docs.push([["subaward_invoice", award.id, title, received, status, pages], invoice.faulty]);
      }
    }
  const planted = world.awards[0]!.commitments.find((c) => c.role === "co-I")!.person;
  for (const person of [...world.people].sort((a, b) => a.id.localeCompare(b.id))) {
    const page = certificationPage(random, world, person);
    const title = `Effort certification Jul-Dec 2024 - ${person.name.fullName}`;
    const faulty = person === planted || random.chance(0.2);
    if (page) docs.push([["effort_certification", null, title, "2025-02-14", "filed", [page]], faulty]);
  }
  for (const award of world.awards.filter((item) => item.request)) {
    const [title, { received, faulty }] = [`No-cost extension request ${award.id}`, award.request!];
    const pages = [requestPage(random, world, award)];
    docs.push([["extension_request", award.id, title, received, "pending", pages], faulty]);
  }
  return docs;
}

/** Writes the scanned pile: doc numbers are handed out so that exactly the faulty ones match the OCR fault rule. */
export function insertScans({ db, random }: GenerateContext, world: GrantsWorld): void {
  const insertDoc = db.prepare("INSERT INTO documents VALUES (?, ?, ?, ?, ?, ?, ?)");
  const insertPage = db.prepare("INSERT INTO document_pages VALUES (?, ?, ?)");
  let next = 1;
  for (const [[type, award, title, received, status, pages], faulty] of documentsOf(random, world)) {
    while ((next % 5 === 3) !== faulty) next += 1; // get_document_page answers "queued" once on ids n % 5 === 3
    const id = documentId.format(next++);
    insertDoc.run(id, type, award, title, pages.length, received, status);
    pages.forEach((text, index) => insertPage.run(id, index + 1, text));
  }
}

/** Writes the rows: sponsors, people, awards and their budgets, commitments, subawards, payments and charges. */
export function insertRows({ db, referenceDate: today }: GenerateContext, world: GrantsWorld): void {
  const { sponsors, people, awards } = world;
  const subawards = awards.flatMap((a) => a.subawards.map((s) => [s, a] as const));
  const charges = awards.flatMap((a) => a.txns.map((t) => ({ ...t, award: a.id })));
  charges.sort((x, y) => x.postedOn.localeCompare(y.postedOn) || x.award.localeCompare(y.award));
  const head = (a: Award) => [a.id, a.sponsor.id, a.sponsorAwardNo, a.title, a.commitments[0]!.person.id];
  const status = (a: Award): string => (a.end < today ? "closed" : "active");
  const category = (t: Txn): string => OBJECT_CODES[t.code]!.category;
  const ledger = (t: Txn) => [t.code, category(t), t.description, t.amount, t.subaward ?? null, "posted"];
  const paid = ([s]: (typeof subawards)[number]) =>
    s.payments.map((p) => [null, s.id, p.invoiceNo, p.amount, p.paidOn]);
  const tables: Record<string, unknown[][]> = {
    sponsors: sponsors.map((s) => [s.id, s.name, s.terms.type, s.path]),
    personnel: people.map((p) => [p.id, p.name.fullName, p.department, p.appointment, p.name.email]),
    awards: awards.map((a) => [...head(a), a.department, a.start, a.end, status(a), a.extensions]),
    budget_lines: awards.flatMap((a) => [...a.keyed].map(([category, amount]) => [a.id, category, amount])),
    commitments: awards.flatMap((a) => a.commitments.map((c) => [a.id, c.person.id, c.role, c.pct])),
    subawards: subawards.map(([s, a]) => [s.id, a.id, s.subrecipient, s.obligated, s.start, s.end]),
    subaward_payments: subawards.flatMap(paid),
    transactions: charges.map((t, n) => [txnId.format(200_001 + n * 3), t.award, t.postedOn, ...ledger(t)]),
  };
  for (const [table, rows] of Object.entries(tables)) {
    const statement = db.prepare(`INSERT INTO ${table} VALUES (${rows[0]?.map(() => "?").join(", ")})`);
    for (const row of rows) statement.run(...row);
  }
}
