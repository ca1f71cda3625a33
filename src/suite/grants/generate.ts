import type { GenerateContext } from "../../envs/index.js";
import { addDays, amountText, makeDate, personName, randomDate, roundCents, weightedPick } from "../../envs/index.js";
import { writeGrantsDocuments } from "./documents.js";
import { insertScans } from "./scans.js";
import {
  CATEGORIES,
  DEPARTMENTS,
  EFFORT_CAPS,
  EQUIPMENT_CODE,
  FEDERAL_SPONSORS,
  BUDGET_PERIOD,
  OBJECT_CODES,
  PATHS,
  PLANTED_TERMS,
  SUBAWARD_CODE,
  awardId,
  personId,
  sponsorId,
  subawardId,
  txnId,
} from "./rules.js";
import type { Appointment, Category, SponsorTerms, SponsorType } from "./rules.js";

type Random = GenerateContext["random"];
type Role = "PI" | "co-I" | "key" | "other";

export interface Sponsor { id: string; name: string; terms: SponsorTerms; path: string }
export interface Person { id: string; name: string; department: string; appointment: Appointment; email: string; salary: number; faulty: boolean }
export interface Commitment { person: Person; role: Role; pct: number; certified: number }
export interface Payment { invoiceNo: string; amount: number; paidOn: string; from: string; to: string }
export interface Invoice extends Payment { signed: boolean; noisy: boolean; faulty: boolean }
export interface Subaward { id: string; subrecipient: string; obligated: number; start: string; end: string; payments: Payment[]; pending: Invoice | null }
export interface Txn { postedOn: string; code: string; description: string; amount: number; subaward?: string }
export interface Letter { amendment: number; budget: Map<Category, number>; received: string; noisy?: Category }
export interface Award {
  id: string; sponsor: Sponsor; sponsorAwardNo: string; title: string; department: string; start: string; end: string;
  status: "active" | "closed"; extensions: number; commitments: Commitment[]; subawards: Subaward[]; txns: Txn[];
  letters: Letter[]; keyed: Map<Category, number>; request?: { newEnd: string; received: string; faulty: boolean };
}
/** What the OCR pages and workspace documents are written from. */
export interface GrantsWorld { sponsors: Sponsor[]; people: Person[]; awards: Award[]; negotiatedRate: number }

/** The last day of the month `months` after the month of `date`. */
export function monthEndAfter(date: string, months: number): string {
  return makeDate(Number(date.slice(0, 4)), Number(date.slice(5, 7)) + months + 1, 0);
}

/** How each of the first fourteen awards is set up (every scale has them): the cases near-misses turn on. */
interface Plan { sponsor: number; end?: string; closed?: true; extensions?: number; commit?: [Role, Appointment, number, number]; subaward?: SubawardCase }
type SubawardCase = "duplicate" | "crossing" | "expired" | "over" | "unsigned" | "normal";
const PLANS: Plan[] = [
  { sponsor: 0, end: "2025-08-31", commit: ["co-I", "faculty", 20, 15], subaward: "duplicate" },
  { sponsor: 1, end: "2025-09-30", commit: ["PI", "faculty", 30, 10] },
  { sponsor: 2, end: "2025-09-30", extensions: 1, commit: ["PI", "faculty", 40, 28], subaward: "crossing" },
  { sponsor: 3, end: "2025-08-31" },
  { sponsor: 4 },
  { sponsor: 5, commit: ["other", "graduate_student", 50, 20], subaward: "expired" },
  { sponsor: 6, end: "2025-07-31", subaward: "over" },
  { sponsor: 7, end: "2025-10-31" },
  { sponsor: 8, end: "2025-07-31", commit: ["key", "postdoc", 25, 19], subaward: "unsigned" },
  { sponsor: 0, closed: true },
];
/** Extension requests of planned awards: months asked, days before the request reached the office. */
const REQUESTS: Record<number, [number, number]> = { 0: [6, 20], 1: [9, 14], 2: [6, 25], 3: [4, 18], 6: [3, 33], 7: [8, 10], 8: [12, 27] };
/** Planted overspending: award index -> the share of its direct budget spent above the budget so far. */
const OVERSPEND: Record<number, number> = { 1: 0.14, 3: 0.3, 4: 0.15, 8: 0.3 };
/** Planted ledger lines: [award index, object code, posted on, amount, description]. */
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
/** People committed over their cap: one whose record fails silently, one over only with a closed award, a student. */
const OVERCOMMITTED: Array<[Appointment, boolean, Array<[number, number]>]> = [
  ["faculty", true, [[7, 40], [2, 30], [4, 25]]],
  ["faculty", false, [[3, 50], [4, 35], [9, 30]]],
  ["graduate_student", false, [[6, 35], [8, 25]]],
];

