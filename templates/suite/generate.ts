// The generator: fills one instance's database and workspace for one scale and seed. It runs once per
// (task, scale, seed) and the result is cached, keyed on a hash of this folder's sources, so editing any
// file here rebuilds the instances. Draw every value from the context (seeded), never from Math.random
// or the wall clock: the same seed must give the same bytes.
import { addDays, personName, randomDate, weightedPick, type GenerateContext } from "progagent";
import { renderPolicy, type LateFeePolicy } from "./policy.js";
import { POLICY_PATH, loanId, memberId, type Tier } from "./schema.js";

// Loan periods are three weeks.
const LOAN_DAYS = 21;

// A few titles are enough: the task is about dates and fees, not books.
const TITLES = [
  "The Salt Road",
  "A Field Guide to Moss",
  "Night Trains of Europe",
  "The Quiet Engineer",
  "Bread and Time",
  "Maps of Small Islands",
  "The Glass Orchard",
  "Learning to Sail",
  "Winter Birds",
  "The Clockmaker's Ledger",
];

export function generateLibrary(context: GenerateContext): void {
  // db: the instance's SQLite database (schema already applied); random: a seeded PRNG; faker: seeded
  // faker; factors.rows is 1/2/4/8 at v0..v3 and factors.files 1/2/3/4; referenceDate is "today".
  const { db, random, faker, factors, referenceDate } = context;

  // The policy's numbers vary with the seed, so an agent must read the document, not remember it.
  const policy: LateFeePolicy = {
    graceDays: random.int(2, 5),
    dailyRate: { standard: random.pick([0.25, 0.3, 0.5]), student: random.pick([0.1, 0.15]), senior: 0 },
    capPerLoan: random.pick([5, 6, 8, 10]),
  };
  // The workspace document the task's instruction points at.
  context.writeFile(POLICY_PATH, renderPolicy(policy));

  // Members: 10 per row factor. The first is a standard member, so the planted loans below have one.
  const emails = new Set<string>();
  const insertMember = db.prepare("INSERT INTO members (member_id, name, email, tier) VALUES (?, ?, ?, ?)");
  const tierOf: Tier[] = [];
  for (let n = 1; n <= 10 * factors.rows; n += 1) {
    const person = personName(faker, "example.org", emails);
    const tier: Tier =
      n === 1 ? "standard" : weightedPick(random, ["standard", "student", "senior"], [6, 3, 1]);
    tierOf.push(tier);
    insertMember.run(memberId.format(n), person.fullName, person.email, tier);
  }
  const standardMembers = tierOf.flatMap((tier, index) => (tier === "standard" ? [index + 1] : []));

  // Loans: 30 per row factor, borrowed in the last 80 days; most overdue ones have been returned.
  interface LoanSpec {
    member: number;
    borrowedOn: string;
    returnedOn: string | null;
  }
  const loans: LoanSpec[] = [];
  for (let n = 0; n < 30 * factors.rows; n += 1) {
    const borrowedOn = randomDate(random, addDays(referenceDate, -80), addDays(referenceDate, -1));
    const overdue = addDays(borrowedOn, LOAN_DAYS) < referenceDate;
    const returned = random.chance(overdue ? 0.55 : 0.3);
    loans.push({
      member: random.int(1, tierOf.length),
      borrowedOn,
      returnedOn: returned ? randomDate(random, borrowedOn, referenceDate) : null,
    });
  }
  // Planted cases, so that every scale and seed has the two situations the near-misses get wrong:
  // a loan exactly at the end of its grace period (not charged yet), and one so late its fee hits the cap.
  const planted = (daysLate: number): LoanSpec => ({
    member: random.pick(standardMembers),
    borrowedOn: addDays(referenceDate, -(daysLate + LOAN_DAYS)),
    returnedOn: null,
  });
  loans.push(planted(policy.graceDays), planted(60));

  // Shuffled before numbering, so the planted loans are not the last ids.
  const insertLoan = db.prepare(
    "INSERT INTO loans (loan_id, member_id, title, borrowed_on, due_on, returned_on) VALUES (?, ?, ?, ?, ?, ?)",
  );
  random.shuffle(loans).forEach((loan, index) => {
    insertLoan.run(
      loanId.format(index + 1),
      memberId.format(loan.member),
      random.pick(TITLES),
      loan.borrowedOn,
      addDays(loan.borrowedOn, LOAN_DAYS),
      loan.returnedOn,
    );
  });

  // Scaled workspace files (3/6/9/12 at v0..v3): branch notices an agent has to look past.
  for (let n = 1; n <= 3 * factors.files; n += 1) {
    context.writeFile(
      `notices/notice-${String(n).padStart(2, "0")}.md`,
      `# Branch notice ${n}\n\nThe ${faker.location.street()} branch closes at ${random.int(5, 8)} pm on ${addDays(referenceDate, random.int(1, 30))}.\n`,
    );
  }
}
