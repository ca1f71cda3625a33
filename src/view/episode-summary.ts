/**
 * What the episode list shows of one episode: a few numbers and names per episode, read once when a file is
 * indexed, so that the list, its filters and its sort never need the episode itself.
 */
export interface EpisodeSummary {
  /** Where the episode is: its source (the index in the viewer's inputs), the line and the line's bytes. */
  source: number;
  line: number;
  offset: number;
  lengthBytes: number;
  /** Where the searchable text is inside the line (messages: instruction, code, outputs), relative to `offset`. */
  searchStart: number;
  searchEnd: number;
  kind: EpisodeKind;
  /** The schemaVersion the line declares (null where the format has none). */
  schemaVersion: number | null;
  runId: string;
  episodeId: string;
  task: string;
  domain: string;
  harness: string;
  scale: string;
  seed: number | null;
  sample: number | null;
  model: string;
  /** The verifier's reward (0 or 1); null where the format carries none (SFT rows). */
  reward: number | null;
  endReason: string;
  turns: number;
  toolCalls: number;
  codeBlocks: number;
  runtimeErrors: number;
  toolOutputTokens: number | null;
  /** Tokens in the context at the end of the episode. */
  contextTokens: number | null;
  wallTimeMs: number | null;
  /** The trainer's step, for episodes recorded by `rollout serve --record` whose client sent one. */
  step: number | null;
}

/**
 * trajectory: an eval run's line (schema v1/v2); rollout: a line recorded by `rollout serve --record`;
 * sft: a row of an SFT export (ms-swift, OpenAI, verl); validation: a row of `tasks validate --json`.
 */
export type EpisodeKind = "trajectory" | "rollout" | "sft" | "validation";

/** The domain of a task id (`retail.refund-late-orders` -> `retail`). */
export function domainOf(task: string): string {
  const dot = task.indexOf(".");
  return dot > 0 ? task.slice(0, dot) : "";
}

/** The episode's key in URLs and the API: `<source>.<line>`. */
export function episodeKeyOf(summary: Pick<EpisodeSummary, "source" | "line">): string {
  return `${summary.source}.${summary.line}`;
}

/** The columns of the list, in the order the API sends them (one array per column keeps 10,000 rows small). */
export const SUMMARY_COLUMNS = [
  "source",
  "line",
  "kind",
  "schemaVersion",
  "runId",
  "episodeId",
  "task",
  "domain",
  "harness",
  "scale",
  "seed",
  "sample",
  "model",
  "reward",
  "endReason",
  "turns",
  "toolCalls",
  "codeBlocks",
  "runtimeErrors",
  "toolOutputTokens",
  "contextTokens",
  "wallTimeMs",
  "step",
] as const satisfies ReadonlyArray<keyof EpisodeSummary>;
export type SummaryColumn = (typeof SUMMARY_COLUMNS)[number];