const PURCHASES: Array<[string, number, number, number, string[]]> = [
  ["5310", 34, 40, 2_400, ["Fisher Scientific - pipette tips", "Sigma-Aldrich - reagents", "VWR - glassware", "Thermo Fisher - antibodies"]],
  ["5320", 14, 30, 1_800, ["CDW - solid state drives", "MathWorks - MATLAB license", "Dell - docking stations"]],
  ["5410", 14, 180, 1_900, ["Delta Air Lines - conference travel", "Marriott - conference lodging", "Enterprise - field vehicle"]],
  ["5420", 4, 900, 3_800, ["Lufthansa - collaborator visit", "Air Canada - field campaign"]],
  ["5810", 6, 300, 2_600, ["Elsevier - open access fee", "PLOS - article processing charge"]],
  ["5820", 4, 90, 450, ["IEEE - membership dues", "American Physical Society - dues"]],
  ["5840", 5, 60, 900, ["Campus Catering - working lunch", "Riverside Grill - visitor dinner"]],
  ["5850", 2, 40, 420, ["Harbor Wine Co. - reception", "Campus Catering - wine service"]],
  ["5860", 2, 150, 1_200, ["Metro Gazette - recruitment ad", "Social media ads - study recruitment"]],
  ["5870", 3, 2_400, 7_800, ["Graduate tuition remission - fall", "Graduate tuition remission - spring"]],
  ["5610", 3, 500, 3_000, ["Summer workshop stipends"]],
  ["5620", 2, 300, 2_400, ["Workshop participant travel"]],
  ["5510", 3, 0, 0, ["ultracentrifuge (Beckman)", "GPU server (Supermicro)", "flow cytometer (BD)", "data loggers (Onset)"]],
];
const TOPICS = ["Coastal sediment transport", "Microbial nitrogen cycling", "Adaptive bridge monitoring", "Early literacy interventions", "Quantum sensing with defects", "Wildfire smoke exposure", "Soil carbon in restored prairie", "Privacy-preserving learning", "Hospital nurse staffing", "Groundwater arsenic mobility"];
const SETTINGS = ["in urban watersheds", "under climate stress", "for rural communities", "at the regional scale", "in aging infrastructure", "across the life course"];
const SUBRECIPIENTS = ["Lakeshore Technical University", "Prairie View Research Institute", "University of Westmark", "Coastal Marine Consortium", "Eastbrook College", "Highland Medical Center"];
const SALARY: Record<Appointment, [number, number]> = { faculty: [105_000, 165_000], postdoc: [58_000, 66_000], staff: [50_000, 76_000], graduate_student: [28_000, 34_000] };

/** Allocates id numbers so that a caller decides which ids a tool's fault rule (`n % modulus === residue`) hits. */
function allocator(first: number, modulus: number, residue: number) {
  let next = first;
  return (faulty: boolean): number => {
    while ((next % modulus === residue) !== faulty) next += 1;
    return next++;
  };
}

