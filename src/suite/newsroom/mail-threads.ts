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
} from "../../envs/index.js";
import { commissionFee, ratesFor, type FeeRates } from "./fees.js";
import { addMinutes, clock, type Commission, type People, type Person, type Story } from "./generate.js";
import { forwardBlock, SIGNATURE_LINE, type ThreadMessage } from "./render-thread.js";
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

/** Writes mail threads into the database: each message's own text plus its sender's signature. */
export class Mailer {
  private threads = 0;
  private messages = 0;

  constructor(private readonly db: Database.Database) {}

  thread(mailbox: string, subject: string): string {
    const id = threadId.format(++this.threads);
    this.db.prepare("INSERT INTO mail_threads VALUES (?, ?, ?)").run(id, mailbox, subject);
    return id;
  }

  send(
    thread: string,
    from: Person,
    to: string,
    sentAt: string,
    text: string,
    options: { style?: ThreadMessage["style"]; attachment?: { name: string; text: string } } = {},
  ): void {
    const staff = from.role === "freelancer" ? "" : ` | ${NEWSROOM.name}\n\n${FOOTER}`;
    const signature = `\n${SIGNATURE_LINE}\n${from.name}\n${TITLES[from.role]}${staff}`;
    this.db
      .prepare("INSERT INTO mail_messages VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
      .run(
        messageId.format(++this.messages),
        thread,
        sentAt,
        from.name,
        from.email,
        to,
        options.style ?? "top",
        `${text}${signature}`,
        options.attachment?.name ?? null,
        options.attachment?.text ?? null,
      );
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
const CORRECTION_PATTERNS = "logged declined reversed late-approval approved logged declined logged".split(
  " ",
);
const CLAUSES = [
  "misstated the result of the vote",
  "named the wrong official",
  "misspelled a name",
  "misidentified a building",
];

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
): void {
  const { db, random, faker, factors, referenceDate: today } = context;
  const insertCorrection = db.prepare("INSERT INTO corrections VALUES (?, ?, ?, ?, ?)");
  let corrections = 0;
  const log = (story: string, kind: string, wording: string, on: string): void => {
    insertCorrection.run(correctionId.format(++corrections), story, kind, wording, on > today ? today : on);
  };
  const candidates = stories.filter((story) => story.publishedAt && story.publishedAt < addDays(today, -14));
  const threaded = sample(random, candidates, 8 * factors.rows);
  // Corrections logged from phone calls and the letters page, without a thread.
  for (const story of sample(
    random,
    candidates.filter((story) => !threaded.includes(story)),
    6 * factors.rows,
  )) {
    const kind = random.pick(CORRECTION_KINDS);
    const wording = `An earlier version of this article contained a ${kind} error.`;
    log(story.id, kind, wording, randomDate(random, story.publishedAt!.slice(0, 10), today));
  }
  const standards = people.get("standards")!;
  let logged = 0;
  threaded.forEach((story, index) => {
    const pattern = CORRECTION_PATTERNS[index % CORRECTION_PATTERNS.length]!;
    const k = pattern === "logged" ? logged++ : -1;
    const kind = random.pick(CORRECTION_KINDS);
    const editor = people.get(`desk_editor:${story.desk}`)![0]!;
    const reporter = random.pick(people.get(`reporter:${story.desk}`)!);
    const reader = personName(faker, "readermail.example");
    const decider = random.pick(standards);
    const day = addDays(story.publishedAt!.slice(0, 10), random.int(0, 5));
    const receivedDay =
      k % 3 === 0 ? addDays(mondayOf(day), 7) : k % 3 === 1 ? addDays(mondayOf(day), 4) : day;
    const delay = k % 3 === 0 ? 3 : k % 3 === 1 ? 2 : random.int(0, 4);
    const received = `${receivedDay} ${clock(random, 7, 23)}`;
    let at = `${addDays(receivedDay, random.int(1, 2))} ${clock(random, 8, 11)}`;
    const later = (low: number, high: number): string => (at = addMinutes(at, random.int(low, high)));
    const complaint = COMPLAINTS[kind]!(story, faker.person.lastName());
    const thread = mailer.thread("corrections", `Correction request: ${story.slug}`);
    const form = [
      `${NEWSROOM.name.toUpperCase()} - CORRECTIONS REQUEST FORM`,
      `Story slug:      ${story.slug}`,
      `Story ID:        ${story.id}`,
      `Date received:   ${receivedDay}`,
      "Received via:    e-mail (letters@)",
      `Complainant:     ${reader.fullName}`,
      `Error alleged:   ${kind}`,
      `Details:         ${complaint}`,
    ].join("\n");
    const original = forwardBlock(
      {
        from: `${reader.fullName} <${reader.email}>`,
        sentAt: received,
        subject: `Your story "${story.headline}"`,
        to: `letters@${NEWSROOM.domain}`,
      },
      `Hello,\n\n${complaint}\n\nRegards,\n${reader.fullName}`,
    );
    const intro = `Standards - a reader says we got ${story.slug} wrong. Form attached; the original is below.`;
    mailer.send(thread, editor, `corrections@${NEWSROOM.domain}`, at, `${intro}\n\n${original}`, {
      attachment: { name: `corrections-request-${story.slug}.txt`, text: form },
    });
    const firstName = reporter.name.split(" ")[0];
    mailer.send(
      thread,
      decider,
      reporter.email,
      later(30, 300),
      `${firstName}, can you check your notes on this and come back to me today?`,
    );
    const agrees = pattern !== "declined" && pattern !== "late-approval";
    const check = agrees
      ? "Checked - the reader is right, I misread my notes. Sorry."
      : "I've checked my notes and the recording; I stand by what we published.";
    mailer.send(thread, reporter, decider.email, later(30, 300), check, {
      style: random.chance(0.4) ? "inline" : "top",
    });
    const subjectPart = kind === "headline" ? "'s headline" : "";
    const wording = `An earlier version of this article${subjectPart} ${random.pick(CLAUSES)}. This has been corrected.`;
    const decision = agrees ? PHRASES.approve(kind, wording) : `Thanks both. ${PHRASES.decline}`;
    mailer.send(thread, decider, editor.email, later(20, 200), decision);
    if (pattern === "reversed")
      mailer.send(
        thread,
        random.pick(standards),
        editor.email,
        later(60, 1500),
        `Scrap that - the reporter's recording settles it after all. ${PHRASES.decline}`,
      );
    if (pattern === "late-approval")
      mailer.send(
        thread,
        random.pick(standards),
        editor.email,
        later(60, 1500),
        `Update: the council minutes show the reader was right. ${PHRASES.approve(kind, wording)}`,
      );
    if (random.chance(0.5)) {
      const thanks = random.pick(["Thanks, noted.", "Understood - thanks for sorting this.", "OK, thanks."]);
      mailer.send(thread, random.chance(0.5) ? editor : reporter, decider.email, later(10, 120), thanks);
    }
    if (k >= 0) log(story.id, kind, wording, addBusinessDays(receivedDay, delay));
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
): void {
  const { db, random, factors, faker, referenceDate: today } = context;
  const unpublished = stories.filter((story) => ["edited", "ready", "legal_hold"].includes(story.status));
  if (unpublished.length < 4) throw new Error("too few edited stories for the legal-read threads");
  const lawyers = people.get("legal")!;
  const setStatus = db.prepare("UPDATE stories SET status = ? WHERE story_id = ?");
  sample(random, unpublished, Math.min(unpublished.length, 5 * factors.rows)).forEach((story, index) => {
    const pattern = LEGAL_PATTERNS[index % LEGAL_PATTERNS.length]!;
    const editor = people.get(`desk_editor:${story.desk}`)![0]!;
    const lawyer = random.pick(lawyers);
    const thread = mailer.thread("legal", `Legal read: ${story.slug}`);
    let at = `${addDays(today, -random.int(2, 20))} ${clock(random, 9, 16)}`;
    const later = (low: number, high: number): string => (at = addMinutes(at, random.int(low, high)));
    const ask = `Can legal read ${story.slug} ("${story.headline}") before it runs? It's in the system.`;
    mailer.send(thread, editor, `legal@${NEWSROOM.domain}`, at, ask);
    const first = pattern.startsWith("clear") ? "clear" : "hold";
    mailer.send(
      thread,
      lawyer,
      editor.email,
      later(60, 400),
      first === "hold" ? PHRASES.hold(story.slug) : PHRASES.clear(story.slug),
    );
    let final = first;
    if (pattern.includes("-then-")) {
      const change = "We've added the council's response and cut the second paragraph - can you look again?";
      mailer.send(thread, editor, lawyer.email, later(60, 1400), change, { style: "inline" });
      final = pattern.endsWith("clear") ? "clear" : "hold";
      const reread =
        final === "hold"
          ? `Having seen the new draft: ${PHRASES.hold(story.slug)}`
          : PHRASES.clear(story.slug);
      mailer.send(thread, random.pick(lawyers), editor.email, later(60, 600), reread);
    }
    if (pattern === "counsel") {
      later(60, 900);
      const advice = first === "hold" ? `CLEARED: ${story.slug} can run` : `HOLD: ${story.slug} should wait`;
      const note = forwardBlock(
        {
          from: `${faker.person.fullName()} <counsel@hartleyllp.example>`,
          sentAt: addMinutes(at, -90),
          subject: `RE: ${story.slug}`,
          to: lawyer.email,
        },
        `My advice would be ${advice} - see my marked-up copy.`,
      );
      mailer.send(
        thread,
        lawyer,
        editor.email,
        at,
        `Forwarding outside counsel's note for the file; it does not change my view above.\n\n${note}`,
      );
    }
    if (random.chance(0.5)) {
      const reply = final === "hold" ? "Understood, parking it for now." : "Great, thanks - scheduling it.";
      mailer.send(thread, editor, lawyer.email, later(10, 200), reply);
    }
    const lagging = final === "hold" ? "ready" : "legal_hold";
    setStatus.run(index < 2 ? lagging : random.pick(["legal_hold", "ready", "edited"]), story.id);
  });
}

function invoiceText(
  commission: Commission,
  number: string,
  date: string,
  lines: Array<[string, number, number]>,
): string {
  const total = roundCents(lines.reduce((sum, [, quantity, rate]) => sum + quantity * rate, 0));
  const columns = (cells: string[]): string =>
    `${cells[0]!.padEnd(34)}${cells[1]!.padStart(8)}${cells[2]!.padStart(10)}${cells[3]!.padStart(12)}`;
  return [
    `INVOICE ${number}`,
    `From: ${commission.freelancer.name} <${commission.freelancer.email}>`,
    `Bill to: ${NEWSROOM.name}, Accounts Payable`,
    `Date: ${longDate(date)}`,
    `Commission ref: ${commission.id} ("${commission.story.slug}")`,
    "",
    columns(["Description", "Qty", "Rate", "Amount"]),
    ...lines.map(([label, quantity, rate]) =>
      columns([label, String(quantity), formatUsd(rate), formatUsd(roundCents(quantity * rate))]),
    ),
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
    const rates = ratesFor(commission.freelancer, agreements);
    const fee = commissionFee(commission, rates);
    const rate = commission.kind === "article" ? rates.perWord : rates.perImage;
    const unit = commission.kind === "article" ? "Words" : "Images";
    const honest: Array<[string, number, number]> = [
      [commission.status === "killed" ? "Kill fee" : `Fee (${commission.kind})`, 1, fee],
    ];
    const overbilled = (): Array<[string, number, number]> => {
      if (commission.status === "killed")
        return [[`${unit} commissioned (full fee)`, commission.commissioned_units, rate]];
      if ((commission.filed_units ?? 0) > commission.commissioned_units)
        return [[`${unit} filed`, commission.filed_units!, rate]];
      return [...honest, ["Expenses (travel)", 1, random.int(4, 30) * 5]];
    };
    const editor = people.get(`desk_editor:${commission.story.desk}`)![0]!;
    const thread = mailer.thread("freelance", `Invoice ${commission.id} - ${commission.story.slug}`);
    let at = `${addDays(today, -random.int(3, 25))} ${clock(random, 8, 20)}`;
    const number = `${commission.freelancer.id.slice(3)}-${String(index + 1).padStart(3, "0")}`;
    const invoice = (suffix: string, lines: Array<[string, number, number]>) => ({
      name: `invoice-${number}${suffix ? "-rev1" : ""}.txt`,
      text: invoiceText(commission, `${number}${suffix}`, at.slice(0, 10), lines),
    });
    const text = `Hi, invoice for ${commission.story.slug} attached. Thanks!`;
    mailer.send(thread, commission.freelancer, `freelance@${NEWSROOM.domain}`, at, text, {
      attachment: invoice("", index % 3 === 1 ? overbilled() : honest),
    });
    if (index % 6 !== 1 && index % 6 !== 2) return;
    at = addMinutes(at, random.int(60, 1500));
    const query =
      "Thanks - before this goes to finance, can you check the amount against the rate card and re-issue?";
    mailer.send(thread, editor, commission.freelancer.email, at, query);
    at = addMinutes(at, random.int(60, 1500));
    mailer.send(
      thread,
      commission.freelancer,
      editor.email,
      at,
      "Apologies - revised invoice attached; please ignore the earlier one.",
      {
        attachment: invoice("R", index % 6 === 1 ? honest : overbilled()),
      },
    );
  });
}
