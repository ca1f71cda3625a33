import type { GenerateContext, PersonName } from "../../envs/index.js";
import { addDays, amountText, monthEndAfter, personName } from "../../envs/index.js";
import { randomDate, roundCents, weightedPick } from "../../envs/index.js";
import { writeGrantsDocuments } from "./documents.js";
import { insertRows, insertScans } from "./scans.js";
import { BUDGET_PERIOD, CATEGORIES, DEPARTMENTS, EFFORT_CAPS, FEDERAL_SPONSORS } from "./rules.js";
import { OBJECT_CODES } from "./rules.js";
import { PATHS, PLANTED_TERMS, awardId, personId, sponsorId, subawardId, termsFrom } from "./rules.js";
import type { Appointment, Category, SponsorTerms, SponsorType } from "./rules.js";

type Random = GenerateContext["random"];
type Role = "PI" | "co-I" | "key" | "other";
export type Sponsor = { id: string; name: string; terms: SponsorTerms; path: string };
export type Person = {
  id: string;
  name: PersonName;
  department: string;
  appointment: Appointment;
  pay: number;
};
export type Commitment = { person: Person; role: Role; pct: number; certified: number };
export type Payment = { invoiceNo: string; amount: number; paidOn: string; from: string; to: string };
export type Invoice = Payment & { signed: boolean; noisy: boolean; faulty: boolean };
export type Txn = { postedOn: string; code: string; description: string; amount: number; subaward?: string };
export type Letter = { amendment: number; budget: Map<Category, number>; received: string; noisy?: Category };
type Period = { start: string; end: string };
type Billing = { payments: Payment[]; pending: Invoice | null };
export type Subaward = Period & Billing & { id: string; subrecipient: string; obligated: number };
type Registered = { id: string; sponsor: Sponsor; sponsorAwardNo: string; title: string; department: string };
type Records = { extensions: number; commitments: Commitment[]; subawards: Subaward[]; txns: Txn[] };
type Request = { newEnd: string; received: string; faulty: boolean };
type Scanned = { letters: Letter[]; keyed: Map<Category, number>; request?: Request };
export type Award = Period & Registered & Records & Scanned;
/** What the database rows, the OCR pages and the workspace documents are written from. */
export type GrantsWorld = { sponsors: Sponsor[]; people: Person[]; awards: Award[]; negotiatedRate: number };

/**
 * The first ten awards (every scale has them), set up for the cases near-misses turn on: sponsor index, end
 * date (`-`: years ahead, `closed`: ended this year), extensions so far, a forced commitment (role, appointment,
 * committed, certified), a subaward case, an extension request (months asked / days before the end it came)
 * and planted overspending (share of the direct budget spent above the budget lines).
 */
