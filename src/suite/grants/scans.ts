/**
 * The scanned document pile as the OCR service returns it: award letters (two pages, the budget table
 * running onto the second), subaward invoices, effort certifications and no-cost-extension memos, with
 * drifting columns, stamps, stray marks, hyphenation and misread amounts.
 */
import type { GenerateContext } from "../../envs/index.js";
import { addDays, cell, hyphenate, longDate, numberCell, ocrAmount, ocrConfuse, roundCents, scanStamp, strayLine } from "../../envs/index.js";
import type { Award, GrantsWorld, Invoice, Letter, Person, Subaward } from "./generate.js";
import { CATEGORIES, EFFORT_PERIOD, BUDGET_PERIOD, SUBAWARD_MTDC_CAP, UNIVERSITY, documentId } from "./rules.js";
import type { Category } from "./rules.js";

type Random = GenerateContext["random"];
type Doc = { type: string; award: string | null; title: string; received: string; status: string; pages: string[]; faulty: boolean };

const RULE = "-".repeat(72);
const gap = (random: Random, low = 4, high = 18): string => " ".repeat(random.int(low, high));
/** `07/31/2025` */
export const mdy = (date: string): string => `${date.slice(5, 7)}/${date.slice(8, 10)}/${date.slice(0, 4)}`;
const footer = (random: Random, day: string, page: number, pages: number): string[] => [...strayLine(random), `${scanStamp(random, day)}${gap(random)}Page ${page} of ${pages}`];
const money = (random: Random, value: number, forced = false): string => ocrAmount(random, value, { probability: forced ? 1 : 0.12, kind: forced ? "split" : undefined });

function indirect(world: GrantsWorld, award: Award, budget: Map<Category, number>): number {
  const { idc } = award.sponsor.terms;
  const total = [...budget.values()].reduce((sum, amount) => sum + amount, 0);
  if (!idc) return 0;
  const excluded = (budget.get("equipment") ?? 0) + (budget.get("participant_support") ?? 0) + Math.max(0, (budget.get("subawards") ?? 0) - SUBAWARD_MTDC_CAP);
  const rate = idc.rate === "negotiated" ? world.negotiatedRate : idc.rate;
  return roundCents(((idc.base === "MTDC" ? total - excluded : total) * rate) / 100);
}

function letterPages(random: Random, world: GrantsWorld, award: Award, letter: Letter): string[] {
  const label = letter.amendment === 0 ? "NOTICE OF AWARD" : `NOTICE OF AWARD - AMENDMENT No. ${letter.amendment}`;
  const row = ([category, amount]: [Category, number]): string => `${cell(random, CATEGORIES[category], 30)}$${numberCell(random, money(random, amount, letter.noisy === category), 12)}`;
  const rows = [...letter.budget].map(row);
  const total = [...letter.budget.values()].reduce((sum, amount) => sum + amount, 0);
  const idc = indirect(world, award, letter.budget);
  const periodEnd = award.end < BUDGET_PERIOD.end ? award.end : BUDGET_PERIOD.end;
  const pi = world.people.find((person) => person.id === award.commitments[0]!.person.id)!;
  return [
    [
      `${UNIVERSITY.toUpperCase()}${gap(random)}OFFICE OF SPONSORED PROGRAMS`,
      `${gap(random, 30, 44)}RECEIVED ${mdy(letter.received)}`,
      ocrConfuse(random, award.sponsor.name),
      label,
      `Award No.: ${award.id}${gap(random)}Sponsor Award No.: ${award.sponsorAwardNo}`,
      `Principal Investigator: ${ocrConfuse(random, pi.name)}`,
      ...hyphenate(`Project Title: ${award.title}`, 58),
      `Project Period: ${mdy(award.start)} - ${mdy(award.end)}`,
      `Budget Period: ${mdy(BUDGET_PERIOD.start)} - ${mdy(periodEnd)}`,
      ...hyphenate(letter.amendment > 0 ? "This amendment supersedes the approved budget in all earlier notices for this budget period. All other terms remain unchanged." : "This notice incorporates the sponsor's terms and conditions by reference. Acceptance of funds constitutes acceptance of those terms.", 70),
      ...strayLine(random),
      "APPROVED BUDGET - DIRECT COSTS",
      "CATEGORY                              AMOUNT",
      ...rows.slice(0, 2),
      "(continued on next page)",
      ...footer(random, letter.received, 1, 2),
    ].join("\n"),
    [
      `${award.id}${gap(random)}${label} (continued)`,
      "CATEGORY                              AMOUNT",
      ...rows.slice(2),
      RULE,
      `TOTAL DIRECT COSTS${gap(random, 14, 20)}$${numberCell(random, money(random, total), 12)}`,
      `Indirect costs (F&A)${gap(random, 12, 18)}$${numberCell(random, money(random, idc), 12)}`,
      `TOTAL THIS BUDGET PERIOD${gap(random, 8, 14)}$${numberCell(random, money(random, roundCents(total + idc)), 12)}`,
      ...strayLine(random),
      `Grants officer: ${ocrConfuse(random, random.pick(["Dana Whitcomb", "Luis Ortega", "Priya Natarajan", "Helen Brandt"]))}`,
      ...footer(random, letter.received, 2, 2),
    ].join("\n"),
  ];
}

