import type { SeededRandom } from "../../core/index.js";
import { roundCents } from "../../envs/index.js";

/** Prices end in .99, .95 or .49 like a shop's; never below $4.95. */
export function charmPrice(random: SeededRandom, value: number): number {
  const ending = random.pick([0.01, 0.01, 0.05, 0.51]);
  return Math.max(4.95, roundCents(Math.round(value) - ending));
}
