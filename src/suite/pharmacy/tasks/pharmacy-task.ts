import { CORRECT, defineTask, variantNearMisses } from "../../../envs/index.js";
import type { Check, StateView, TaskDefinition, VerifyContext } from "../../../envs/index.js";
import { pharmacyDomain } from "../domain.js";

/** A cell builder's switches: all off in the oracle, one flipped by each near-miss. */
export type Flags<Name extends string> = Partial<Record<Name, boolean>>;

/** A pharmacy task whose verifier checks one expectation and whose near-misses are variants of the oracle. */
export function pharmacyTask<
  Expected extends { length: number } | { size: number },
  Variant extends object,
>(spec: {
  id: string;
  summary: string;
  instruction: string;
  tools: string[];
  /** The expectation, computed from the initial state; empty means the generator did not plant the case. */
  expected: (initial: StateView) => Expected;
  /** What an empty expectation lacks, for the generator error. */
  nothing: string;
  checks: (expected: Expected, context: VerifyContext) => Check[];
  cells: (variant: Variant) => string[];
  nearMisses: Record<string, readonly [change: Partial<Variant>, description: string]>;
}): TaskDefinition {
  const { expected, nothing, checks, cells, nearMisses, ...text } = spec;
  return defineTask({
    ...text,
    domain: pharmacyDomain,
    verify: (context) => {
      const found = expected(context.initial);
      if (("size" in found ? found.size : found.length) === 0)
        throw new Error(`generation produced no ${nothing}`);
      return checks(found, context);
    },
    oracle: cells(CORRECT as Variant),
    nearMisses: variantNearMisses(cells, CORRECT as Variant, nearMisses),
  });
}