function invoicePage(random: Random, award: Award, subaward: Subaward, invoice: Invoice, cumulative: number): string {
  const parts = [0.5, 0.15, 0.1].map((share) => roundCents(invoice.amount * share));
  parts.push(roundCents(invoice.amount - parts.reduce((sum, part) => sum + part, 0)));
  const before = cumulative - invoice.amount;
  const labels = ["Salaries and wages", "Fringe benefits", "Materials and supplies", "Indirect costs (F&A)"];
  const lines = labels.map((label, index) => `${cell(random, label, 28)}${numberCell(random, money(random, parts[index]!), 14)}${gap(random, 3, 8)}${numberCell(random, money(random, roundCents(before * [0.5, 0.15, 0.1, 0.25][index]! + parts[index]!)), 12)}`);
  const dated = addDays(invoice.to, 8);
  return [
    `${ocrConfuse(random, subaward.subrecipient)}${gap(random, 10, 24)}INVOICE`,
    `Office of Sponsored Research${gap(random)}Invoice No.: ${invoice.invoiceNo}`,
    `Invoice Date: ${mdy(dated)}`,
    `Bill to: ${UNIVERSITY}, Sponsored Programs Accounting`,
    `Subaward No.: ${subaward.id}${gap(random)}Prime Award: ${award.id}`,
    `Period of performance billed: ${mdy(invoice.from)} - ${mdy(invoice.to)}`,
    RULE,
    "COST CATEGORY                  CURRENT PERIOD        CUMULATIVE",
    ...lines,
    RULE,
    `TOTAL AMOUNT DUE${gap(random, 8, 14)}$ ${money(random, invoice.amount, invoice.noisy)}${gap(random, 4, 8)}$ ${money(random, roundCents(cumulative))}`,
    ...strayLine(random),
    ...hyphenate("I certify that to the best of my knowledge the expenses billed are for the work performed under the subaward and are allowable and allocable.", 70),
    invoice.signed ? `Signature: /s/ ${ocrConfuse(random, `${subaward.subrecipient.split(" ")[0]} Finance Office`)}${gap(random)}Date: ${mdy(dated)}` : "Signature: ______________________________    Date: ___________",
    ...footer(random, addDays(dated, 5), 1, 1),
  ].join("\n");
}

function certificationPage(random: Random, world: GrantsWorld, person: Person): string | null {
  const rows = world.awards.flatMap((award) =>
    award.start <= EFFORT_PERIOD.end && award.end >= EFFORT_PERIOD.start
      ? award.commitments.filter((c) => c.person === person).map((c) => ({ award, c }))
      : [],
  );
  if (rows.length === 0) return null;
  const percent = (value: number): string => `${value}${random.pick(["", "%", " %", ".0"])}`;
  const lines = rows.flatMap(({ award, c }) => {
    const [first, ...rest] = hyphenate(award.sponsor.name, 26);
    return [`${cell(random, award.id, 14, 2)}${cell(random, first!, 28, 2)}${numberCell(random, percent(c.pct), 8)}${numberCell(random, percent(c.certified), 12)}`, ...rest.map((part) => `${" ".repeat(15)}${part}`)];
  });
  const sponsored = rows.reduce((sum, { c }) => sum + c.certified, 0);
  return [
    UNIVERSITY.toUpperCase(),
    "PERSONNEL ACTIVITY REPORT - EFFORT CERTIFICATION",
    `Employee: ${ocrConfuse(random, person.name)}${gap(random)}Employee ID: ${person.id}`,
    `Department: ${person.department}${gap(random)}Appointment: ${person.appointment.replace("_", " ")}`,
    `Reporting period: ${mdy(EFFORT_PERIOD.start)} - ${mdy(EFFORT_PERIOD.end)}`,
    RULE,
    "AWARD          SPONSOR                       COMMITTED %   CERTIFIED %",
    ...lines,
    `Non-sponsored activity (instruction, service)${gap(random, 10, 16)}${Math.max(0, 100 - sponsored)}`,
    `TOTAL${gap(random, 50, 56)}100`,
    ...strayLine(random),
    ...hyphenate("I certify that the distribution of effort above is a reasonable estimate of the work I performed in the reporting period.", 70),
    `Signature: /s/ ${ocrConfuse(random, person.name)}${gap(random)}Date: ${mdy(addDays(EFFORT_PERIOD.end, random.int(20, 40)))}`,
    ...footer(random, "2025-02-14", 1, 1),
  ].join("\n");
}

