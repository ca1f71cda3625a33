import type { Faker } from "@faker-js/faker";
import type { SeededRandom } from "../../core/index.js";
import { addDays, daysBetween } from "./dates.js";
import { roundCents } from "./money.js";

/**
 * Seeded generators for realistic values. They draw only from the generator context's seeded `random` and
 * `faker` (fixed reference date), so the same scale and seed give the same bytes.
 */

/** An index drawn with probability proportional to `weights`. */
export function weightedIndex(random: SeededRandom, weights: readonly number[]): number {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let threshold = random.next() * total;
  for (let index = 0; index < weights.length; index += 1) {
    threshold -= weights[index] ?? 0;
    if (threshold < 0) return index;
  }
  return weights.length - 1;
}

/** An item drawn with probability proportional to its weight (`weights[i]` for `items[i]`). */
export function weightedPick<T>(random: SeededRandom, items: readonly T[], weights: readonly number[]): T {
  if (items.length === 0 || items.length !== weights.length)
    throw new Error(
      `weightedPick needs one weight per item (${items.length} items, ${weights.length} weights)`,
    );
  return items[weightedIndex(random, weights)] as T;
}

/** A uniform number in [low, high). */
export function between(random: SeededRandom, low: number, high: number): number {
  return low + random.next() * (high - low);
}

/** A uniform dollar amount in [low, high], rounded to cents. */
export function randomAmount(random: SeededRandom, low: number, high: number): number {
  return roundCents(between(random, low, high));
}

/** A uniform ISO date from `start` to `end`, both included. */
export function randomDate(random: SeededRandom, start: string, end: string): string {
  return addDays(start, random.int(0, daysBetween(start, end)));
}

/** A person with a name and an email address derived from it. */
export interface PersonName {
  firstName: string;
  lastName: string;
  fullName: string;
  /** `first.last@domain`, lower case ASCII; numbered (`first.last2@`) when `taken` has it already. */
  email: string;
}

/** Lower-case ASCII letters and digits only (`O'Brien` -> `obrien`), for email addresses and handles. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "");
}

/**
 * A seeded person name (faker) with a unique email at `emailDomain`: pass the same `taken` set for every
 * person of a population and no two get the same address.
 */
export function personName(faker: Faker, emailDomain: string, taken: Set<string> = new Set()): PersonName {
  const firstName = faker.person.firstName();
  const lastName = faker.person.lastName();
  const base = `${slug(firstName)}.${slug(lastName)}`;
  let email = `${base}@${emailDomain}`;
  for (let suffix = 2; taken.has(email); suffix += 1) email = `${base}${suffix}@${emailDomain}`;
  taken.add(email);
  return { firstName, lastName, fullName: `${firstName} ${lastName}`, email };
}

/** `count` distinct picks of `items` in a seeded order (all of them when count exceeds the list). */
export function sample<T>(random: SeededRandom, items: readonly T[], count: number): T[] {
  return random.shuffle(items).slice(0, Math.max(0, count));
}