function makeSponsors({ random, faker, factors }: GenerateContext): Sponsor[] {
  const names = new Set<string>();
  const federal = [...FEDERAL_SPONSORS];
  return Array.from({ length: 9 * factors.files }, (_, index) => {
    let terms = PLANTED_TERMS[index];
    if (!terms) {
      const type = weightedPick<SponsorType>(random, ["federal", "foundation", "industry", "state"], federal.length > 0 ? [3, 4, 2, 1] : [0, 4, 2, 1]);
      terms = type === "federal" ? PLANTED_TERMS[0]! : randomTerms(random, type);
    }
    let name = terms.type === "federal" ? federal.shift()! : "";
    while (!name || names.has(name))
      name = terms.type === "foundation" ? `${faker.person.lastName()} ${random.pick(["Family Foundation", "Foundation", "Charitable Trust", "Fund for Science"])}`
        : terms.type === "industry" ? `${faker.company.name().replace(/[,.]/g, "")} ${random.pick(["Inc.", "LLC", "Corporation"])}`
        : `${faker.location.state()} ${random.pick(["Department of Health", "Energy Office", "Department of Natural Resources", "Department of Transportation"])}`;
    names.add(name);
    const id = sponsorId.format(index + 1);
    const slugged = name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/-$/, "");
    return { id, name, terms, path: `${PATHS.terms}${id}-${slugged}.md` };
  });
}

function randomTerms(random: Random, type: Exclude<SponsorType, "federal">): SponsorTerms {
  const base = PLANTED_TERMS.find((terms) => terms.type === type)!;
  const rate = type === "industry" ? random.pick([26, 30, 35]) : random.pick([8, 10, 12, 15, 20]);
  return {
    ...base,
    idc: type !== "industry" && random.chance(0.2) ? null : { rate, base: random.chance(0.5) ? "MTDC" : "TDC" },
    unallowable: [...new Set([...base.unallowable, ...(random.chance(0.3) ? [random.pick(["5420", "5820", "5860", "5870"])] : [])])].sort(),
    equipmentThreshold: random.chance(0.3) ? random.pick([1_000, 2_500, 3_000]) : null,
    rebudgetPct: type === "industry" ? null : random.pick([10, 25]),
    effortPct: random.chance(0.5) ? 25 : null,
    extension: type === "industry" ? null : { months: random.pick([6, 12]), noticeDays: random.pick([30, 45]) },
  };
}

function makePeople(context: GenerateContext) {
  const people: Person[] = [];
  const totals = new Map<Person, number>();
  const emails = new Set<string>();
  const nextNumber = allocator(101, 7, 3);
  const create = (appointment: Appointment, department: string, faulty = context.random.chance(1 / 7)): Person => {
    const name = personName(context.faker, "northfield.edu", emails);
    const [low, high] = SALARY[appointment];
    const id = personId.format(nextNumber(faulty));
    const person = { id, name: name.fullName, department, appointment, email: name.email, salary: context.random.int(low / 100, high / 100) * 100, faulty };
    people.push(person);
    return person;
  };
  /** An existing person with room under the effort cap (so only planted people go over it), or a new one. */
  const find = (appointment: Appointment, department: string, pct: number, taken: Person[]): Person => {
    const fits = people.filter((p) => p.appointment === appointment && p.department === department && !taken.includes(p) && (totals.get(p) ?? 0) + pct <= EFFORT_CAPS[appointment] - 10);
    const person = fits.length > 0 && context.random.chance(0.65) ? context.random.pick(fits) : create(appointment, department);
    totals.set(person, (totals.get(person) ?? 0) + pct);
    return person;
  };
  return { people, create, find };
}

