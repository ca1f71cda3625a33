import type Database from "better-sqlite3";
import {
  addBusinessDays,
  addDays,
  formatUsd,
  longDate,
  mondayOf,
  personName,
  randomDate,
  roundCents,
  sample,
  type GenerateContext,
  forwardBlock,
  SIGNATURE_LINE,
  type ThreadMessage,
} from "../../envs/index.js";
import type { SeededRandom } from "../../core/index.js";
import { commissionFee, ratesFor, type FeeRates } from "./fees.js";
import { addMinutes, clock, type Commission, type People, type Person, type Story } from "./generate.js";
import { CORRECTION_KINDS, NEWSROOM, PHRASES, correctionId, messageId, threadId } from "./rules.js";

const TITLES: Record<string, string> = {
  reporter: "Reporter",
  desk_editor: "Desk Editor",
  standards: "Standards Editor",
  legal: "Legal Counsel",
  photo_editor: "Picture Editor",
  freelancer: "Freelance contributor\nSent from my phone",
};
const FOOTER =
  "This e-mail and any attachments are confidential and may be legally privileged. If you have received it in error, please tell the sender and delete it; do not copy, forward or publish it.";

interface SendOptions {
  /** Minutes after the thread's previous message, drawn between the two bounds; none: at the thread's clock. */
  after?: [number, number];
  style?: ThreadMessage["style"];
  attachment?: { name: string; text: string };
}

/** One thread being written: its clock moves forward with each message. */
export interface MailThread {
  at: string;
  send(from: Person, to: string, text: string, options?: SendOptions): void;
}

/** Writes mail threads into the database: each message's own text plus its sender's signature. */
export class Mailer {
  private threads = 0;
  private messages = 0;

  constructor(
    private readonly db: Database.Database,
    private readonly random: SeededRandom,
  ) {}

  thread(mailbox: string, subject: string, at: string): MailThread {
    const id = threadId.format(++this.threads);
    this.db.prepare("INSERT INTO mail_threads VALUES (?, ?, ?)").run(id, mailbox, subject);
    const insert = this.db.prepare("INSERT INTO mail_messages VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    const thread: MailThread = {
      at,
      send: (from, to, text, { after, style = "top", attachment } = {}) => {
        if (after) thread.at = addMinutes(thread.at, this.random.int(...after));
        const staff = from.role === "freelancer" ? "" : ` | ${NEWSROOM.name}\n\n${FOOTER}`;
        const body = `${text}\n${SIGNATURE_LINE}\n${from.name}\n${TITLES[from.role]}${staff}`;
        const sender = [from.name, from.email, to, style, body];
        const files = [attachment?.name ?? null, attachment?.text ?? null];
        insert.run(messageId.format(++this.messages), id, thread.at, ...sender, ...files);
      },
    };
    return thread;
  }
}

const COMPLAINTS: Record<string, (story: Story, name: string) => string> = {
  factual: (story) =>
    `Your piece "${story.headline}" gives the wrong figure for the vote - it was 7-4, not 8-3.`,
  spelling: (_story, name) => `You misspelled ${name}'s surname throughout the article.`,
  attribution: () => "The quote in the fifth paragraph was said by the deputy, not the chair.",
  caption: () => "The photo caption names the wrong building; that is the old library, not the town hall.",
  headline: () => "The headline says the plan was approved, but the vote was only on the first reading.",
};
/** How request threads end, in turn: approved and logged, declined, approved then reversed, declined then
 * approved, approved but never logged. */
const CORRECTION_PATTERNS = "logged declined reversed late-approval approved logged declined".split(" ");
const CLAUSES = ["misstated the result of the vote", "named the wrong official", "misidentified a building"];
const TEXT = {
  ask: "can you check your notes on this and come back to me today?",
  agree: "Checked - the reader is right, I misread my notes. Sorry.",
  disagree: "I've checked my notes and the recording; I stand by what we published.",
  reverse: `Scrap that - the reporter's recording settles it after all. ${PHRASES.decline}`,
  update: "Update: the council minutes show the reader was right.",
  thanks: ["Thanks, noted.", "Understood - thanks for sorting this.", "OK, thanks."],
  change: "We've added the council's response and cut the second paragraph - can you look again?",
  counsel: "Forwarding outside counsel's note for the file; it does not change my view above.",
  query: "Thanks - before this goes to finance, can you check the amount against the rate card and re-issue?",
  revised: "Apologies - revised invoice attached; please ignore the earlier one.",
};