const PLANS = [
  "0 2025-08-31 0 co-I/faculty/20/15 duplicate 6/20 -",
  "1 2025-09-30 0 PI/faculty/30/10 - 9/14 0.14",
  "2 2025-09-30 1 PI/faculty/40/28 crossing 6/25 -",
  "3 2025-08-31 0 - - 4/18 0.3",
  "4 - 0 - - - 0.15",
  "5 - 0 other/graduate_student/50/20 expired - -",
  "6 2025-07-31 0 - over 3/33 -",
  "7 2025-10-31 0 - - 8/10 -",
  "8 2025-07-31 0 key/postdoc/25/19 unsigned 12/27 0.3",
  "0 closed 0 - - - -",
].map((line) => line.split(" "));
/** Planted ledger lines: award index, object code, posted on, amount, description. */
const PLANTED_TXNS: Array<[number, string, string, number, string]> = [
  [0, "5510", "2025-05-14", 18_400, "Qty 1 @ $18,400.00 - spectrophotometer (Agilent)"],
  [1, "5510", "2025-05-20", 7_900, "Qty 1 @ $7,900.00 - environmental chamber (Caron)"],
  [0, "5510", "2025-02-11", 6_300, "Qty 3 @ $2,100.00 - field data loggers (Campbell Scientific)"],
  [5, "5510", "2025-03-04", 5_000, "Qty 1 @ $5,000.00 - microscope camera (Olympus)"],
  [4, "5510", "2025-01-22", 3_200, "Qty 1 @ $3,200.00 - benchtop centrifuge (Eppendorf)"],
  [8, "5510", "2025-04-09", 1_850, "Qty 1 @ $1,850.00 - rugged laptop (Dell)"],
  [0, "5850", "2025-03-12", 412.6, "Harbor Wine Co. - reception wine"],
  [3, "5840", "2025-04-08", 688.2, "Riverside Grill - sponsor review dinner"],
  [1, "5820", "2025-02-03", 175, "American Chemical Society - membership dues"],
  [9, "5840", "2025-01-16", 245.5, "Campus Catering - holiday reception"],
];
/** People committed over their cap (award index:percent): one whose record fails silently, one only with a closed award, a student. */
const OVERCOMMITTED = [
  "faculty faulty 7:40 2:30 4:25",
  "faculty - 3:50 4:35 9:30",
  "graduate_student - 6:35 8:25",
];
/** Purchases: object code, weight, lowest and highest amount, descriptions (equipment amounts are drawn apart). */
const PURCHASES = [
  "5310 34 40 2400 Fisher Scientific - pipette tips|Sigma-Aldrich - reagents|VWR - glassware",
  "5320 14 30 1800 CDW - solid state drives|MathWorks - MATLAB license|Dell - docking stations",
  "5410 14 180 1900 Delta Air Lines - conference travel|Marriott - conference lodging",
  "5420 4 900 3800 Lufthansa - collaborator visit|Air Canada - field campaign",
  "5810 6 300 2600 Elsevier - open access fee|PLOS - article processing charge",
  "5820 4 90 450 IEEE - membership dues|American Physical Society - dues",
  "5840 5 60 900 Campus Catering - working lunch|Riverside Grill - visitor dinner",
  "5850 2 40 420 Harbor Wine Co. - reception|Campus Catering - wine service",
  "5860 2 150 1200 Metro Gazette - recruitment ad|Social media ads - study recruitment",
  "5870 3 2400 7800 Graduate tuition remission - fall|Graduate tuition remission - spring",
  "5610 3 500 3000 Summer workshop stipends",
  "5620 2 300 2400 Workshop participant travel",
  "5510 3 0 0 ultracentrifuge (Beckman)|GPU server (Supermicro)|flow cytometer (BD)|data loggers (Onset)",
].map((line) => {
  const [code, weight, low, high, ...text] = line.split(" ");
  return { code: code!, weight: +weight!, low: +low!, high: +high!, texts: text.join(" ").split("|") };
});
const WEIGHTS = PURCHASES.map((item) => item.weight);
const TOPICS = "Coastal sediment|Nitrogen cycling|Bridge monitoring|Early literacy|Quantum sensing".split(
  "|",
);
const SETTINGS = "in urban watersheds|under climate stress|for rural communities|at regional scale".split(
  "|",
);
const SUBRECIPIENTS = "Lakeshore Tech|Prairie View Institute|University of Westmark|Highland Medical".split(
  "|",
);
const SALARY = {
  faculty: [1050, 1650],
  postdoc: [580, 660],
  staff: [500, 760],
  graduate_student: [280, 340],
};

function sponsorName({ random, faker }: GenerateContext, type: SponsorType): string {
  if (type === "foundation")
    return `${faker.person.lastName()} ${random.pick(["Foundation", "Charitable Trust"])}`;
  if (type === "industry") return faker.company.name().replace(/[,.]/g, "");
  return `${faker.location.state()} ${random.pick(["Department of Health", "Energy Office"])}`;
}

function randomTerms(random: Random, type: SponsorType): SponsorTerms {
  const pick = <T>(...items: T[]): T => random.pick(items);
  const rate = type === "industry" ? pick(26, 30, 35) : pick(8, 10, 12, 15, 20);
  const idc = type !== "industry" && random.chance(0.2) ? "-" : `${rate}/${pick("MTDC", "TDC")}`;
  const codes = new Set(["5850", pick("5840", "5820"), pick("5850", "5850", "5420", "5860", "5870")]);
  const equipment = random.chance(0.3) ? pick(1000, 2500, 3000) : "-";
  const [rebudget, extension] =
    type === "industry" ? ["-", "-"] : [pick(10, 25), `${pick(6, 12)}/${pick(30, 45)}`];
  const effort = pick<number | string>(25, "-");
  return termsFrom(`${type} ${idc} ${[...codes].join(",")} ${equipment} ${rebudget} ${effort} ${extension}`);
}

