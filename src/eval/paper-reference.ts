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

/** An external benchmark's figures in the paper, for a report of a run on that benchmark's tasks. */
export interface BenchmarkReference {
  /** Task ids of the benchmark start with this (`loca.`). */
  taskPrefix: string;
  name: string;
  /** What each scale means in the benchmark (LOCA: the environment state's size in tokens). */
  scaleLabels: Record<Scale, string>;
  /** The paper's figures: who, under which harness, over which sizes, the pass rate. */
  figures: ReadonlyArray<{ system: string; harness: string; sizes: string; passRate: number }>;
  notes: readonly string[];
}

export const BENCHMARK_REFERENCES: readonly BenchmarkReference[] = [
  {
    taskPrefix: "loca.",
    name: "LOCA-bench",
    scaleLabels: { v0: "8k", v1: "16k", v2: "32k", v3: "64k" },
    figures: [
      { system: "ProgAgent-14B", harness: "PTC", sizes: "64k", passRate: 0.307 },
      { system: "comparable-size baselines", harness: "DTC", sizes: "64k", passRate: 0 },
      { system: "ProgAgent-8B", harness: "PTC", sizes: "8k-64k mean", passRate: 0.243 },
      { system: "ProgAgent-14B", harness: "PTC", sizes: "8k-64k mean", passRate: 0.383 },
      { system: "ProgAgent-8B trained at v0 only", harness: "PTC", sizes: "8k-64k mean", passRate: 0.16 },
      { system: "ProgAgent-14B trained at v0 only", harness: "PTC", sizes: "8k-64k mean", passRate: 0.237 },
      { system: "GPT-5.2", harness: "(as reported)", sizes: "LOCA-bench", passRate: 0.637 },
    ],
    notes: [
      "Without server-level error detection the 8k-64k means drop to 19.3% (8B) and 34.5% (14B).",
      "The paper's LOCA-bench runs used LOCA's servers with their PyPI ones (excel, terminal, pdf-tools); classes that need a server missing here are left out of this run, so its pass rates cover fewer classes.",
    ],
  },
];

/** The benchmark every task of a run belongs to, if any. */
export function benchmarkReferenceFor(taskIds: readonly string[]): BenchmarkReference | undefined {
  if (taskIds.length === 0) return undefined;
  return BENCHMARK_REFERENCES.find((reference) => taskIds.every((id) => id.startsWith(reference.taskPrefix)));
}
