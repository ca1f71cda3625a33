import {
  addDays,
  personName,
  randomDate,
  slug,
  weightedPick,
  type GenerateContext,
} from "../../envs/index.js";
import type { SeededRandom } from "../../core/index.js";
import { writeDocuments, writeLicences } from "./documents.js";
import { commissionFee, ratesFor, type CommissionTerms } from "./fees.js";
import { Mailer, writeCorrectionThreads, writeInvoiceThreads, writeLegalThreads } from "./mail-threads.js";
import { DESKS, NEWSROOM, TIERS, commissionId, freelancerId, paymentId, staffId, storyId } from "./rules.js";

export interface Person {
  name: string;
  email: string;
  role: string;
}
export interface Story {
  id: string;
  slug: string;
  desk: string;
  headline: string;
  status: string;
  publishedAt: string | null;
}
/** A commission as generated: its terms, who it is for and whether an older payment settled it. */
export interface Commission extends CommissionTerms {
  id: string;
  freelancer: Person & { id: string; tier: string };
  story: Story;
  paid: boolean;
}

/** Staff by `role` or `role:desk` (reporters and desk editors). */
export type People = Map<string, Person[]>;

const SUBJECTS: Record<string, string[]> = {
  metro: ["Council", "Transit board", "School district", "Harbour trust", "Housing agency"],
  politics: ["Senate", "Governor", "Opposition", "Assembly speaker", "Mayor"],
  business: ["Regional bank", "Grocery chain", "Port operator", "Startup", "Airline"],
  sports: ["Rovers", "City FC", "Hawks", "Valley Rangers", "Mariners"],
  culture: ["Opera house", "Film festival", "City museum", "Book prize jury", "Theatre company"],
  world: ["Coalition", "Trade bloc", "Ministry", "Central bank", "Summit hosts"],
};
const VERBS = "approves|rejects|delays|backs|weighs|revives|drops|unveils|defends".split("|");
const BANNED_VERBS = "slams|in shock over|in bombshell over|in epic fight over|in meltdown over".split("|");
const OBJECTS = (
  "budget plan|rent cap|stadium deal|bus lane scheme|pay offer|water tariff|merger|tax rebate|" +
  "festival funding|border checks|library cuts|flood defences"
).split("|");

export function clock(random: SeededRandom, fromHour: number, toHour: number): string {
  return `${String(random.int(fromHour, toHour)).padStart(2, "0")}:${String(random.int(0, 59)).padStart(2, "0")}`;
}

/** "YYYY-MM-DD HH:MM" plus minutes. */
export function addMinutes(at: string, minutes: number): string {
  const time = new Date(`${at.replace(" ", "T")}:00Z`).getTime() + minutes * 60_000;
  return new Date(time).toISOString().slice(0, 16).replace("T", " ");
}

function headlineFor(context: GenerateContext, desk: string): string {
  const { random, faker } = context;
  const subject = random.pick(SUBJECTS[desk]!);
  const roll = random.next();
  const object = random.pick(OBJECTS);
  if (roll < 0.1) return `${faker.person.lastName()} ${random.pick(BANNED_VERBS)} ${object}`;
  const base = `${subject} ${random.pick(VERBS)} ${object}`;
  if (roll < 0.16) return `${base} as shockwaves hit ${faker.location.city()}`;
  if (roll < 0.3)
    return `${base} as ${faker.person.fullName()} warns of rising costs ahead of ${random.pick(["June", "July", "autumn"])} vote`;
  return base;
}

function insertStaff(context: GenerateContext): People {
  const { db, faker, factors } = context;
  const emails = new Set<string>();
  const insert = db.prepare("INSERT INTO staff VALUES (?, ?, ?, ?, ?)");
  const people: People = new Map();
  let count = 0;
  const add = (role: string, desk: string | null): void => {
    const person = personName(faker, NEWSROOM.domain, emails);
    insert.run(staffId.format(++count), person.fullName, person.email, role, desk);
    const key = desk ? `${role}:${desk}` : role;
    people.set(key, [...(people.get(key) ?? []), { name: person.fullName, email: person.email, role }]);
  };
  for (const desk of DESKS) {
    add("desk_editor", desk);
    for (let k = 0; k < 1 + factors.rows; k += 1) add("reporter", desk);
  }
  for (const role of ["standards", "standards", "legal", "legal", "photo_editor"]) add(role, null);
  return people;
}

const STOP_WORDS = new Set(["as", "of", "in", "over", "for", "the"]);