function makeSponsors(context: GenerateContext): Sponsor[] {
  const [names, federal] = [new Set<string>(), [...FEDERAL_SPONSORS]];
  const types: SponsorType[] = ["federal", "foundation", "industry", "state"];
  return Array.from({ length: 9 * context.factors.files }, (_, index) => {
    const type = weightedPick(context.random, types, [federal.length > 0 ? 3 : 0, 4, 2, 1]);
    const terms =
      PLANTED_TERMS[index] ?? (type === "federal" ? PLANTED_TERMS[0]! : randomTerms(context.random, type));
    let name = terms.type === "federal" ? federal.shift()! : "";
    while (!name || names.has(name)) name = sponsorName(context, terms.type);
    names.add(name);
    const id = sponsorId.format(index + 1);
    return { id, name, terms, path: `${PATHS.terms}${id}-${name.toLowerCase().replace(/[^a-z]+/g, "-")}.md` };
  });
}

/** The people: a new one, or one already on other awards with room under the effort cap (only planted ones go over). */
function makePeople({ random, faker }: GenerateContext) {
  const people: Person[] = [];
  const totals = new Map<Person, number>();
  const emails = new Set<string>();
  let next = 101;
  const create = (appointment: Appointment, department: string, faulty = random.chance(1 / 7)): Person => {
    while ((next % 7 === 3) !== faulty) next += 1; // get_person fails silently on ids n % 7 === 3
    const [low, high] = SALARY[appointment];
    const pay = random.int(low!, high!) * 100;
    const name = personName(faker, "northfield.edu", emails);
    people.push({ id: personId.format(next++), name, department, appointment, pay });
    return people.at(-1)!;
  };
  const find = (appointment: Appointment, department: string, pct: number, taken: Person[]): Person => {
    const room = (p: Person): boolean => (totals.get(p) ?? 0) + pct <= EFFORT_CAPS[appointment] - 10;
    const fits = people.filter(
      (p) => p.appointment === appointment && p.department === department && !taken.includes(p) && room(p),
    );
    const person =
      fits.length > 0 && random.chance(0.65) ? random.pick(fits) : create(appointment, department);
    totals.set(person, (totals.get(person) ?? 0) + pct);
    return person;
  };
  return { people, create, find };
}

type Finder = ReturnType<typeof makePeople>["find"];

function staffAward(random: Random, find: Finder, department: string, forced?: string): Commitment[] {
  const roles: Array<[Role, Appointment, number]> = [["PI", "faculty", random.pick([10, 15, 20, 30])]];
  if (random.chance(0.4)) roles.push(["co-I", "faculty", random.pick([5, 10, 15, 20])]);
  if (random.chance(0.4)) roles.push(["key", random.pick(["postdoc", "staff"]), random.pick([25, 50, 75])]);
  if (random.chance(0.7))
    roles.push(["other", random.pick(["graduate_student", "staff"]), random.pick([20, 25, 40])]);
  const [role, appointment, pct, certified] = forced?.split("/") ?? [];
  const at = roles.findIndex((item) => item[0] === role);
  if (role) roles[at < 0 ? roles.length : at] = [role as Role, appointment as Appointment, Number(pct)];
  const taken: Person[] = [];
  return roles.map(([name, kind, committed]) => {
    const spread = (low: number): number => low + random.next() * 0.3;
    const drift = random.chance(0.06) ? spread(0.4) : random.chance(0.3) ? spread(0.85) : 1;
    taken.push(find(kind, department, committed, taken));
    const planted = name === role ? Number(certified) : Math.round(committed * drift);
    return { person: taken.at(-1)!, role: name, pct: committed, certified: planted };
  });
}

