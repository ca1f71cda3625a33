import {
  addBusinessDays,
  addDays,
  mondayOf,
  personName,
  randomDate,
  sample,
  slug,
  weightedPick,
  type GenerateContext,
} from "../../envs/index.js";
import type { SeededRandom } from "../../core/index.js";
import { commissionFee } from "./fees.js";
import { writeInvoiceThreads, writeDocuments, writeLicences } from "./generate-documents.js";
import { Mailer, type Person } from "./mailer.js";
import {
  CORRECTION_KINDS,
  DESKS,
  NEWSROOM,
  PHRASES,
  RATE_CARD,
  TIERS,
  commissionId,
  correctionId,
  freelancerId,
  paymentId,
  staffId,
  storyId,
} from "./rules.js";

export interface Story {
  id: string;
  slug: string;
  desk: string;
  headline: string;
  status: string;
  publishedAt: string | null;
}

export interface Commission {
  id: string;
  freelancer: Person & { id: string; tier: string };
  story: Story;
  kind: string;
  commissioned_units: number;
  filed_units: number | null;
  status: string;
  filed_on: string | null;
  paid: boolean;
}

const SUBJECTS: Record<string, string[]> = {
  metro: ["Council", "Transit board", "School district", "Harbour trust", "Housing agency"],
  politics: ["Senate", "Governor", "Opposition", "Assembly speaker", "Mayor"],
  business: ["Regional bank", "Grocery chain", "Port operator", "Startup", "Airline"],
  sports: ["Rovers", "City FC", "Hawks", "Valley Rangers", "Mariners"],
  culture: ["Opera house", "Film festival", "City museum", "Book prize jury", "Theatre company"],
  world: ["Coalition", "Trade bloc", "Ministry", "Central bank", "Summit hosts"],
};
const VERBS = ["approves", "rejects", "delays", "backs", "weighs", "revives", "drops", "unveils", "defends"];
const BANNED_VERBS = [
  "slams",
  "in shock over",
  "in bombshell over",
  "in epic fight over",
  "in meltdown over",
];
const OBJECTS = [
  "budget plan",
  "rent cap",
  "stadium deal",
  "bus lane scheme",
  "pay offer",
  "water tariff",
  "merger",
  "tax rebate",
  "festival funding",
  "border checks",
  "library cuts",
  "flood defences",
];

function clock(random: SeededRandom, fromHour: number, toHour: number): string {
  return `${String(random.int(fromHour, toHour)).padStart(2, "0")}:${String(random.int(0, 59)).padStart(2, "0")}`;
}

/** "YYYY-MM-DD HH:MM" plus minutes. */
export function addMinutes(at: string, minutes: number): string {
  const time = new Date(`${at.replace(" ", "T")}:00Z`).getTime() + minutes * 60_000;
  return new Date(time).toISOString().slice(0, 16).replace("T", " ");
}

function headlineFor(random: SeededRandom, desk: string, faker: GenerateContext["faker"]): string {
  const subject = random.pick(SUBJECTS[desk]!);
  const roll = random.next();
  const object = random.pick(OBJECTS);
  if (roll < 0.1) return `${faker.person.lastName()} ${random.pick(BANNED_VERBS)} ${object}`;
  if (roll < 0.16)
    return `${subject} ${random.pick(VERBS)} ${object} as shockwaves hit ${faker.location.city()}`;
  const base = `${subject} ${random.pick(VERBS)} ${object}`;
  if (roll < 0.3)
    return `${base} as ${faker.person.fullName()} warns of rising costs ahead of ${random.pick(["June", "July", "autumn"])} vote`;
  return base;
}

function insertStaff(context: GenerateContext): Map<string, Person[]> {
  const { db, faker, factors } = context;
  const emails = new Set<string>();
  const insert = db.prepare("INSERT INTO staff VALUES (?, ?, ?, ?, ?)");
  const byRole = new Map<string, Person[]>();
  let n = 0;
  const add = (role: string, desk: string | null): void => {
    const person = personName(faker, NEWSROOM.domain, emails);
    const id = staffId.format(++n);
    insert.run(id, person.fullName, person.email, role, desk);
    const key = desk ? `${role}:${desk}` : role;
    byRole.set(key, [...(byRole.get(key) ?? []), { name: person.fullName, email: person.email, role }]);
  };
  for (const desk of DESKS) {
    add("desk_editor", desk);
    for (let k = 0; k < 1 + factors.rows; k += 1) add("reporter", desk);
  }
  add("standards", null);
  add("standards", null);
  add("legal", null);
  add("legal", null);
  add("photo_editor", null);
  return byRole;
}

