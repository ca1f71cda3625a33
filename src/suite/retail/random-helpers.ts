import type { SeededRandom } from "../../core/index.js";
import { roundCents } from "./money.js";

export function weightedIndex(random: SeededRandom, weights: readonly number[]): number {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let threshold = random.next() * total;
  for (let index = 0; index < weights.length; index += 1) {
    threshold -= weights[index] ?? 0;
    if (threshold < 0) return index;
  }
  return weights.length - 1;
}

export function weightedPick<T>(random: SeededRandom, items: readonly T[], weights: readonly number[]): T {
  return items[weightedIndex(random, weights)] as T;
}

/** Prices end in .99, .95 or .49 like a shop's; never below $4.95. */
export function charmPrice(random: SeededRandom, value: number): number {
  const ending = random.pick([0.01, 0.01, 0.05, 0.51]);
  return Math.max(4.95, roundCents(Math.round(value) - ending));
}

export function between(random: SeededRandom, low: number, high: number): number {
  return low + random.next() * (high - low);
}

export function slug(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "");
}
