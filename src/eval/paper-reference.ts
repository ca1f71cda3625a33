import type { Harness, Scale } from "./dimensions.js";

/**
 * Figures reported in the ProgAgent paper, shown in reports beside (never mixed with) a run's own numbers,
 * so that a reader can see whether a run reproduces the paper's trend.
 */
export const PAPER_REFERENCE = {
  citation: "ProgAgent paper (arXiv 2610.14774, Oct 2026)",
  /** A strong model's pass@8 over the 215-task suite at each environment scale. */
  passAtEight: {
    dtc: { v0: 0.95, v1: 0.88, v2: 0.65, v3: 0.42 },
    ptc: { v0: 0.95, v1: 0.94, v2: 0.92, v3: 0.9 },
    hybrid: { v0: 0.95, v1: 0.92, v2: 0.93, v3: 0.88 },
  } satisfies Record<Harness, Record<Scale, number>>,
  notes: [
    "Training at 14B: DTC puts about 30k raw tool-output tokens into context per episode, PTC below 20k; PTC and Hybrid make about half as many tool calls as DTC.",
    "Code written during RL: loops in about 82% of code blocks, conditionals in about 65%, error handling in about 9%.",
    "40.7% of PTC calls on Playwright (MCPMark) were DTC-like: a single tool call with no control flow or selective printing.",
  ],
} as const;