/** A reader's complaint as the desk forwards it: intro, the original e-mail, and the request form attached. */
function correctionRequest(context: GenerateContext, story: Story, kind: string, received: string) {
  const reader = personName(context.faker, "readermail.example");
  const complaint = COMPLAINTS[kind]!(story, context.faker.person.lastName());
  const form = [
    `${NEWSROOM.name.toUpperCase()} - CORRECTIONS REQUEST FORM`,
    `Story slug:      ${story.slug}`,
    `Story ID:        ${story.id}`,
    `Date received:   ${received.slice(0, 10)}`,
    "Received via:    e-mail (letters@)",
    `Complainant:     ${reader.fullName}`,
    `Error alleged:   ${kind}`,
    `Details:         ${complaint}`,
  ].join("\n");
  const from = `${reader.fullName} <${reader.email}>`;
  const headers = {
    from,
    sentAt: received,
    subject: `Your story "${story.headline}"`,
    to: `letters@${NEWSROOM.domain}`,
  };
  const original = forwardBlock(headers, `Hello,\n\n${complaint}\n\nRegards,\n${reader.fullName}`);
  const intro = `Standards - a reader says we got ${story.slug} wrong. Form attached; the original is below.`;
  return {
    text: `${intro}\n\n${original}`,
    attachment: { name: `corrections-request-${story.slug}.txt`, text: form },
  };
}

/**
 * Correction requests: a reader's complaint forwarded with a request form, the reporter's check, the standards
 * editor's decision (sometimes overturned later), and for some agreed corrections a log entry: late when the
 * form arrived on a Monday and took three business days, on time from a Friday two business days on.
 */
export function writeCorrectionThreads(
  context: GenerateContext,
  stories: Story[],
  people: People,
  mailer: Mailer,
) {
  const { db, random, factors, referenceDate: today } = context;
  const insert = db.prepare("INSERT INTO corrections VALUES (?, ?, ?, ?, ?)");
  let corrections = 0;
  const log = (story: Story, kind: string, wording: string, on: string): void => {
    insert.run(correctionId.format(++corrections), story.id, kind, wording, on > today ? today : on);
  };
  const candidates = stories.filter((story) => story.publishedAt && story.publishedAt < addDays(today, -14));
  const threaded = sample(random, candidates, 8 * factors.rows);
  // Corrections logged from phone calls and the letters page, without a thread.
  const unthreaded = candidates.filter((story) => !threaded.includes(story));
  for (const story of sample(random, unthreaded, 6 * factors.rows)) {
    const kind = random.pick(CORRECTION_KINDS);
    const wording = `An earlier version of this article contained a ${kind} error.`;
    log(story, kind, wording, randomDate(random, story.publishedAt!.slice(0, 10), today));
  }
  const standards = people.get("standards")!;
  let logged = 0;
  threaded.forEach((story, index) => {
    const pattern = CORRECTION_PATTERNS[index % CORRECTION_PATTERNS.length]!;
    const k = pattern === "logged" ? logged++ : -1;
    const kind = random.pick(CORRECTION_KINDS);
    const editor = people.get(`desk_editor:${story.desk}`)![0]!;
    const reporter = random.pick(people.get(`reporter:${story.desk}`)!);
    const decider = random.pick(standards);
    const day = addDays(story.publishedAt!.slice(0, 10), random.int(0, 5));
    const receivedDay =
      k % 3 === 0 ? addDays(mondayOf(day), 7) : k % 3 === 1 ? addDays(mondayOf(day), 4) : day;
    const delay = k % 3 === 0 ? 3 : k % 3 === 1 ? 2 : random.int(0, 4);
    const request = correctionRequest(context, story, kind, `${receivedDay} ${clock(random, 7, 23)}`);
    const forwarded = `${addDays(receivedDay, random.int(1, 2))} ${clock(random, 8, 11)}`;
    const thread = mailer.thread("corrections", `Correction request: ${story.slug}`, forwarded);
    thread.send(editor, `corrections@${NEWSROOM.domain}`, request.text, { attachment: request.attachment });
    thread.send(decider, reporter.email, `${reporter.name.split(" ")[0]}, ${TEXT.ask}`, { after: [30, 300] });
    const agrees = pattern === "logged" || pattern === "approved" || pattern === "reversed";
    const style = random.chance(0.4) ? "inline" : "top";
    thread.send(reporter, decider.email, agrees ? TEXT.agree : TEXT.disagree, { after: [30, 300], style });
    const headline = kind === "headline" ? "'s headline" : "";
    const wording = `An earlier version of this article${headline} ${random.pick(CLAUSES)}. This has been corrected.`;
    const decision = agrees ? PHRASES.approve(kind, wording) : `Thanks both. ${PHRASES.decline}`;
    thread.send(decider, editor.email, decision, { after: [20, 200] });
    if (pattern === "reversed")
      thread.send(random.pick(standards), editor.email, TEXT.reverse, { after: [60, 1500] });
    const update = `${TEXT.update} ${PHRASES.approve(kind, wording)}`;
    if (pattern === "late-approval")
      thread.send(random.pick(standards), editor.email, update, { after: [60, 1500] });
    const thanker = random.chance(0.5) ? editor : reporter;
    if (random.chance(0.5))
      thread.send(thanker, decider.email, random.pick(TEXT.thanks), { after: [10, 120] });
    if (k >= 0) log(story, kind, wording, addBusinessDays(receivedDay, delay));
  });
}