function requestPage(random: Random, world: GrantsWorld, award: Award): string {
  const { newEnd, received } = award.request!;
  const pi = award.commitments[0]!.person;
  const balance = roundCents(5_000 + random.next() * 60_000);
  return [
    "MEMORANDUM",
    `To: Office of Sponsored Programs${gap(random)}RECEIVED ${mdy(received)}`,
    `From: ${ocrConfuse(random, pi.name)}, Department of ${award.department}`,
    `Date: ${mdy(addDays(received, -random.int(1, 4)))}`,
    `Re: Request for no-cost extension - Award ${award.id}`,
    RULE,
    ...hyphenate(`I request a no-cost extension of award ${award.id} (${award.sponsor.name}, sponsor award ${award.sponsorAwardNo}) from the current end date of ${longDate(award.end)} to ${longDate(newEnd)}. ${random.pick(["Field work was delayed by weather and a permit backlog.", "A key instrument was out of service for several months.", "Recruitment of study participants took longer than planned.", "A graduate student position stayed vacant for a semester."])}`, 72),
    "",
    ...hyphenate(`The unobligated balance is estimated at $ ${money(random, balance)} and will be spent on the remaining work; no additional funds are requested.`, 72),
    ...strayLine(random, 0.5),
    `Department chair: ${ocrConfuse(random, world.people[random.int(0, world.people.length - 1)]!.name)}${gap(random)}Endorsed`,
    ...footer(random, received, 1, 1),
  ].join("\n");
}

function documentsOf(random: Random, world: GrantsWorld): Doc[] {
  const docs: Doc[] = [];
  for (const award of world.awards)
    for (const letter of award.letters) {
      const title = letter.amendment === 0 ? "Notice of award (original)" : `Notice of award, amendment ${letter.amendment}`;
      docs.push({ type: "award_letter", award: award.id, title, received: letter.received, status: "filed", pages: letterPages(random, world, award, letter), faulty: random.chance(0.2) });
    }
  for (const award of world.awards)
    for (const subaward of award.subawards) {
      const paid = subaward.payments.reduce((sum, payment) => sum + payment.amount, 0);
      const last = subaward.payments.at(-1)!;
      const invoices: Array<[Invoice, number, string]> = [[{ ...last, signed: true, noisy: false, faulty: false }, paid, "paid"]];
      if (subaward.pending) invoices.push([subaward.pending, subaward.pending.paidOn === "" ? paid + subaward.pending.amount : paid, "pending"]);
      for (const [invoice, cumulative, status] of invoices)
        docs.push({ type: "subaward_invoice", award: award.id, title: `Invoice ${invoice.invoiceNo} (${subaward.id})`, received: addDays(invoice.to, random.int(12, 20)), status, pages: [invoicePage(random, award, subaward, invoice, cumulative)], faulty: invoice.faulty });
    }
  const planted = world.awards[0]!.commitments.find((c) => c.role === "co-I")!.person;
  for (const person of [...world.people].sort((a, b) => a.id.localeCompare(b.id))) {
    const page = certificationPage(random, world, person);
    if (page) docs.push({ type: "effort_certification", award: null, title: `Effort certification Jul-Dec 2024 - ${person.name}`, received: "2025-02-14", status: "filed", pages: [page], faulty: person === planted || random.chance(0.2) });
  }
  for (const award of world.awards.filter((item) => item.request))
    docs.push({ type: "extension_request", award: award.id, title: `No-cost extension request ${award.id}`, received: award.request!.received, status: "pending", pages: [requestPage(random, world, award)], faulty: award.request!.faulty });
  return docs;
}

/** Writes the scanned pile: doc numbers are handed out so that exactly the `faulty` ones match the OCR fault rule. */
export function insertScans({ db, random }: GenerateContext, world: GrantsWorld): void {
  const insertDoc = db.prepare("INSERT INTO documents VALUES (?, ?, ?, ?, ?, ?, ?)");
  const insertPage = db.prepare("INSERT INTO document_pages VALUES (?, ?, ?)");
  let next = 1;
  for (const doc of documentsOf(random, world)) {
    while ((next % 5 === 3) !== doc.faulty) next += 1;
    const id = documentId.format(next++);
    insertDoc.run(id, doc.type, doc.award, doc.title, doc.pages.length, doc.received, doc.status);
    doc.pages.forEach((text, index) => insertPage.run(id, index + 1, text));
  }
}