function staffAward(random: Random, find: ReturnType<typeof makePeople>["find"], department: string, plan?: Plan): Commitment[] {
  const roles: Array<[Role, Appointment, number]> = [["PI", "faculty", random.pick([10, 15, 20, 25, 30, 35])]];
  if (random.chance(0.4)) roles.push(["co-I", "faculty", random.pick([5, 10, 15, 20])]);
  if (random.chance(0.4)) roles.push(["key", random.chance(0.5) ? "postdoc" : "staff", random.pick([25, 50, 75])]);
  if (random.chance(0.7)) roles.push(["other", random.chance(0.6) ? "graduate_student" : "staff", random.pick([20, 25, 40])]);
  const forced = plan?.commit;
  const at = forced ? roles.findIndex(([role]) => role === forced[0]) : -1;
  if (forced) roles[at >= 0 ? at : roles.length] = [forced[0], forced[1], forced[2]];
  const taken: Person[] = [];
  return roles.map(([role, appointment, pct]) => {
    const drift = random.chance(0.06) ? 0.4 + random.next() * 0.3 : random.chance(0.3) ? 0.85 + random.next() * 0.3 : 1;
    const certified = forced && role === forced[0] ? forced[3] : Math.round(pct * drift);
    const person = find(appointment, department, pct, taken);
    taken.push(person);
    return { person, role, pct, certified };
  });
}

function makeSubaward(random: Random, award: Award, number: number, kind: SubawardCase): Subaward {
  const subrecipient = random.pick(SUBRECIPIENTS);
  const prefix = subrecipient.replace(/[^A-Z]/g, "");
  const planned = kind !== "normal";
  const start = kind === "crossing" ? "2024-10-01" : planned ? "2023-10-01" : `${randomDate(random, award.start, "2024-09-30").slice(0, 7)}-01`;
  const payments: Payment[] = [];
  for (let from = start; monthEndAfter(from, 2) <= "2025-03-31"; from = addDays(monthEndAfter(from, 2), 1)) {
    const to = monthEndAfter(from, 2);
    const amount = kind === "crossing" ? (from < "2025-01-01" ? 14_000 : 17_500) : roundCents(8_000 + random.next() * 14_000);
    const invoiceNo = `${prefix}-${to.slice(0, 4)}-${String(payments.length + 1).padStart(3, "0")}`;
    payments.push({ invoiceNo, amount, from, to, paidOn: addDays(to, planned ? 45 : random.int(30, 50)) });
  }
  const last = payments.at(-1)!;
  const fresh = { invoiceNo: `${prefix}-2025-${String(payments.length + 1).padStart(3, "0")}`, amount: roundCents(9_000 + random.next() * 11_000), from: "2025-04-01", to: "2025-05-31", paidOn: "" };
  const pending: Invoice = { ...(kind === "duplicate" ? last : fresh), signed: kind !== "unsigned", noisy: kind === "crossing" || random.chance(0.2), faulty: kind === "over" || random.chance(0.2) };
  const paid = payments.reduce((sum, payment) => sum + payment.amount, 0);
  const obligated = kind === "over" ? Math.round(paid + pending.amount - random.int(1_000, 3_000)) : Math.round(paid + pending.amount + random.int(20_000, 80_000));
  const end = kind === "expired" ? "2025-03-31" : award.end;
  return { id: subawardId.format(number), subrecipient, obligated, start, end, payments, pending: kind === "normal" && random.chance(0.3) ? null : pending };
}