/** A subaward billed quarterly, with the case a pending invoice plants (`normal` for the unplanned ones). */
function makeSubaward(random: Random, award: Award, number: number, kind: string): Subaward {
  const subrecipient = random.pick(SUBRECIPIENTS);
  const prefix = subrecipient.replace(/[^A-Z]/g, "");
  const planned = kind !== "normal";
  const drawn = `${randomDate(random, award.start, "2024-09-30").slice(0, 7)}-01`;
  const start = kind === "crossing" ? "2024-10-01" : planned ? "2023-10-01" : drawn;
  const invoiceNo = (n: number): string => `${prefix}-2025-${String(n).padStart(3, "0")}`;
  const payments: Payment[] = [];
  for (let from = start; monthEndAfter(from, 2) <= "2025-03-31"; from = addDays(monthEndAfter(from, 2), 1)) {
    const to = monthEndAfter(from, 2);
    const drawnAmount = roundCents(8_000 + random.next() * 14_000);
    const amount = kind !== "crossing" ? drawnAmount : from < "2025-01-01" ? 14_000 : 17_500;
    const paidOn = addDays(to, planned ? 45 : random.int(30, 50));
    payments.push({ invoiceNo: invoiceNo(payments.length + 1), amount, from, to, paidOn });
  }
  const amount = roundCents(9_000 + random.next() * 11_000);
  const fresh = {
    invoiceNo: invoiceNo(payments.length + 1),
    amount,
    from: "2025-04-01",
    to: "2025-05-31",
    paidOn: "",
  };
  const pending = {
    ...(kind === "duplicate" ? payments.at(-1)! : fresh),
    signed: kind !== "unsigned",
    noisy: kind === "crossing" || random.chance(0.2),
    faulty: kind === "over" || random.chance(0.2),
  };
  const paid = payments.reduce((sum, payment) => sum + payment.amount, 0) + pending.amount;
  const obligated = Math.round(
    kind === "over" ? paid - random.int(1_000, 3_000) : paid + random.int(20_000, 80_000),
  );
  const [id, end] = [subawardId.format(number), kind === "expired" ? "2025-03-31" : award.end];
  return {
    id,
    subrecipient,
    obligated,
    start,
    end,
    payments,
    pending: planned || random.chance(0.7) ? pending : null,
  };
}

const txn = (postedOn: string, code: string, description: string, amount: number, subaward?: string): Txn =>
  subaward ? { postedOn, code, description, amount, subaward } : { postedOn, code, description, amount };

/** The award's charges in the budget period so far: monthly payroll and fringe, purchases, subaward payments. */
function ledger(random: Random, award: Award): Txn[] {
  const txns: Txn[] = [];
  const paid = (faculty: boolean): Commitment[] =>
    award.commitments.filter((c) => (c.person.appointment === "faculty") === faculty);
  const pay = (faculty: boolean): number =>
    roundCents(paid(faculty).reduce((sum, c) => sum + (c.person.pay * c.pct) / 1200, 0));
  // Every award started by the budget period's first month; the ledger runs to this month.
  for (let number = 1; number <= 6 && `2025-0${number}-01` <= award.end; number += 1) {
    const [faculty, others, month] = [pay(true), pay(false), `2025-0${number}`];
    const day = `${month}-25`;
    txns.push(txn(day, "5100", `Payroll ${month} - faculty`, faculty));
    if (others > 0) txns.push(txn(day, "5110", `Payroll ${month} - staff and students`, others));
    txns.push(txn(day, "5200", `Fringe benefits ${month}`, roundCents((faculty + others) * 0.295)));
    for (let n = weightedPick(random, [0, 1, 2, 3], [0.25, 0.4, 0.25, 0.1]); n > 0; n -= 1) {
      const { code, low, high, texts } = weightedPick(random, PURCHASES, WEIGHTS);
      const postedOn = `${month}-${String(random.int(1, 27)).padStart(2, "0")}`;
      const [quantity, unit] = random.chance(0.25)
        ? [random.int(1, 4), random.int(8, 49)]
        : [1, random.int(60, 600)];
      const amount = code === "5510" ? quantity * unit * 100 : roundCents(low + random.next() * (high - low));
      const equipment = `Qty ${quantity} @ $${amountText(unit * 100)} - `;
      txns.push(txn(postedOn, code, `${code === "5510" ? equipment : ""}${random.pick(texts)}`, amount));
    }
  }
  for (const { id, payments } of award.subawards)
    for (const { paidOn, invoiceNo, amount } of payments.filter((p) => p.paidOn >= BUDGET_PERIOD.start))
      txns.push(txn(paidOn, "5700", `Subaward ${id} - invoice ${invoiceNo}`, amount, id));
  return txns;
}