const LEGAL_PATTERNS = ["hold", "clear", "hold-then-clear", "counsel", "clear-then-hold", "hold"];

/**
 * Legal-read threads on edited stories: holds, clearances, re-reads after changes, and outside counsel's advice
 * forwarded for the file. The CMS status lags the thread: the first two stories always have the wrong status.
 */
export function writeLegalThreads(
  context: GenerateContext,
  stories: Story[],
  people: People,
  mailer: Mailer,
) {
  const { db, random, factors, faker, referenceDate: today } = context;
  const edited = stories.filter((story) => ["edited", "ready", "legal_hold"].includes(story.status));
  if (edited.length < 4) throw new Error("too few edited stories for the legal-read threads");
  const lawyers = people.get("legal")!;
  const setStatus = db.prepare("UPDATE stories SET status = ? WHERE story_id = ?");
  sample(random, edited, Math.min(edited.length, 5 * factors.rows)).forEach((story, index) => {
    const pattern = LEGAL_PATTERNS[index % LEGAL_PATTERNS.length]!;
    const editor = people.get(`desk_editor:${story.desk}`)![0]!;
    const lawyer = random.pick(lawyers);
    const opened = `${addDays(today, -random.int(2, 20))} ${clock(random, 9, 16)}`;
    const thread = mailer.thread("legal", `Legal read: ${story.slug}`, opened);
    const ask = `Can legal read ${story.slug} ("${story.headline}") before it runs? It's in the system.`;
    thread.send(editor, `legal@${NEWSROOM.domain}`, ask);
    const first = pattern.startsWith("clear") ? "clear" : "hold";
    const verdict = (decision: string): string =>
      (decision === "hold" ? PHRASES.hold : PHRASES.clear)(story.slug);
    thread.send(lawyer, editor.email, verdict(first), { after: [60, 400] });
    const final = pattern.includes("-then-") ? (pattern.endsWith("clear") ? "clear" : "hold") : first;
    if (pattern.includes("-then-")) {
      thread.send(editor, lawyer.email, TEXT.change, { after: [60, 1400], style: "inline" });
      const reread = `${final === "hold" ? "Having seen the new draft: " : ""}${verdict(final)}`;
      thread.send(random.pick(lawyers), editor.email, reread, { after: [60, 600] });
    }
    if (pattern === "counsel") {
      thread.at = addMinutes(thread.at, random.int(60, 900));
      const from = `${faker.person.fullName()} <counsel@hartleyllp.example>`;
      const headers = {
        from,
        sentAt: addMinutes(thread.at, -90),
        subject: `RE: ${story.slug}`,
        to: lawyer.email,
      };
      const note = forwardBlock(
        headers,
        `My advice would be CLEARED: ${story.slug} can run - see my marked-up copy.`,
      );
      thread.send(lawyer, editor.email, `${TEXT.counsel}\n\n${note}`);
    }
    const reply = final === "hold" ? "Understood, parking it for now." : "Great, thanks - scheduling it.";
    if (random.chance(0.5)) thread.send(editor, lawyer.email, reply, { after: [10, 200] });
    const lagging = final === "hold" ? "ready" : "legal_hold";
    setStatus.run(index < 2 ? lagging : random.pick(["legal_hold", "ready", "edited"]), story.id);
  });
}

