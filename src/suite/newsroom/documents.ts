import {
  addDays,
  formatUsd,
  longDate,
  randomDate,
  renderMarkdown,
  roundCents,
  sample,
  type GenerateContext,
} from "../../envs/index.js";
import type { FeeRates } from "./fees.js";
import type { Commission, Story } from "./generate.js";
import { CORRECTIONS, NEWSROOM, PATHS, RATE_CARD, STYLE, TIERS, photoId } from "./rules.js";

function writePolicies(context: GenerateContext): void {
  const write = (path: string, title: string, blocks: Parameters<typeof renderMarkdown>[1]): void =>
    context.writeFile(path, renderMarkdown(title, blocks));
  write(PATHS.styleGuide, `${NEWSROOM.name} style guide (excerpt)`, [
    { heading: "Headlines" },
    `A headline is at most ${STYLE.maxHeadlineChars} characters, spaces included.`,
    `Never use these words in a headline: ${STYLE.bannedWords.map((word) => `"${word}"`).join(", ")}. The rule is about whole words, in any capitalisation: "shockwaves" or "epicentre" are fine.`,
    { heading: "Photos" },
    "A photo may appear only in media its licence permits, and only while the licence runs. Staff photos (credit STAFF) need no licence.",
  ]);
  write(PATHS.correctionsPolicy, "Corrections policy", [
    "Requests reach the corrections mailbox with a corrections request form. The standards editor (or deputy) decides in the thread; their latest decision in the thread is the one that counts, and a later message can overturn an earlier one.",
    { heading: "Logging" },
    `Every agreed correction is logged in the corrections log with the kind and the exact wording the standards editor gave, no later than ${CORRECTIONS.logWithinBusinessDays} business days after the date received on the request form (weekends are not business days). A story gets one log entry per correction.`,
    { heading: "Quarterly report" },
    "The quarterly report counts logged corrections by the desk of the corrected story. Spelling corrections are left out of the report; every other kind counts once.",
  ]);
  write(PATHS.legalReads, "Legal reads", [
    "Desk editors send copy that needs a legal read to the legal mailbox, one thread per story. Only the legal desk (legal counsel on the staff list) decides: its latest decision in the thread stands. Advice from outside counsel that the legal desk forwards is for the file, not a decision.",
    { heading: "Status in the CMS" },
    "A story the legal desk is holding must be in status legal_hold, whatever its status was. When the legal desk clears a story that is in legal_hold, it moves to ready; a cleared story in any other status keeps it.",
  ]);
  write(PATHS.rateCard, "Freelance rate card", [
    `Effective ${longDate("2025-01-01")}. Approved by the managing editor.`,
    { heading: "Rates by tier" },
    {
      table: {
        headers: ["tier", "articles (USD per word)", "photos (USD per image)"],
        rows: TIERS.map((tier) => [
          tier,
          RATE_CARD.article[tier]!.toFixed(2),
          RATE_CARD.photo[tier]!.toFixed(2),
        ]),
      },
    },
    { heading: "How fees are worked out" },
    `Filed work is paid on the lesser of the filed and the commissioned length (words, or images for photos). An article fee is never less than ${formatUsd(RATE_CARD.minimumArticleFee)}.`,
    `Killed work earns a kill fee: ${RATE_CARD.killAfterFilingPct}% of the full commissioned fee when the work had been filed before it was killed, ${RATE_CARD.killBeforeFilingPct}% when it had not. The minimum fee does not apply to kill fees.`,
    "Expenses are not paid unless agreed in writing before the commission. A contributor with a signed agreement in freelancers/agreements is paid at the agreement's rates instead of the tier rates; everything else on this card still applies. Fees are rounded to cents.",
  ]);
  write(PATHS.embargoPolicy, "Embargo policy", [
    "Embargo times in the CMS are UTC. A story is published at the moment it first appears on any of our channels: web, app, newsletter or social.",
    "Copy delivered to partners through the partner feed is delivered under embargo and is not publication.",
    "Publishing at exactly the embargo time is allowed; any earlier appearance is a breach.",
  ]);
}