/** Stories with their publication events per channel, some around an embargo. */
function insertStories(context: GenerateContext, people: People): Story[] {
  const { db, random, factors, referenceDate: today } = context;
  const insert = db.prepare("INSERT INTO stories VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  const insertEvent = db.prepare("INSERT INTO publish_events VALUES (NULL, ?, ?, ?)"); // event_id assigned
  const slugs = new Set<string>();
  const stories: Story[] = [];
  for (let n = 1; n <= 55 * factors.rows; n += 1) {
    const desk = random.pick(DESKS);
    const headline = headlineFor(context, desk);
    const words = headline.split(/\s+/).map(slug);
    const base = words
      .filter((word) => word && !STOP_WORDS.has(word))
      .slice(0, 5)
      .join("-");
    let storySlug = base;
    for (let k = 2; slugs.has(storySlug); k += 1) storySlug = `${base}-${k}`;
    slugs.add(storySlug);
    const statuses = ["published", "draft", "edited", "ready", "legal_hold", "spiked"];
    const status = weightedPick(random, statuses, [58, 18, 9, 7, 4, 4]);
    const byline = random.pick(people.get(`reporter:${desk}`)!).email;
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
        // Embargoes: web publication before it, exactly at it, or after it; an early social post; partner copy.
        const breach = random.next();
        embargo = addMinutes(web, breach < 0.15 ? random.int(5, 55) : breach < 0.3 ? 0 : -random.int(0, 50));
        if (breach >= 0.3 && breach < 0.45) events.push(["social", addMinutes(embargo, -random.int(1, 25))]);
        if (random.chance(0.5)) events.push(["partner_feed", addMinutes(embargo, -random.int(60, 240))]);
      }
    }
    const id = storyId.format(n);
    const length = random.int(300, 1800);
    insert.run(id, storySlug, desk, headline, byline, status, length, updated, embargo, publishedAt);
    for (const [channel, at] of events) insertEvent.run(id, channel, at);
    stories.push({ id, slug: storySlug, desk, headline, status, publishedAt });
  }
  return stories;
}

/** Freelancers, their commissions, and payments (at the rate card's fee) for older filed or killed work. */
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
  const usable = stories.filter((story) => story.status !== "spiked");
  const insert = db.prepare("INSERT INTO commissions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  const insertPayment = db.prepare("INSERT INTO payments VALUES (?, ?, ?, ?, ?, ?, ?, NULL)");
  const commissions: Commission[] = [];
  let payments = 0;
  for (let n = 1; n <= 26 * factors.rows; n += 1) {
    const [id, freelancer] = [commissionId.format(n), random.pick(freelancers)];
    const kind = weightedPick(random, ["article", "photo"], [7, 3]);
    const units = kind === "article" ? random.int(12, 36) * 50 : random.int(2, 8);
    const agreed = randomDate(random, "2025-02-03", addDays(today, -8));
    const status = weightedPick(random, ["filed", "killed", "commissioned"], [6, 2.5, 1.5]);
    const filed = status === "filed" || (status === "killed" && random.chance(0.5));
    const filedOn = filed ? addDays(agreed, random.int(3, 7)) : null;
    const filedArticle = Math.round((units * (0.8 + random.next() * 0.4)) / 10) * 10;
    const filedUnits = !filed
      ? null
      : kind === "article"
        ? filedArticle
        : Math.max(1, units - random.int(0, 2));
    const killedOn = status === "killed" ? addDays(filedOn ?? agreed, random.int(1, 5)) : null;
    const paid = status !== "commissioned" && agreed < addDays(today, -40) && random.chance(0.85);
    const story = random.pick(usable);
    const terms = { kind, status, commissioned_units: units, filed_units: filedUnits, filed_on: filedOn };
    commissions.push({ id, freelancer, story, paid, ...terms });
    insert.run(id, freelancer.id, story.id, kind, units, filedUnits, status, agreed, filedOn, killedOn);
    if (!paid) continue;
    const approved = addDays(filedOn ?? killedOn!, random.int(5, 12));
    const paidOn = addDays(approved, random.int(2, 14));
    const fee = commissionFee(terms, ratesFor(freelancer, new Map()));
    const [state, paidDate] = paidOn <= today ? ["paid", paidOn] : ["approved", null];
    insertPayment.run(paymentId.format(++payments), id, freelancer.id, fee, state, approved, paidDate);
  }
  return commissions;
}

export function generateNewsroom(context: GenerateContext): void {
  const people = insertStaff(context);
  const stories = insertStories(context, people);
  const mailer = new Mailer(context.db, context.random);
  const commissions = insertCommissions(context, stories);
  writeCorrectionThreads(context, stories, people, mailer);
  writeLegalThreads(context, stories, people, mailer);
  const agreements = writeDocuments(context, commissions);
  writeInvoiceThreads(context, commissions, agreements, people, mailer);
  writeLicences(context, stories);
}