type InvoiceLine = [label: string, quantity: number, rate: number];

function invoiceText(commission: Commission, number: string, date: string, lines: InvoiceLine[]): string {
  const total = roundCents(lines.reduce((sum, [, quantity, rate]) => sum + quantity * rate, 0));
  const columns = (cells: string[]): string =>
    `${cells[0]!.padEnd(34)}${cells[1]!.padStart(8)}${cells[2]!.padStart(10)}${cells[3]!.padStart(12)}`;
  const amounts = lines.map(([label, quantity, rate]) =>
    columns([label, String(quantity), formatUsd(rate), formatUsd(roundCents(quantity * rate))]),
  );
  return [
    `INVOICE ${number}`,
    `From: ${commission.freelancer.name} <${commission.freelancer.email}>`,
    `Bill to: ${NEWSROOM.name}, Accounts Payable`,
    `Date: ${longDate(date)}`,
    `Commission ref: ${commission.id} ("${commission.story.slug}")`,
    "",
    columns(["Description", "Qty", "Rate", "Amount"]),
    ...amounts,
    "",
    `TOTAL DUE: ${formatUsd(total)}`,
    "Payment terms: 30 days.",
  ].join("\n");
}

/**
 * Invoices for filed or killed work not yet paid. Counting the threads from 0, thread 1 of every 3 first bills
 * too much (a killed piece at the full fee, filed words over the commission, or unagreed expenses); threads 1
 * and 2 of every 6 are re-issued after the desk queries them (1 corrected, 2 made wrong).
 */
export function writeInvoiceThreads(
  context: GenerateContext,
  commissions: Commission[],
  agreements: Map<string, FeeRates>,
  people: People,
  mailer: Mailer,
): void {
  const { random, referenceDate: today } = context;
  const pending = commissions.filter((c) => !c.paid && c.status !== "commissioned");
  pending.forEach((commission, index) => {
    const { freelancer, kind, status, commissioned_units: units, filed_units: filed, story } = commission;
    const rates = ratesFor(freelancer, agreements);
    const rate = kind === "article" ? rates.perWord : rates.perImage;
    const unit = kind === "article" ? "Words" : "Images";
    const honest: InvoiceLine[] = [
      [status === "killed" ? "Kill fee" : `Fee (${kind})`, 1, commissionFee(commission, rates)],
    ];
    const overbilled = (): InvoiceLine[] => {
      if (status === "killed") return [[`${unit} commissioned (full fee)`, units, rate]];
      if ((filed ?? 0) > units) return [[`${unit} filed`, filed!, rate]];
      return [...honest, ["Expenses (travel)", 1, random.int(4, 30) * 5]];
    };
    const editor = people.get(`desk_editor:${story.desk}`)![0]!;
    const sent = `${addDays(today, -random.int(3, 25))} ${clock(random, 8, 20)}`;
    const thread = mailer.thread("freelance", `Invoice ${commission.id} - ${story.slug}`, sent);
    const number = `${freelancer.id.slice(3)}-${String(index + 1).padStart(3, "0")}`;
    const invoice = (revised: boolean, lines: InvoiceLine[]) => ({
      name: `invoice-${number}${revised ? "-rev1" : ""}.txt`,
      text: invoiceText(commission, `${number}${revised ? "R" : ""}`, thread.at.slice(0, 10), lines),
    });
    const text = `Hi, invoice for ${story.slug} attached. Thanks!`;
    const first = index % 3 === 1 ? overbilled() : honest;
    thread.send(freelancer, `freelance@${NEWSROOM.domain}`, text, { attachment: invoice(false, first) });
    if (index % 6 !== 1 && index % 6 !== 2) return;
    thread.send(editor, freelancer.email, TEXT.query, { after: [60, 1500] });
    const second = invoice(true, index % 6 === 1 ? honest : overbilled());
    thread.send(freelancer, editor.email, TEXT.revised, { after: [60, 1500], attachment: second });
  });
}