function ledger(random: Random, award: Award): Txn[] {
  const txns: Txn[] = [];
  const first = award.start > BUDGET_PERIOD.start ? award.start : BUDGET_PERIOD.start;
  for (let month = first.slice(0, 7); month <= "2025-06" && `${month}-01` <= award.end; month = monthEndAfter(`${month}-01`, 1).slice(0, 7)) {
    const pay = (faculty: boolean): number => award.commitments.filter((c) => (c.person.appointment === "faculty") === faculty).reduce((sum, c) => sum + (c.person.salary * c.pct) / 1200, 0);
    const [faculty, others] = [roundCents(pay(true)), roundCents(pay(false))];
    txns.push({ postedOn: `${month}-25`, code: "5100", description: `Payroll ${month} - faculty`, amount: faculty });
    if (others > 0) txns.push({ postedOn: `${month}-25`, code: "5110", description: `Payroll ${month} - staff and students`, amount: others });
    txns.push({ postedOn: `${month}-25`, code: "5200", description: `Fringe benefits ${month}`, amount: roundCents((faculty + others) * 0.295) });
    for (let n = weightedPick(random, [0, 1, 2, 3], [0.25, 0.4, 0.25, 0.1]); n > 0; n -= 1) {
      const [code, , low, high, texts] = weightedPick(random, PURCHASES, PURCHASES.map((item) => item[1]));
      const postedOn = `${month}-${String(random.int(1, 27)).padStart(2, "0")}`;
      if (code !== EQUIPMENT_CODE) {
        txns.push({ postedOn, code, description: random.pick(texts), amount: roundCents(low + random.next() * (high - low)) });
        continue;
      }
      const [quantity, unit] = random.chance(0.25) ? [random.int(1, 4), random.int(8, 49) * 100] : [1, random.int(60, 600) * 100];
      txns.push({ postedOn, code, description: `Qty ${quantity} @ $${amountText(unit)} - ${random.pick(texts)}`, amount: quantity * unit });
    }
  }
  for (const subaward of award.subawards)
    for (const payment of subaward.payments.filter((p) => p.paidOn >= BUDGET_PERIOD.start))
      txns.push({ postedOn: payment.paidOn, code: SUBAWARD_CODE, description: `Subaward ${subaward.id} - invoice ${payment.invoiceNo}`, amount: payment.amount, subaward: subaward.id });
  return txns;
}

const round100 = (value: number): number => Math.round(value / 100) * 100;

/** The budget period's budget from the spending so far (every category under it), or with planted overspending. */
function budgetFor(random: Random, award: Award, overspend?: number): Map<Category, number> {
  const spent = new Map<Category, number>();
  for (const txn of award.txns) {
    const { category } = OBJECT_CODES[txn.code]!;
    spent.set(category, (spent.get(category) ?? 0) + txn.amount);
  }
  const elapsed = new Set(award.txns.filter((txn) => txn.code === "5200").map((txn) => txn.postedOn.slice(0, 7))).size;
  const months = Number((award.end < BUDGET_PERIOD.end ? award.end : BUDGET_PERIOD.end).slice(5, 7));
  const budget = new Map<Category, number>();
  for (const category of Object.keys(CATEGORIES) as Category[]) {
    const amount = spent.get(category);
    if (amount !== undefined) budget.set(category, Math.ceil((amount * months) / Math.max(1, elapsed) / (0.85 + random.next() * 0.15) / 100) * 100);
  }
  if (overspend !== undefined) {
    const others = [...budget].filter(([category]) => category !== "salaries").reduce((sum, [, amount]) => sum + amount, 0);
    budget.set("salaries", round100((spent.get("salaries")! - overspend * others) / (1 + overspend)));
  }
  return budget;
}

/** A category an award letter prints on its second page (every award spends on one of them). */
function pageTwoCategory(budget: Map<Category, number>): Category {
  return (["supplies", "travel", "other"] as const).find((category) => budget.has(category)) ?? "fringe";
}

/** A keying error: two adjacent different digits of the amount swapped. */
function transpose(amount: number): number {
  const digits = String(amount / 100);
  const at = [...digits].findIndex((digit, index) => index > 0 && digit !== digits[index - 1]);
  return at < 1 ? amount + 900 : Number(digits.slice(0, at - 1) + digits[at] + digits[at - 1] + digits.slice(at + 1)) * 100;
}