function insertStories(context: GenerateContext, reporters: Map<string, Person[]>): Story[] {
  const { db, random, faker, factors, referenceDate: today } = context;
  const insert = db.prepare("INSERT INTO stories VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  const insertEvent = db.prepare(
    "INSERT INTO publish_events (story_id, channel, published_at) VALUES (?, ?, ?)",
  );
  const slugs = new Set<string>();
  const stories: Story[] = [];
  for (let n = 1; n <= 55 * factors.rows; n += 1) {
    const desk = random.pick(DESKS);
    const headline = headlineFor(random, desk, faker);
    const words = headline
      .split(/\s+/)
      .map(slug)
      .filter((word) => word.length > 0);
    const base = words
      .filter((word) => !["as", "of", "in", "over", "for", "the"].includes(word))
      .slice(0, 5)
      .join("-");
    let storySlug = base;
    for (let k = 2; slugs.has(storySlug); k += 1) storySlug = `${base}-${k}`;
    slugs.add(storySlug);
    const status = weightedPick(
      random,
      ["published", "draft", "edited", "ready", "legal_hold", "spiked"],
      [58, 18, 9, 7, 4, 4],
    );
    const reporter = random.pick(reporters.get(`reporter:${desk}`)!);
    let publishedAt: string | null = null;
    let embargo: string | null = null;
    let updated = randomDate(random, addDays(today, -60), addDays(today, -1));
    const events: Array<[string, string]> = [];
    if (status === "published") {
      const day = randomDate(random, "2025-03-03", addDays(today, -1));
      const web = `${day} ${clock(random, 6, 21)}`;
      publishedAt = web;
      updated = day;
      events.push(["web", web], ["app", addMinutes(web, random.int(0, 6))]);
      if (random.chance(0.5)) events.push(["social", addMinutes(web, random.int(2, 40))]);
      if (random.chance(0.3)) events.push(["newsletter", `${addDays(day, 1)} 06:00`]);
      if (random.chance(0.4)) {
        const breach = random.next();
        const at = breach < 0.15 ? random.int(5, 55) : breach < 0.3 ? 0 : -random.int(0, 50);
        embargo = addMinutes(web, at);
        if (at === 0) embargo = web;
        if (breach >= 0.3 && breach < 0.45) events.push(["social", addMinutes(embargo, -random.int(1, 25))]);
        if (random.chance(0.5)) events.push(["partner_feed", addMinutes(embargo, -random.int(60, 240))]);
      }
    }
    const id = storyId.format(n);
    insert.run(
      id,
      storySlug,
      desk,
      headline,
      reporter.email,
      status,
      random.int(300, 1800),
      updated,
      embargo,
      publishedAt,
    );
    for (const [channel, at] of events) insertEvent.run(id, channel, at);
    stories.push({ id, slug: storySlug, desk, headline, status, publishedAt });
  }
  // The story budget: planned slots for the coming week and the week just gone.
  const insertBudget = db.prepare("INSERT INTO story_budget VALUES (?, ?, ?, ?)");
  for (const story of stories.filter((s) => s.status !== "published" && s.status !== "spiked")) {
    if (!random.chance(0.7)) continue;
    const date = addDays(today, random.int(-10, 6));
    insertBudget.run(
      date,
      story.id,
      random.pick(["A1", "web lead", "inside", "weekend"]),
      random.int(4, 16) * 100,
    );
  }
  return stories;
}

export function rateFor(kind: string, tier: string): number {
  return kind === "article" ? RATE_CARD.article[tier]! : RATE_CARD.photo[tier]!;
}