/** The policies, press releases and contributor agreements; returns the agreements' rates by freelancer. */
export function writeDocuments(context: GenerateContext, commissions: Commission[]): Map<string, FeeRates> {
  const { random, factors, faker, referenceDate: today } = context;
  writePolicies(context);
  for (let n = 1; n <= 2 * factors.files; n += 1) {
    const at = randomDate(random, addDays(today, -40), addDays(today, 10));
    const embargo = `EMBARGOED UNTIL 00:01 UTC ${longDate(at).toUpperCase()}`;
    const release = renderMarkdown(`Press release: ${faker.company.name()} results`, [
      embargo,
      faker.lorem.paragraphs(2),
    ]);
    context.writeFile(`${PATHS.pressDir}/${at}-${n}.md`, release);
  }
  // Agreements go to contributors with work awaiting payment, so invoices and payments meet them.
  const pending = commissions.filter((c) => !c.paid && c.status !== "commissioned");
  const freelancers = [...new Map(pending.map((c) => [c.freelancer.id, c.freelancer])).values()];
  const agreements = new Map<string, FeeRates>();
  for (const freelancer of sample(random, freelancers, Math.min(freelancers.length, 2 * factors.files))) {
    const perWord = roundCents(RATE_CARD.article[freelancer.tier]! + random.int(5, 20) / 100);
    const perImage = RATE_CARD.photo[freelancer.tier]! + random.int(2, 10) * 10;
    agreements.set(freelancer.id, { ...RATE_CARD, perWord, perImage });
    context.writeFile(
      `${PATHS.agreementsDir}/${freelancer.id}.md`,
      renderMarkdown(`Contributor agreement - ${freelancer.name} (${freelancer.id})`, [
        `Signed ${longDate(randomDate(random, "2024-06-01", "2025-01-31"))} between ${NEWSROOM.name} and ${freelancer.name}.`,
        { heading: "Rates" },
        `Articles: ${formatUsd(perWord)} per word. Photos: ${formatUsd(perImage)} per image.`,
        "These rates replace the rate card's tier rates for this contributor. The rate card's minimum fee, kill fees and rounding still apply.",
      ]),
    );
  }
  return agreements;
}

/** The same day of the month, `months` later (or earlier); days past the month's end are clamped. */
export function shiftMonths(isoDate: string, months: number): string {
  const total = Number(isoDate.slice(0, 4)) * 12 + Number(isoDate.slice(5, 7)) - 1 + months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const day = Math.min(Number(isoDate.slice(8, 10)), new Date(Date.UTC(year, month, 0)).getUTCDate());
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

const AGENCIES = ["Northlight Pictures", "Meridian Images", "Harbour Photo Agency", "Civic Lens"];

/**
 * Photo licences (text documents) and the photos table; staff photos need no licence. Licence n follows
 * pattern n % 5: 0 expired, 1 runs through today (its last day), 2 print only, 3 running, 4 perpetual.
 */
export function writeLicences(context: GenerateContext, stories: Story[]): void {
  const { db, random, faker, factors, referenceDate: today } = context;
  const insert = db.prepare("INSERT INTO photos VALUES (?, ?, ?, ?, ?)");
  let photos = 0;
  const published = stories.filter((story) => story.status === "published");
  const unpublished = stories.filter((story) => story.status !== "published" && story.status !== "spiked");
  const addPhoto = (story: Story, credit: string, licence: string): string => {
    const id = photoId.format(++photos);
    const caption = `${faker.location.street()} on ${longDate(story.publishedAt ?? today)}`;
    insert.run(id, story.id, caption, credit, licence);
    return id;
  };
  for (const story of sample(random, published, 6 * factors.rows)) addPhoto(story, "STAFF", "STAFF");
  for (let n = 1; n <= 5 * factors.files; n += 1) {
    const pattern = n % 5;
    const agency = random.pick(AGENCIES);
    const ref = `LIC-2025-${String(n).padStart(4, "0")}`;
    const months = random.pick([6, 12, 24]);
    const ends = pattern === 0 ? -random.int(1, 90) : pattern === 1 ? 1 : random.int(30, 300);
    const startDate = shiftMonths(addDays(today, ends), -months); // the licence ends the day before `ends`
    const media = pattern === 2 ? "print only" : random.pick(["web, print", "web, print, social"]);
    const images = sample(random, published, random.int(1, 3)).map((story) => addPhoto(story, agency, ref));
    if (random.chance(0.4)) images.push(addPhoto(random.pick(unpublished), agency, ref));
    context.writeFile(
      `${PATHS.licencesDir}/${ref}.txt`,
      [
        "PHOTO LICENCE AGREEMENT",
        `Licence no.:     ${ref}`,
        `Licensor:        ${agency} Ltd`,
        `Licensee:        ${NEWSROOM.name}`,
        `Images:          ${images.join(", ")}`,
        `Permitted media: ${media}`,
        `Term:            ${pattern === 4 ? "perpetual" : `${months} months from ${longDate(startDate)}`}`,
        "",
        "The licence runs for the term stated, up to and including the day before the anniversary of the start date (for a term in months, the same day of the month that many months later).",
        `Fee: ${formatUsd(random.int(8, 60) * 25)} (paid). Credit line must read "${agency}".`,
      ].join("\n"),
    );
  }
}