function lettersFor(random: Random, award: Award, budget: Map<Category, number>, amendments: number): Letter[] {
  const letters: Letter[] = [];
  let current = new Map(budget);
  for (let amendment = amendments; amendment >= 0; amendment -= 1) {
    const received = amendment === 0 ? addDays(BUDGET_PERIOD.start, -random.int(10, 40)) : randomDate(random, "2025-02-01", "2025-05-31");
    letters.unshift({ amendment, budget: current, received });
    const [from, to] = random.shuffle([...current.keys()].filter((category) => category !== "subawards"));
    current = new Map(current);
    const moved = round100(current.get(from!)! * (0.1 + random.next() * 0.2)) || 100;
    current.set(from!, current.get(from!)! + moved);
    current.set(to!, current.get(to!)! - Math.min(moved, current.get(to!)! - 100));
  }
  letters.sort((a, b) => a.amendment - b.amendment);
  for (let index = 1; index < letters.length; index += 1)
    if (letters[index]!.received <= letters[index - 1]!.received) letters[index]!.received = addDays(letters[index - 1]!.received, 20);
  return letters;
}

function makeAward(context: GenerateContext, index: number, sponsors: Sponsor[], find: ReturnType<typeof makePeople>["find"]): Award {
  const { random, referenceDate: today } = context;
  const plan = PLANS[index];
  const sponsor = plan ? sponsors[plan.sponsor]! : random.pick(sponsors);
  const start = plan ? `${random.pick(["2021", "2022", "2023"])}-${random.pick(["01", "04", "07", "09"])}-01` : `${randomDate(random, "2021-07-01", "2025-01-31").slice(0, 7)}-01`;
  let end = plan?.end ?? (plan?.closed ? monthEndAfter(randomDate(random, "2025-01-01", "2025-04-30"), 0) : monthEndAfter(start, random.int(24, 60) - 1));
  if (!plan && end < "2025-02-28") end = monthEndAfter(randomDate(random, "2025-02-01", "2027-12-31"), 0);
  if (plan && !plan.closed && !plan.end) end = monthEndAfter(randomDate(random, "2026-01-01", "2027-12-31"), 0);
  const department = random.pick(DEPARTMENTS);
  const title = `${random.pick(TOPICS)} ${random.pick(SETTINGS)}`;
  const award: Award = {
    id: awardId.format(10_000 + 7 * (index + 1)), sponsor, sponsorAwardNo: sponsor.terms.type === "federal" ? String(random.int(1_000_000, 9_999_999)) : `G-${start.slice(0, 4)}-${random.int(100, 999)}`, title, department, start, end, status: end < today ? "closed" : "active",
    extensions: plan?.extensions ?? (random.chance(0.15) ? 1 : 0), commitments: staffAward(random, find, department, plan), subawards: [], txns: [], letters: [], keyed: new Map(),
  };
  return award;
}