function insertCommissions(context: GenerateContext, stories: Story[]): Commission[] {
  const { db, random, faker, factors, referenceDate: today } = context;
  const emails = new Set<string>();
  const insertFreelancer = db.prepare("INSERT INTO freelancers VALUES (?, ?, ?, ?, ?)");
  const freelancers: Commission["freelancer"][] = [];
  for (let n = 1; n <= 6 * factors.rows; n += 1) {
    const person = personName(faker, random.pick(["mail.example", "inbox.example", "post.example"]), emails);
    const id = freelancerId.format(n);
    const tier = weightedPick(random, TIERS, [2, 3, 3]);
    insertFreelancer.run(id, person.fullName, person.email, tier, random.pick(["US", "UK", "CA", "IE"]));
    freelancers.push({ id, name: person.fullName, email: person.email, role: "freelancer", tier });
  }
  const published = stories.filter((story) => story.status !== "spiked");
  const insert = db.prepare("INSERT INTO commissions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  const insertPayment = db.prepare("INSERT INTO payments VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  const commissions: Commission[] = [];
  let payments = 0;
  for (let n = 1; n <= 26 * factors.rows; n += 1) {
    const freelancer = random.pick(freelancers);
    const kind = weightedPick(random, ["article", "photo"], [7, 3]);
    const units = kind === "article" ? random.int(12, 36) * 50 : random.int(2, 8);
    const agreed = randomDate(random, "2025-02-03", addDays(today, -8));
    const status = weightedPick(random, ["filed", "killed", "commissioned"], [6, 2.5, 1.5]);
    const filedOn =
      status === "filed" || (status === "killed" && random.chance(0.5))
        ? addDays(agreed, random.int(3, 7))
        : null;
    const filedUnits = filedOn
      ? kind === "article"
        ? Math.round((units * (0.8 + random.next() * 0.4)) / 10) * 10
        : Math.max(1, units - random.int(0, 2))
      : null;
    const killedOn = status === "killed" ? addDays(filedOn ?? agreed, random.int(1, 5)) : null;
    const commission: Commission = {
      id: commissionId.format(n),
      freelancer,
      story: random.pick(published),
      kind,
      commissioned_units: units,
      filed_units: filedUnits,
      status,
      filed_on: filedOn,
      paid: status !== "commissioned" && agreed < addDays(today, -40) && random.chance(0.85),
    };
    insert.run(
      commission.id,
      freelancer.id,
      commission.story.id,
      kind,
      units,
      filedUnits,
      status,
      agreed,
      filedOn,
      killedOn,
    );
    if (commission.paid) {
      const approved = addDays(filedOn ?? killedOn!, random.int(5, 12));
      const paidOn = addDays(approved, random.int(2, 14));
      const fee = commissionFee(commission, {
        perWord: rateFor("article", freelancer.tier),
        perImage: rateFor("photo", freelancer.tier),
        ...RATE_CARD,
      });
      const paid = paidOn <= today;
      insertPayment.run(
        paymentId.format(++payments),
        commission.id,
        freelancer.id,
        fee,
        paid ? "paid" : "approved",
        approved,
        paid ? paidOn : null,
        null,
      );
    }
    commissions.push(commission);
  }
  return commissions;
}

const COMPLAINTS: Record<string, (story: Story, name: string) => string> = {
  factual: (story) =>
    `Your piece "${story.headline}" gives the wrong figure for the vote - it was 7-4, not 8-3.`,
  spelling: (_story, name) => `You misspelled ${name}'s surname throughout the article.`,
  attribution: () => "The quote in the fifth paragraph was said by the deputy, not the chair.",
  caption: () => "The photo caption names the wrong building; that is the old library, not the town hall.",
  headline: () => "The headline says the plan was approved, but the vote was only on the first reading.",
};

/** Correction request threads: a forwarded reader complaint with a request form, then the desk's decision. */
function insertCorrections(
  context: GenerateContext,
  stories: Story[],
  people: Map<string, Person[]>,
  mailer: Mailer,
): void {
  const { db, random, faker, factors, referenceDate: today } = context;
  const insertCorrection = db.prepare("INSERT INTO corrections VALUES (?, ?, ?, ?, ?)");
  let corrections = 0;
  const log = (story: string, kind: string, wording: string, on: string): void => {
    insertCorrection.run(correctionId.format(++corrections), story, kind, wording, on);
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
    log(
      story.id,
      kind,
      `An earlier version of this article contained a ${kind} error.`,
      randomDate(random, story.publishedAt!.slice(0, 10), today),
    );
  }
  const standards = people.get("standards")!;
  const patterns = [
    "approved-logged",
    "declined",
    "reversed",
    "late-approval",
    "approved",
    "approved-logged",
    "declined",
    "approved-logged",
  ];
  let logged = 0;
  threaded.forEach((story, index) => {
    const pattern = patterns[index % patterns.length]!;
    const k = pattern === "approved-logged" ? logged++ : -1;
    const kind = random.pick(CORRECTION_KINDS);
    const editor = people.get(`desk_editor:${story.desk}`)![0]!;
    const reporter = random.pick(people.get(`reporter:${story.desk}`)!);
    const reader = personName(faker, "readermail.example");
    const editorOfStandards = random.pick(standards);
    // Logged corrections: late from a Monday, on time from a Friday (late in calendar days), or random.
    const day = addDays(story.publishedAt!.slice(0, 10), random.int(0, 5));
    const receivedDay =
      k % 3 === 0 ? addDays(mondayOf(day), 7) : k % 3 === 1 ? addDays(mondayOf(day), 4) : day;
    const delay = k % 3 === 0 ? 3 : k % 3 === 1 ? 2 : random.int(0, 4);
    const received = `${receivedDay} ${clock(random, 7, 23)}`;
    let at = `${addDays(receivedDay, random.int(1, 2))} ${clock(random, 8, 11)}`;
    const complaint = COMPLAINTS[kind]!(story, faker.person.lastName());
    const thread = mailer.thread("corrections", `Correction request: ${story.slug}`);
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
    mailer.send(
      thread,
      editor,
      `corrections@${NEWSROOM.domain}`,
      at,
      "top",
      `Standards - a reader says we got ${story.slug} wrong. Form attached; the original is below.\n\n${mailer.forward(
        {
          from: `${reader.fullName} <${reader.email}>`,
          sentAt: received,
          subject: `Your story "${story.headline}"`,
          to: `letters@${NEWSROOM.domain}`,
        },
        `Hello,\n\n${complaint}\n\nRegards,\n${reader.fullName}`,
      )}`,
      { name: `corrections-request-${story.slug}.txt`, text: form },
    );
    at = addMinutes(at, random.int(30, 300));
    mailer.send(
      thread,
      editorOfStandards,
      reporter.email,
      at,
      "top",
      `${reporter.name.split(" ")[0]}, can you check your notes on this and come back to me today?`,
    );
    at = addMinutes(at, random.int(30, 300));
    const agrees = pattern.startsWith("approved") || pattern === "reversed";
    mailer.send(
      thread,
      reporter,
      editorOfStandards.email,
      at,
      random.chance(0.4) ? "inline" : "top",
      agrees
        ? "Checked - the reader is right, I misread my notes. Sorry."
        : "I've checked my notes and the recording; I stand by what we published.",
    );
    at = addMinutes(at, random.int(20, 200));
    const clause = random.pick([
      "misstated the result of the vote",
      "named the wrong official",
      "misspelled a name",
      "misidentified a building",
    ]);
    const wording = `An earlier version of this article${kind === "headline" ? "'s headline" : ""} ${clause}. This has been corrected.`;
    mailer.send(
      thread,
      editorOfStandards,
      editor.email,
      at,
      "top",
      agrees ? PHRASES.approve(kind, wording) : `Thanks both. ${PHRASES.decline}`,
    );
    if (pattern === "reversed" || pattern === "late-approval") {
      at = addMinutes(at, random.int(60, 1500));
      const second = random.pick(standards);
      mailer.send(
        thread,
        second,
        editor.email,
        at,
        "top",
        pattern === "reversed"
          ? `Scrap that - the reporter's recording settles it after all. ${PHRASES.decline}`
          : `Update: the council minutes show the reader was right. ${PHRASES.approve(kind, wording)}`,
      );
    }
    if (random.chance(0.5)) {
      at = addMinutes(at, random.int(10, 120));
      mailer.send(
        thread,
        random.chance(0.5) ? editor : reporter,
        editorOfStandards.email,
        at,
        "top",
        random.pick(["Thanks, noted.", "Understood - thanks for sorting this.", "OK, thanks."]),
      );
    }
    if (k >= 0) {
      const loggedOn = addBusinessDays(receivedDay, delay);
      log(story.id, kind, wording, loggedOn > today ? today : loggedOn);
    }
  });
}

/** Legal-read threads on unpublished stories: holds, clearances, re-reads and outside counsel's notes. */
function insertLegalThreads(
  context: GenerateContext,
  stories: Story[],
  people: Map<string, Person[]>,
  mailer: Mailer,
): void {
  const { db, random, factors, faker, referenceDate: today } = context;
  const unpublished = stories.filter((story) => ["edited", "ready", "legal_hold"].includes(story.status));
  const lawyers = people.get("legal")!;
  const setStatus = db.prepare("UPDATE stories SET status = ? WHERE story_id = ?");
  const patterns = ["hold", "clear", "hold-then-clear", "clear-then-hold", "counsel", "hold"];
  sample(random, unpublished, Math.min(unpublished.length, 5 * factors.rows)).forEach((story, index) => {
    const pattern = patterns[index % patterns.length]!;
    const editor = people.get(`desk_editor:${story.desk}`)![0]!;
    const lawyer = random.pick(lawyers);
    const thread = mailer.thread("legal", `Legal read: ${story.slug}`);
    let at = `${addDays(today, -random.int(2, 20))} ${clock(random, 9, 16)}`;
    mailer.send(
      thread,
      editor,
      `legal@${NEWSROOM.domain}`,
      at,
      "top",
      `Can legal read ${story.slug} ("${story.headline}") before it runs? It's in the system.`,
    );
    const first = pattern === "clear" || pattern === "clear-then-hold" ? "clear" : "hold";
    at = addMinutes(at, random.int(60, 400));
    mailer.send(
      thread,
      lawyer,
      editor.email,
      at,
      "top",
      first === "hold" ? PHRASES.hold(story.slug) : PHRASES.clear(story.slug),
    );
    let final = first;
    if (pattern === "hold-then-clear" || pattern === "clear-then-hold") {
      at = addMinutes(at, random.int(60, 1400));
      mailer.send(
        thread,
        editor,
        lawyer.email,
        at,
        "inline",
        "We've added the council's response and cut the second paragraph - can you look again?",
      );
      at = addMinutes(at, random.int(60, 600));
      final = pattern === "hold-then-clear" ? "clear" : "hold";
      mailer.send(
        thread,
        random.pick(lawyers),
        editor.email,
        at,
        "top",
        final === "hold"
          ? `Having seen the new draft: ${PHRASES.hold(story.slug)}`
          : PHRASES.clear(story.slug),
      );
    }
    if (pattern === "counsel") {
      at = addMinutes(at, random.int(60, 900));
      mailer.send(
        thread,
        lawyer,
        editor.email,
        at,
        "top",
        `Forwarding outside counsel's note for the file; it does not change my view above.\n\n${mailer.forward(
          {
            from: `${faker.person.fullName()} <counsel@hartleyllp.example>`,
            sentAt: addMinutes(at, -90),
            subject: `RE: ${story.slug}`,
            to: lawyer.email,
          },
          `My advice would be ${first === "hold" ? `CLEARED: ${story.slug} can run` : `HOLD: ${story.slug} should wait`} - see my marked-up copy.`,
        )}`,
      );
    }
    if (random.chance(0.5)) {
      at = addMinutes(at, random.int(10, 200));
      mailer.send(
        thread,
        editor,
        lawyer.email,
        at,
        "top",
        final === "hold" ? "Understood, parking it for now." : "Great, thanks - scheduling it.",
      );
    }
    // The CMS status sometimes lags the thread.
    const status =
      final === "hold"
        ? random.pick(["edited", "ready", "legal_hold"])
        : random.pick(["legal_hold", "ready", "edited"]);
    setStatus.run(index < 2 ? (final === "hold" ? "ready" : "legal_hold") : status, story.id);
  });
}

export function generateNewsroom(context: GenerateContext): void {
  const people = insertStaff(context);
  const reporters = new Map([...people].filter(([key]) => key.startsWith("reporter:")));
  const stories = insertStories(context, reporters);
  const mailer = new Mailer(context.db);
  const commissions = insertCommissions(context, stories);
  insertCorrections(context, stories, people, mailer);
  insertLegalThreads(context, stories, people, mailer);
  const agreements = writeDocuments(context, commissions);
  writeInvoiceThreads(context, commissions, agreements, people, mailer);
  writeLicences(context, stories);
}
