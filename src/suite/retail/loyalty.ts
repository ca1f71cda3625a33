import type Database from "better-sqlite3";
import { addDays, allRows, formatUsd, longDate, sumBy, type GenerateContext } from "../../envs/index.js";
import { STORE_EMAIL_DOMAIN, STORE_NAME } from "./catalog.js";

/**
 * The loyalty programme's quarterly tier review: the rules document a task plants, how verifiers read it
 * back, and the tier each customer must end up with.
 */

export const LOYALTY_PROGRAMME_PATH = "policies/loyalty-programme.md";

const TIERS = ["standard", "silver", "gold"] as const;
type Tier = (typeof TIERS)[number];

export interface LoyaltyRules {
  periodStart: string;
  periodEnd: string;
  silverUsd: number;
  goldUsd: number;
}

/** Variants the near-misses get wrong. */
export interface LoyaltyOptions {
  ignoreRefunds?: boolean;
  countCancelled?: boolean;
  includeStaff?: boolean;
  /** Downgrade straight to the tier the spend earns, however many steps. */
  directDowngrade?: boolean;
}

function renderLoyaltyProgramme(rules: LoyaltyRules, today: string, owner: string): string {
  return `# ${STORE_NAME} — Loyalty Programme Rules

Owner: ${owner}, CRM & Loyalty · Review date ${longDate(today)}

Tiers are reviewed every quarter from each member's qualifying spend. This document is the reference
for the review; the tier shown in the customer system must match it once the review is done.

## Qualifying period for this review

Orders placed from **${rules.periodStart}** to **${rules.periodEnd}** (both dates included, by order date).
Orders placed after the period count toward the next review.

## Qualifying spend

- The order total the customer paid (merchandise after discounts, shipping and tax), for every order
  placed in the qualifying period that was not cancelled.
- Minus every refund recorded against those orders (returns, price-match credits, courtesy credits),
  whenever it was issued.

## Tier thresholds

| Tier | Qualifying spend |
|------|------------------|
| Gold | ${formatUsd(rules.goldUsd)} or more |
| Silver | ${formatUsd(rules.silverUsd)} or more, below ${formatUsd(rules.goldUsd)} |
| Standard | below ${formatUsd(rules.silverUsd)} |

## Moving between tiers

- **Upgrades** take effect at the review, straight to the tier the spend earns.
- **Downgrades** are softened: a member moves down **one tier per review** at most (a Gold member who
  qualifies only for Standard becomes Silver this quarter).
- Members whose spend matches their current tier keep it.

## Who is in the programme

Every customer account, except accounts on our own domain (@${STORE_EMAIL_DOMAIN}): staff purchase
accounts and the QA checkout test accounts are not members, and their tier must not be changed by the
review.
`;
}

export function parseLoyaltyProgramme(text: string): LoyaltyRules {
  const period = text.match(/from \*\*(\d{4}-\d{2}-\d{2})\*\* to \*\*(\d{4}-\d{2}-\d{2})\*\*/);
  const gold = text.match(/\| Gold \| \$([\d,]+(?:\.\d+)?) or more/);
  const silver = text.match(/\| Silver \| \$([\d,]+(?:\.\d+)?) or more/);
  if (!period || !gold || !silver)
    throw new Error("loyalty programme document lacks its period or thresholds");
  const money = (value: string): number => Number(value.replace(/,/g, ""));
  return {
    periodStart: period[1] as string,
    periodEnd: period[2] as string,
    goldUsd: money(gold[1] as string),
    silverUsd: money(silver[1] as string),
  };
}

/** The customers whose tier the review changes, with their new tier, by customer id. */
export function computeTierChanges(
  db: Database.Database,
  rules: LoyaltyRules,
  options: LoyaltyOptions = {},
): Map<number, Tier> {
  const customers = allRows<{ id: number; email: string; loyalty_tier: Tier }>(
    db,
    "SELECT id, email, loyalty_tier FROM customers ORDER BY id",
  );
  const orders = allRows<{ customer_id: number; total: number; status: string; refunded: number }>(
    db,
    `SELECT o.id, o.customer_id, o.total, o.status,
            COALESCE((SELECT SUM(f.amount) FROM refunds f WHERE f.order_id = o.id), 0) AS refunded
       FROM orders o WHERE substr(o.placed_at, 1, 10) BETWEEN ? AND ?`,
    rules.periodStart,
    rules.periodEnd,
  );
  const cents = sumBy(
    orders.filter((order) => order.status !== "cancelled" || options.countCancelled),
    (order) => order.customer_id,
    (order) => Math.round(order.total * 100) - (options.ignoreRefunds ? 0 : Math.round(order.refunded * 100)),
  );
  const changes = new Map<number, Tier>();
  for (const customer of customers) {
    if (!options.includeStaff && customer.email.toLowerCase().endsWith(`@${STORE_EMAIL_DOMAIN}`)) continue;
    const spend = (cents.get(customer.id) ?? 0) / 100;
    const earned = spend >= rules.goldUsd ? 2 : spend >= rules.silverUsd ? 1 : 0;
    const current = TIERS.indexOf(customer.loyalty_tier);
    const target = earned >= current || options.directDowngrade ? earned : current - 1;
    if (target !== current) changes.set(customer.id, TIERS[target] as Tier);
  }
  return changes;
}

function sameChanges(left: Map<number, Tier>, right: Map<number, Tier>): boolean {
  return left.size === right.size && [...left].every(([id, tier]) => right.get(id) === tier);
}

const MISTAKES: LoyaltyOptions[] = [
  { ignoreRefunds: true },
  { countCancelled: true },
  { includeStaff: true },
  { directDowngrade: true },
];

/**
 * Plants the programme document with thresholds that make every rule matter: the first pair (in a seeded
 * order) for which each mistaken reading of the rules changes the review's outcome.
 */
export function plantLoyaltyProgramme(context: GenerateContext): void {
  const today = context.referenceDate.slice(0, 10);
  const base = { periodStart: addDays(today, -90), periodEnd: addDays(today, -1) };
  const candidates: LoyaltyRules[] = [];
  for (let silver = 200; silver <= 700; silver += 50)
    for (let gold = silver + 300; gold <= 2000; gold += 100)
      candidates.push({ ...base, silverUsd: silver, goldUsd: gold });
  const chosen = context.random.shuffle(candidates).find((rules) => {
    const correct = computeTierChanges(context.db, rules);
    return (
      correct.size > 0 &&
      MISTAKES.every((mistake) => !sameChanges(correct, computeTierChanges(context.db, rules, mistake)))
    );
  });
  if (!chosen) throw new Error("no loyalty thresholds make every programme rule matter");
  const owner = `${context.faker.person.firstName()} ${context.faker.person.lastName()}`;
  context.writeFile(LOYALTY_PROGRAMME_PATH, renderLoyaltyProgramme(chosen, today, owner));
}