/** Sponsors, people, awards with budgets, commitments, subawards and ledgers, the scans and the workspace. */
export function generateGrants(context: GenerateContext): void {
  const { db, random, factors, referenceDate: today } = context;
  const sponsors = makeSponsors(context);
  const { people, create, find } = makePeople(context);
  const awards = Array.from({ length: 10 * factors.rows }, (_, index) => makeAward(context, index, sponsors, find));
  let subawardNumber = 40;
  awards.forEach((award, index) => {
    const kind = PLANS[index]?.subaward ?? (index >= PLANS.length && award.start <= "2024-09-01" && random.chance(0.25) ? "normal" : undefined);
    if (kind) award.subawards.push(makeSubaward(random, award, (subawardNumber += 3), kind));
  });
  for (const [appointment, faulty, shares] of OVERCOMMITTED) {
    const person = create(appointment, awards[shares[0]![0]]!.department, faulty);
    for (const [index, pct] of shares) awards[index]!.commitments.push({ person, role: appointment === "faculty" ? "co-I" : "other", pct, certified: pct });
  }
  for (const award of awards) award.txns = ledger(random, award);
  for (const [index, code, postedOn, amount, description] of PLANTED_TXNS) awards[index]!.txns.push({ postedOn, code, description, amount });
  awards.forEach((award, index) => {
    const planned = index < PLANS.length;
    const overspend = OVERSPEND[index] ?? (!planned && random.chance(0.1) ? random.pick([0.12, 0.2, 0.3]) : undefined);
    const budget = budgetFor(random, award, overspend);
    const amendments = index === 5 ? 1 : weightedPick(random, [0, 1, 2], [0.7, 0.25, 0.05]);
    award.letters = lettersFor(random, award, budget, amendments);
    award.keyed = new Map(budget);
    if (index === 5) award.keyed = new Map(award.letters[0]!.budget);
    else if (index === 7) award.keyed.set(pageTwoCategory(budget), transpose(budget.get(pageTwoCategory(budget))!));
    else if (!planned && !overspend && random.chance(0.12)) {
      const category = random.pick([...budget.keys()]);
      award.keyed.set(category, transpose(budget.get(category)!));
    } else if (!planned && !overspend && award.letters.length > 1 && random.chance(0.2))
      award.keyed = new Map(award.letters[0]!.budget);
    award.letters.at(-1)!.noisy = index === 5 ? "salaries" : undefined;
    const request = REQUESTS[index] ?? (!planned && award.status === "active" && award.end <= "2025-10-31" && random.chance(0.6) ? [random.int(2, 14), random.int(1, 60)] : undefined);
    if (!request) return;
    const [asked, early, latest] = [monthEndAfter(award.end, request[0]), addDays(award.end, -request[1]), addDays(today, -random.int(0, 12))];
    award.request = { newEnd: asked, received: early < latest ? early : latest, faulty: index === 0 || random.chance(0.2) };
  });
  const world = { sponsors, people, awards, negotiatedRate: random.pick([52.5, 54, 55.5, 57]) };
  insertRows(context, world);
  insertScans(context, world);
  writeGrantsDocuments(context, world);
}

function insertRows({ db }: GenerateContext, { sponsors, people, awards }: GrantsWorld): void {
  const run = (sql: string, rows: unknown[][]): void => {
    const statement = db.prepare(sql);
    for (const row of rows) statement.run(...row);
  };
  run("INSERT INTO sponsors VALUES (?, ?, ?, ?)", sponsors.map((s) => [s.id, s.name, s.terms.type, s.path]));
  run("INSERT INTO personnel VALUES (?, ?, ?, ?, ?)", [...people].sort((a, b) => a.id.localeCompare(b.id)).map((p) => [p.id, p.name, p.department, p.appointment, p.email]));
  run("INSERT INTO awards VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", awards.map((a) => [a.id, a.sponsor.id, a.sponsorAwardNo, a.title, a.commitments[0]!.person.id, a.department, a.start, a.end, a.status, a.extensions]));
  run("INSERT INTO budget_lines VALUES (?, ?, ?)", awards.flatMap((a) => [...a.keyed].map(([category, amount]) => [a.id, category, amount])));
  run("INSERT INTO commitments VALUES (?, ?, ?, ?)", awards.flatMap((a) => a.commitments.map((c) => [a.id, c.person.id, c.role, c.pct])));
  const subawards = awards.flatMap((a) => a.subawards.map((s) => [s, a] as const));
  run("INSERT INTO subawards VALUES (?, ?, ?, ?, ?, ?)", subawards.map(([s, a]) => [s.id, a.id, s.subrecipient, s.obligated, s.start, s.end]));
  run("INSERT INTO subaward_payments (subaward_id, invoice_no, amount, paid_on) VALUES (?, ?, ?, ?)", subawards.flatMap(([s]) => s.payments.map((p) => [s.id, p.invoiceNo, p.amount, p.paidOn])));
  const txns = awards.flatMap((a) => a.txns.map((t) => [a.id, t] as const)).sort(([a, x], [b, y]) => x.postedOn.localeCompare(y.postedOn) || a.localeCompare(b));
  run("INSERT INTO transactions (txn_id, award_id, posted_on, object_code, category, description, amount, subaward_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    txns.map(([award, t], index) => [txnId.format(200_001 + index * 3), award, t.postedOn, t.code, OBJECT_CODES[t.code]!.category, t.description, t.amount, t.subaward ?? null]));
}
