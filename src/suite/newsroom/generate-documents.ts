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
import { commissionFee, type FeeRates } from "./fees.js";
import { addMinutes, rateFor, type Commission, type Story } from "./generate.js";
import type { Mailer, Person } from "./mailer.js";
import { CORRECTIONS, NEWSROOM, PATHS, RATE_CARD, STYLE, TIERS, photoId } from "./rules.js";

/** The policies every task reads, negotiated agreements and press releases; returns the agreements' rates. */
export function writeDocuments(context: GenerateContext, commissions: Commission[]): Map<string, FeeRates> {
  const { random, factors, faker, referenceDate: today } = context;
  context.writeFile(
    PATHS.styleGuide,
    renderMarkdown(`${NEWSROOM.name} style guide (excerpt)`, [
      { heading: "Headlines" },
      `A headline is at most ${STYLE.maxHeadlineChars} characters, spaces included.`,
      `Never use these words in a headline: ${STYLE.bannedWords.map((word) => `"${word}"`).join(", ")}. The rule is about whole words, in any capitalisation: "shockwaves" or "epicentre" are fine.`,
      { heading: "Drafts" },
      `A draft that nobody has updated for more than ${STYLE.staleDraftDays} days is spiked, unless it has a slot on the story budget for today or a later day. Only stories in status draft are affected.`,
      { heading: "Budget" },
      `Copy may run at most ${STYLE.budgetTolerancePct}% over the planned words of its slot on the story budget; anything longer goes back to the desk for a trim.`,
      { heading: "Photos" },
      "A photo may appear only in media its licence permits, and only while the licence runs. Staff photos (credit STAFF) need no licence.",
    ]),
  );
  context.writeFile(
    PATHS.correctionsPolicy,
    renderMarkdown("Corrections policy", [
      "Requests reach the corrections mailbox with a corrections request form. The standards editor (or deputy) decides in the thread; their latest decision in the thread is the one that counts, and a later message can overturn an earlier one.",
      { heading: "Logging" },
      `Every agreed correction is logged in the corrections log with the kind and the exact wording the standards editor gave, no later than ${CORRECTIONS.logWithinBusinessDays} business days after the date received on the request form (weekends are not business days). A story gets one log entry per correction.`,
      { heading: "Quarterly report" },
      "The quarterly report counts logged corrections by the desk of the corrected story. Spelling corrections are left out of the report; every other kind counts once.",
    ]),
  );
  context.writeFile(
    PATHS.rateCard,
    renderMarkdown("Freelance rate card", [
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
    ]),
  );
  context.writeFile(
    PATHS.embargoPolicy,
    renderMarkdown("Embargo policy", [
      "Embargo times in the CMS are UTC. A story is published at the moment it first appears on any of our channels: web, app, newsletter or social.",
      "Copy delivered to partners through the partner feed is delivered under embargo and is not publication.",
      "Publishing at exactly the embargo time is allowed; any earlier appearance is a breach.",
    ]),
  );
  for (let n = 1; n <= 2 * factors.files; n += 1) {
    const at = `${randomDate(random, addDays(today, -40), addDays(today, 10))}`;
    context.writeFile(
      `${PATHS.pressDir}/${at}-${n}.md`,
      renderMarkdown(`Press release: ${faker.company.name()} results`, [
        `EMBARGOED UNTIL 00:01 UTC ${longDate(at).toUpperCase()}`,
        faker.lorem.paragraphs(2),
      ]),
    );
  }
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

export function ratesFor(
  freelancer: { id: string; tier: string },
  agreements: Map<string, FeeRates>,
): FeeRates {
  return (
    agreements.get(freelancer.id) ?? {
      ...RATE_CARD,
      perWord: rateFor("article", freelancer.tier),
      perImage: rateFor("photo", freelancer.tier),
    }
  );
}

function invoiceText(
  commission: Commission,
  number: string,
  date: string,
  lines: Array<[string, number, number]>,
): string {
  const total = roundCents(lines.reduce((sum, [, quantity, rate]) => sum + quantity * rate, 0));
  return [
    `INVOICE ${number}`,
    `From: ${commission.freelancer.name} <${commission.freelancer.email}>`,
    `Bill to: ${NEWSROOM.name}, Accounts Payable`,
    `Date: ${longDate(date)}`,
    `Commission ref: ${commission.id} ("${commission.story.slug}")`,
    "",
    `${"Description".padEnd(34)}${"Qty".padStart(8)}${"Rate".padStart(10)}${"Amount".padStart(12)}`,
    ...lines.map(
      ([label, quantity, rate]) =>
        `${label.padEnd(34)}${String(quantity).padStart(8)}${formatUsd(rate).padStart(10)}${formatUsd(roundCents(quantity * rate)).padStart(12)}`,
    ),
    "",
    `TOTAL DUE: ${formatUsd(total)}`,
    "Payment terms: 30 days.",
  ].join("\n");
}

/** Invoices from freelancers for work not yet paid: some overbill, some are re-issued after a query. */
export function writeInvoiceThreads(
  context: GenerateContext,
  commissions: Commission[],
  agreements: Map<string, FeeRates>,
  people: Map<string, Person[]>,
  mailer: Mailer,
): void {
  const { random, referenceDate: today } = context;
  commissions
    .filter((c) => !c.paid && c.status !== "commissioned")
    .forEach((commission, index) => {
      const rates = ratesFor(commission.freelancer, agreements);
      const fee = commissionFee(commission, rates);
      const rate = commission.kind === "article" ? rates.perWord : rates.perImage;
      const unit = commission.kind === "article" ? "Words" : "Images";
      const honest: Array<[string, number, number]> =
        commission.status === "killed" ? [["Kill fee", 1, fee]] : [[`Fee (${commission.kind})`, 1, fee]];
      const overbilled = (): Array<[string, number, number]> => {
        if (commission.status === "killed")
          return [[`${unit} commissioned (full fee)`, commission.commissioned_units, rate]];
        if ((commission.filed_units ?? 0) > commission.commissioned_units)
          return [[`${unit} filed`, commission.filed_units!, rate]];
        return [...honest, ["Expenses (travel)", 1, random.int(4, 30) * 5]];
      };
      const editor = people.get(`desk_editor:${commission.story.desk}`)![0]!;
      const thread = mailer.thread("freelance", `Invoice ${commission.id} - ${commission.story.slug}`);
      let at = `${addDays(today, -random.int(3, 25))} ${String(random.int(8, 20)).padStart(2, "0")}:${String(random.int(10, 59))}`;
      const first = index % 3 === 1 ? overbilled() : honest;
      const number = `${commission.freelancer.id.slice(3)}-${String(index + 1).padStart(3, "0")}`;
      mailer.send(
        thread,
        commission.freelancer,
        `freelance@${NEWSROOM.domain}`,
        at,
        "top",
        `Hi, invoice for ${commission.story.slug} attached. Thanks!`,
        {
          name: `invoice-${number}.txt`,
          text: invoiceText(commission, number, at.slice(0, 10), first),
        },
      );
      if (index % 6 === 1 || index % 6 === 2) {
        at = addMinutes(at, random.int(60, 1500));
        mailer.send(
          thread,
          editor,
          commission.freelancer.email,
          at,
          "top",
          "Thanks - before this goes to finance, can you check the amount against the rate card and re-issue?",
        );
        at = addMinutes(at, random.int(60, 1500));
        const revised = index % 6 === 1 ? honest : overbilled();
        mailer.send(
          thread,
          commission.freelancer,
          editor.email,
          at,
          "top",
          "Apologies - revised invoice attached; please ignore the earlier one.",
          {
            name: `invoice-${number}-rev1.txt`,
            text: invoiceText(commission, `${number}R`, at.slice(0, 10), revised),
          },
        );
      }
    });
}

/** Photo licences (text documents) and the photos table; staff photos need no licence. */
export function writeLicences(context: GenerateContext, stories: Story[]): void {
  const { db, random, faker, factors, referenceDate: today } = context;
  const insert = db.prepare("INSERT INTO photos VALUES (?, ?, ?, ?, ?)");
  let photos = 0;
  const shown = stories.filter((story) => story.status !== "spiked");
  const published = stories.filter((story) => story.status === "published");
  const addPhoto = (story: Story, credit: string, licence: string): string => {
    const id = photoId.format(++photos);
    insert.run(
      id,
      story.id,
      `${faker.location.street()} on ${longDate(story.publishedAt ?? today)}`,
      credit,
      licence,
    );
    return id;
  };
  for (const story of sample(random, published, 6 * factors.rows)) addPhoto(story, "STAFF", "STAFF");
  for (let n = 1; n <= 5 * factors.files; n += 1) {
    const pattern = n % 5;
    const agency = random.pick([
      "Northlight Pictures",
      "Meridian Images",
      "Harbour Photo Agency",
      "Civic Lens",
    ]);
    const ref = `LIC-2025-${String(n).padStart(4, "0")}`;
    const months = random.pick([6, 12, 24]);
    // 0 expired, 1 ends today (still valid), 2 print only, 3 running, 4 perpetual.
    const endExclusive =
      pattern === 0
        ? addDays(today, -random.int(1, 90))
        : pattern === 1
          ? addDays(today, 1)
          : addDays(today, random.int(30, 300));
    const startDate = shiftMonths(endExclusive, -months);
    const media = pattern === 2 ? "print only" : random.pick(["web, print", "web, print, social"]);
    const images = [
      ...sample(random, published, random.int(1, 3)).map((story) => addPhoto(story, agency, ref)),
      ...(random.chance(0.4)
        ? [addPhoto(random.pick(shown.filter((s) => s.status !== "published")), agency, ref)]
        : []),
    ];
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

/** The same day of the month, `months` later (or earlier); days past the month's end are clamped. */
export function shiftMonths(isoDate: string, months: number): string {
  const total = Number(isoDate.slice(0, 4)) * 12 + Number(isoDate.slice(5, 7)) - 1 + months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const day = Math.min(Number(isoDate.slice(8, 10)), last);
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}