const round100 = (value: number): number => Math.round(value / 100) * 100;

/** The budget period's lines: the spending so far annualized (every category under budget), or planted overspending of salaries. */
function budgetFor(random: Random, award: Award, overspend: number | undefined): Map<Category, number> {
  const spent = new Map<Category, number>();
  for (const { code, amount } of award.txns) {
    const { category } = OBJECT_CODES[code]!;
    spent.set(category, (spent.get(category) ?? 0) + amount);
  }
  // The period's months (it ends with the award); the ledger holds January to June.
  const months = award.end < BUDGET_PERIOD.end ? Number(award.end.slice(5, 7)) : 12;
  const annual = (amount: number): number =>
    (amount * months) / Math.min(6, months) / (0.85 + random.next() * 0.15);
  const budget = new Map<Category, number>();
  for (const category of Object.keys(CATEGORIES) as Category[])
    if (spent.has(category)) budget.set(category, Math.ceil(annual(spent.get(category)!) / 100) * 100);
  if (overspend === undefined) return budget;
  const others = [...budget.values()].reduce((sum, amount) => sum + amount, 0) - budget.get("salaries")!;
  return budget.set("salaries", round100((spent.get("salaries")! - overspend * others) / (1 + overspend)));
}

/** A keying error: two adjacent different digits of the amount swapped. */
function transpose(amount: number): number {
  const digits = String(amount / 100);
  const at = [...digits].findIndex((digit, index) => index > 0 && digit !== digits[index - 1]);
  return at < 1
    ? amount + 900
    : Number(digits.slice(0, at - 1) + digits[at] + digits[at - 1] + digits.slice(at + 1)) * 100;
}

/** The notices of award: the original and its amendments (each moves money between two categories), the last one current. */
function lettersFor(random: Random, budget: Map<Category, number>, amendments: number): Letter[] {
  const letters: Letter[] = [];
  const dates = [...Array<unknown>(amendments)]
    .map(() => randomDate(random, "2025-02-01", "2025-05-31"))
    .sort();
  for (let amendment = amendments, current = budget; amendment >= 0; amendment -= 1) {
    const received = dates[amendment - 1] ?? addDays(BUDGET_PERIOD.start, -random.int(10, 40));
    letters.unshift({ amendment, budget: current, received });
    const [from, to] = random.shuffle([...current.keys()].filter((category) => category !== "subawards"));
    const moved = round100(current.get(from!)! * (0.1 + random.next() * 0.2)) || 100;
    current = new Map(current)
      .set(from!, current.get(from!)! + moved)
      .set(to!, current.get(to!)! - Math.min(moved, current.get(to!)! - 100));
  }
  return letters;
}

function makeAward(context: GenerateContext, index: number, sponsors: Sponsor[], find: Finder): Award {
  const { random } = context;
  const [sponsor, end, extensions, commit] = PLANS[index] ?? [];
  const start = sponsor
    ? `${random.pick(["2021", "2022", "2023"])}-${random.pick(["01", "04", "07", "09"])}-01`
    : `${randomDate(random, "2021-07-01", "2025-01-31").slice(0, 7)}-01`;
  let last = monthEndAfter(start, random.int(24, 60) - 1);
  if (end === "-" || (!end && last < "2025-02-28"))
    last = monthEndAfter(randomDate(random, "2025-11-01", "2027-12-31"), 0);
  if (end === "closed") last = monthEndAfter(randomDate(random, "2025-01-01", "2025-04-30"), 0);
  const department = random.pick(DEPARTMENTS);
  const funder = sponsor ? sponsors[Number(sponsor)]! : random.pick(sponsors);
  return {
    id: awardId.format(10_000 + 7 * (index + 1)),
    sponsor: funder,
    sponsorAwardNo: funder.terms.type === "federal" ? `${random.int(1e6, 9e6)}` : `G-${random.int(100, 999)}`,
    title: `${random.pick(TOPICS)} ${random.pick(SETTINGS)}`,
    department,
    start,
    end: end && end !== "-" && end !== "closed" ? end : last,
    extensions: extensions ? Number(extensions) : Number(random.chance(0.15)),
    commitments: staffAward(random, find, department, commit === "-" ? undefined : commit),
    subawards: [],
    txns: [],
    letters: [],
    keyed: new Map(),
  };
}

/** Plants the award's subaward, ledger, budget, notices (with keying errors) and extension request. */
function fillAward(context: GenerateContext, award: Award, index: number, subawardNumber: number): void {
  const { random, referenceDate: today } = context;
  const [, , , , subaward, request, overspend] = PLANS[index] ?? [];
  const planned = index < PLANS.length;
  const normal = !planned && award.start <= "2024-09-01" && random.chance(0.25);
  if ((subaward && subaward !== "-") || normal)
    award.subawards.push(makeSubaward(random, award, subawardNumber, normal ? "normal" : subaward!));
  award.txns = ledger(random, award);
  for (const [at, code, postedOn, amount, description] of PLANTED_TXNS)
    if (at === index) award.txns.push({ postedOn, code, description, amount });
  const drawn = !planned && random.chance(0.1) ? random.pick([0.12, 0.2, 0.3]) : undefined;
  const over = overspend && overspend !== "-" ? Number(overspend) : drawn;
  const budget = budgetFor(random, award, over);
  const amendments = index === 5 ? 1 : weightedPick(random, [0, 1, 2], [0.7, 0.25, 0.05]);
  award.letters = lettersFor(random, budget, amendments);
  award.keyed = new Map(index === 5 ? award.letters[0]!.budget : budget);
  // A keying error on the second page of the notice for award 7, now and then on unplanned awards.
  const pageTwo = (["supplies", "travel", "other"] as const).find((item) => budget.has(item)) ?? "fringe";
  const slip = !planned && over === undefined && random.chance(0.12) ? random.pick([...budget.keys()]) : null;
  const typo = index === 7 ? pageTwo : slip;
  if (typo) award.keyed.set(typo, transpose(budget.get(typo)!));
  if (!planned && over === undefined && award.letters.length > 1 && random.chance(0.2))
    award.keyed = new Map(award.letters[0]!.budget);
  if (index === 5) award.letters.at(-1)!.noisy = "salaries";
  const soon = !planned && award.end >= today && award.end <= "2025-10-31" && random.chance(0.6);
  const asked =
    request && request !== "-"
      ? request.split("/").map(Number)
      : soon && [random.int(2, 14), random.int(1, 60)];
  if (!asked) return;
  const [early, latest] = [addDays(award.end, -asked[1]!), addDays(today, -random.int(0, 12))];
  const [newEnd, faulty] = [monthEndAfter(award.end, asked[0]!), index === 0 || random.chance(0.2)];
  award.request = { newEnd, received: early < latest ? early : latest, faulty };
}

/** Sponsors, people, awards with budgets, commitments, subawards and ledgers, the scans and the workspace. */
export function generateGrants(context: GenerateContext): void {
  const { random, factors } = context;
  const sponsors = makeSponsors(context);
  const { people, create, find } = makePeople(context);
  const awards = Array.from({ length: 10 * factors.rows }, (_, n) => makeAward(context, n, sponsors, find));
  for (const line of OVERCOMMITTED) {
    const [appointment, faulty, ...shares] = line.split(" ");
    const person = create(appointment as Appointment, awards[0]!.department, faulty === "faulty");
    const role = appointment === "faculty" ? "co-I" : "other";
    for (const [index, pct] of shares.map((share) => share.split(":").map(Number)))
      awards[index!]!.commitments.push({ person, role, pct: pct!, certified: pct! });
  }
  awards.forEach((award, index) => fillAward(context, award, index, 43 + 3 * index));
  const world = { sponsors, people, awards, negotiatedRate: random.pick([52.5, 54, 55.5, 57]) };
  insertRows(context, world);
  insertScans(context, world);
  writeGrantsDocuments(context, world);
}
