import { HARNESSES, SCALES, compareHarnessThenScale, harnessLabel } from "./dimensions.js";
import { PAPER_REFERENCE, benchmarkReferenceFor, type BenchmarkReference } from "./paper-reference.js";
import type { MetricsRow, SummaryRow } from "./results-file.js";

/** What a report is made from: one run's metrics and where they came from. */
export interface ReportInput {
  runId: string;
  /** The model, or several joined with ", " when the trajectories name more than one. */
  model: string;
  /** When the report was made (ISO 8601). */
  createdAt: string;
  /** Episodes read, i.e. lines of trajectories.jsonl. */
  trajectoriesCount: number;
  rows: readonly MetricsRow[];
  summary: readonly SummaryRow[];
  /** Episodes with reward 0 that did not end with a model error, in run order. */
  failures?: readonly FailedEpisode[];
  /** The run showed check messages to the model (`--reveal-verdict`): the report may show expected values too. */
  revealVerdict?: boolean;
  /** What the run cost, when the command recorded it (`run-cost.json`). */
  cost?: RunCost;
}

/** What one invocation of a run cost: instances prepared (generated or found), then episodes run. */
export interface RunCost {
  preparedInstances: number;
  /** Wall time of preparing them (generation, for instances not in the cache yet). */
  prepareSeconds: number;
  episodes: number;
  runSeconds: number;
}

/** Why one episode failed, as the report shows it. */
export interface FailedEpisode {
  task: string;
  scale: string;
  harness: MetricsRow["harness"];
  sample: number;
  endReason: string;
  /** What the agent passed to claim_done (null when it never did). */
  answer: string | null;
  checks: readonly { id: string; passed: boolean; message: string }[];
  verifierError: string | null;
}

/** A table as plain strings; the Markdown and HTML renderers decide how to escape and lay it out. */
export interface ReportTable {
  columns: readonly { label: string; numeric: boolean }[];
  rows: readonly (readonly string[])[];
  /** Rows to highlight (failures), by index; absent: none. */
  highlighted?: readonly boolean[];
}

/** Everything a report shows, in reading order, independent of the output format. */
export interface ReportContent {
  title: string;
  runInfo: readonly (readonly [label: string, value: string])[];
  summary: ReportTable;
  summaryNotes: readonly string[];
  codeStyle: ReportTable | null;
  codeStyleNote: string;
  perTask: ReportTable;
  failures: ReportTable | null;
  failuresNote: string;
  paperHeading: string;
  paperPassAtEight: ReportTable;
  paperNotes: readonly string[];
  /** A run on an external benchmark: its pass rates by state size beside the paper's figures for it. */
  benchmark: BenchmarkSection | null;
  cost: ReportTable | null;
}

export interface BenchmarkSection {
  heading: string;
  /** This run: pass rate per harness and the benchmark's sizes, the mean over them, tool-output tokens. */
  run: ReportTable;
  paper: ReportTable;
  notes: readonly string[];
}

/**
 * Lays out the report once, so that the Markdown and HTML reports show the same tables and words.
 */
export function buildReportContent(input: ReportInput): ReportContent {
  const harnesses = HARNESSES.filter((harness) => input.rows.some((row) => row.harness === harness));
  const scales = SCALES.filter((scale) => input.rows.some((row) => row.scale === scale));
  const tasks = new Set(input.rows.map((row) => row.task));

  const summary = buildSummaryTable(input.summary);

  const codeRows = [...input.summary]
    .filter((row) => row.harness !== "dtc" || row.codeBlockCount > 0)
    .sort(compareHarnessThenScale);
  const codeStyle: ReportTable | null =
    codeRows.length === 0
      ? null
      : {
          columns: [
            text("Harness"),
            text("Scale"),
            number("Code blocks"),
            number("Loops"),
            number("Conditionals"),
            number("try/except"),
            number("DTC-like"),
          ],
          rows: codeRows.map((row) => [
            harnessLabel(row.harness),
            row.scale,
            String(row.codeBlockCount),
            formatShare(row.loopShare),
            formatShare(row.conditionalShare),
            formatShare(row.tryShare),
            formatShare(row.dtcLikeShare),
          ]),
        };

  const perTask = buildPerTaskTable(input.rows, input.failures ?? []);
  const failures = buildFailuresTable(input.failures ?? [], input.revealVerdict === true);

  const paperPassAtEight: ReportTable = {
    columns: [text("Harness (paper)"), ...SCALES.map((scale) => number(`${scale} pass@8`))],
    rows: HARNESSES.map((harness) => [
      harnessLabel(harness),
      ...SCALES.map((scale) => formatRate(PAPER_REFERENCE.passAtEight[harness][scale])),
    ]),
  };

  return {
    title: `progagent evaluation: ${input.model} on ${describeTasks([...tasks])}`,
    runInfo: [
      ["Run", input.runId],
      ["Model", input.model],
      ["Harnesses", harnesses.map(harnessLabel).join(", ") || "none"],
      ["Scales", scales.join(", ") || "none"],
      ["Tasks", String(tasks.size)],
      ["Episodes", String(input.trajectoriesCount)],
      ["Model errors", String(sumOf(input.rows, (row) => row.modelErrors))],
      ["Report created", input.createdAt],
    ],
    summary,
    summaryNotes: [
      "Model errors: episodes that ended because the model endpoint failed (authentication, rate limit, server error); they are errors, not failures, and are left out of the pass rate, pass@k and every per-episode mean. Re-running the same command retries them.",
      "Pass rate: share of episodes with reward 1 among those without a model error. pass@k: unbiased estimate of the chance that at least one of k episodes passes, averaged over tasks that have at least k episodes (weighted by episodes); '–' where no task has k episodes.",
      "Tool calls count every call to an environment tool, direct or from code; direct calls are the model's own function calls. Tool-output tokens are those appended to the model's context. Runtime errors count failed code blocks and refused direct calls.",
    ],
    codeStyle,
    codeStyleNote:
      "Shares of code blocks (parsed with Python's ast, never executed). DTC-like: one tool call, no loop, conditional or try, and its raw result printed whole.",
    perTask,
    failures,
    failuresNote: input.revealVerdict
      ? "Every failed episode (reward 0, no model error): how it ended, the answer it claimed and the checks that failed with their messages (the run was made with --reveal-verdict)."
      : "Every failed episode (reward 0, no model error): how it ended, the answer it claimed and the ids of the checks that failed. Expected values stay hidden unless the run was made with --reveal-verdict.",
    paperHeading: `Paper reference: figures from the ${PAPER_REFERENCE.citation}, not from this run`,
    paperPassAtEight,
    paperNotes: PAPER_REFERENCE.notes,
    benchmark: buildBenchmarkSection(input.summary, [...tasks]),
    cost: input.cost ? buildCostTable(input.cost) : null,
  };
}

/** Pass rate per harness and size beside the paper's figures for the benchmark the run's tasks belong to. */
function buildBenchmarkSection(
  summary: readonly SummaryRow[],
  taskIds: readonly string[],
): BenchmarkSection | null {
  const reference: BenchmarkReference | undefined = benchmarkReferenceFor(taskIds);
  if (!reference) return null;
  const scales = SCALES.filter((scale) => summary.some((row) => row.scale === scale));
  const harnesses = HARNESSES.filter((harness) => summary.some((row) => row.harness === harness));
  const cell = (harness: string, scale: string): SummaryRow | undefined =>
    summary.find((row) => row.harness === harness && row.scale === scale);
  const rates = (harness: string): number[] =>
    scales.flatMap((scale) => {
      const rate = cell(harness, scale)?.passRate;
      return rate === undefined || rate === null ? [] : [rate];
    });
  const mean = (values: number[]): number | null =>
    values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
  const run: ReportTable = {
    columns: [
      text("Harness (this run)"),
      ...scales.map((scale) => number(`${reference.scaleLabels[scale]} pass rate`)),
      number(`Mean ${scales.map((scale) => reference.scaleLabels[scale]).join("-")}`),
      ...scales.map((scale) => number(`${reference.scaleLabels[scale]} tool-output tokens / episode`)),
      number("Context-limit share"),
    ],
    rows: harnesses.map((harness) => {
      const episodes = scales.reduce((sum, scale) => sum + (cell(harness, scale)?.episodes ?? 0), 0);
      const stops = scales.reduce(
        (sum, scale) =>
          sum + (cell(harness, scale)?.contextLimitShare ?? 0) * (cell(harness, scale)?.episodes ?? 0),
        0,
      );
      return [
        harnessLabel(harness),
        ...scales.map((scale) => formatOptionalRate(cell(harness, scale)?.passRate)),
        formatOptionalRate(mean(rates(harness))),
        ...scales.map((scale) => formatTokens(cell(harness, scale)?.meanToolOutputTokens ?? null)),
        formatShare(episodes === 0 ? null : stops / episodes),
      ];
    }),
  };
  const paper: ReportTable = {
    columns: [text("System (paper)"), text("Harness"), text("State sizes"), number("Pass rate")],
    rows: reference.figures.map((figure) => [
      figure.system,
      figure.harness,
      figure.sizes,
      formatShare(figure.passRate),
    ]),
  };
  return {
    heading: `${reference.name}: this run beside the paper (${PAPER_REFERENCE.citation}; the paper's figures are not from this run)`,
    run,
    paper,
    notes: reference.notes,
  };
}

function buildCostTable(cost: RunCost): ReportTable {
  return {
    columns: [
      number("Instances prepared"),
      number("Preparation (s)"),
      number("Episodes run"),
      number("Run (s)"),
      number("Episodes / s"),
    ],
    rows: [
      [
        String(cost.preparedInstances),
        cost.prepareSeconds.toFixed(1),
        String(cost.episodes),
        cost.runSeconds.toFixed(1),
        cost.runSeconds > 0 ? (cost.episodes / cost.runSeconds).toFixed(3) : "–",
      ],
    ],
  };
}

/** The summary per harness and scale as a table; also what the console prints after a run. */
export function buildSummaryTable(summary: readonly SummaryRow[]): ReportTable {
  const ks = passAtKKeys(summary);
  return {
    columns: [
      text("Harness"),
      text("Scale"),
      number("Tasks"),
      number("Episodes"),
      number("Model errors"),
      number("Pass rate"),
      ...ks.map((k) => number(`pass@${k}`)),
      number("Tool calls / episode"),
      number("Direct calls / episode"),
      number("Tool-output tokens / episode"),
      number("Runtime errors / episode"),
      number("Context-limit share"),
    ],
    rows: [...summary]
      .sort(compareHarnessThenScale)
      .map((row) => [
        harnessLabel(row.harness),
        row.scale,
        String(row.tasks),
        String(row.episodes),
        String(row.modelErrors),
        formatOptionalRate(row.passRate),
        ...ks.map((k) => formatOptionalRate(row.passAtK[k])),
        formatCount(row.meanToolCalls),
        formatCount(row.meanDirectToolCalls),
        formatTokens(row.meanToolOutputTokens),
        formatCount(row.runtimeErrorsPerEpisode),
        formatShare(row.contextLimitShare),
      ]),
  };
}

function passAtKKeys(rows: readonly { passAtK: Record<string, number> }[]): string[] {
  return [...new Set(rows.flatMap((row) => Object.keys(row.passAtK)))].sort(
    (left, right) => Number(left) - Number(right),
  );
}

function text(label: string): { label: string; numeric: boolean } {
  return { label, numeric: false };
}

function number(label: string): { label: string; numeric: boolean } {
  return { label, numeric: true };
}

/** Rates in [0, 1] with two decimals, as the paper prints them. */
function formatRate(value: number): string {
  return value.toFixed(2);
}

function formatOptionalRate(value: number | null | undefined): string {
  return value === undefined || value === null ? "–" : formatRate(value);
}

function formatShare(value: number | null): string {
  return value === null ? "–" : `${(value * 100).toFixed(1)}%`;
}

function formatCount(value: number | null): string {
  return value === null ? "–" : value.toFixed(1);
}

// Grouped with a fixed locale so that reports read the same on every machine.
function formatTokens(value: number | null): string {
  return value === null ? "–" : Math.round(value).toLocaleString("en-US");
}

function sumOf<T>(items: readonly T[], value: (item: T) => number): number {
  let total = 0;
  for (const item of items) total += value(item);
  return total;
}

/** `97 tasks in 12 domains (retail, hr, ...)`: what a run evaluated, from its task ids (`<domain>.<task>`). */
function describeTasks(taskIds: readonly string[]): string {
  const domains = [...new Set(taskIds.map((id) => id.split(".")[0] ?? id))];
  const listed = domains.length <= 4 ? domains.join(", ") : `${domains.slice(0, 4).join(", ")}, ...`;
  const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? "" : "s"}`;
  return `${plural(taskIds.length, "task")} in ${plural(domains.length, "domain")} (${listed})`;
}

function episodeKey(episode: { task: string; scale: string; harness: string }): string {
  return `${episode.task}|${episode.scale}|${episode.harness}`;
}

/** The per-task table, rows with a failed episode first (highlighted), each naming how its failures ended. */
function buildPerTaskTable(rows: readonly MetricsRow[], failures: readonly FailedEpisode[]): ReportTable {
  const failuresOf = new Map<string, FailedEpisode[]>();
  for (const failure of failures) {
    const key = episodeKey(failure);
    failuresOf.set(key, [...(failuresOf.get(key) ?? []), failure]);
  }
  const ordered = [
    ...rows.filter((row) => failuresOf.has(episodeKey(row))),
    ...rows.filter((row) => !failuresOf.has(episodeKey(row))),
  ];
  const rowKs = passAtKKeys(rows);
  return {
    columns: [
      text("Task"),
      text("Scale"),
      text("Harness"),
      number("Episodes"),
      number("Model errors"),
      number("Pass rate"),
      ...rowKs.map((k) => number(`pass@${k}`)),
      number("Tool calls / episode"),
      number("Tool-output tokens / episode"),
      number("Runtime errors / episode"),
      number("Context-limit share"),
      text("Failed episodes"),
    ],
    rows: ordered.map((row) => [
      row.task,
      row.scale,
      harnessLabel(row.harness),
      String(row.episodes),
      String(row.modelErrors),
      formatOptionalRate(row.passRate),
      ...rowKs.map((k) => formatOptionalRate(row.passAtK[k])),
      formatCount(row.meanToolCalls),
      formatTokens(row.meanToolOutputTokens),
      formatCount(row.runtimeErrorsPerEpisode),
      formatShare(row.contextLimitShare),
      (failuresOf.get(episodeKey(row)) ?? []).map(describeFailure).join("; "),
    ]),
    highlighted: ordered.map((row) => failuresOf.has(episodeKey(row))),
  };
}

/** `sample 0: context_limit` or `sample 1: claim_done, failed total-amount, late-fees`. */
function describeFailure(failure: FailedEpisode): string {
  const failed = failure.checks.filter((check) => !check.passed).map((check) => check.id);
  const detail =
    failure.verifierError !== null
      ? ", verifier error"
      : failed.length > 0
        ? `, failed ${failed.join(", ")}`
        : "";
  return `sample ${failure.sample}: ${failure.endReason}${detail}`;
}

const ANSWER_SHOWN_CHARACTERS = 200;

function buildFailuresTable(failures: readonly FailedEpisode[], revealVerdict: boolean): ReportTable | null {
  if (failures.length === 0) return null;
  const answerOf = (answer: string | null): string =>
    answer === null
      ? "(none)"
      : answer.length > ANSWER_SHOWN_CHARACTERS
        ? `${answer.slice(0, ANSWER_SHOWN_CHARACTERS)}... (${answer.length} characters)`
        : answer;
  return {
    columns: [
      text("Task"),
      text("Scale"),
      text("Harness"),
      number("Sample"),
      text("End reason"),
      text("Answer claimed"),
      text(revealVerdict ? "Failed checks (messages)" : "Failed checks"),
    ],
    rows: failures.map((failure) => [
      failure.task,
      failure.scale,
      harnessLabel(failure.harness),
      String(failure.sample),
      failure.endReason,
      answerOf(failure.answer),
      failure.verifierError !== null
        ? `verifier error${revealVerdict ? `: ${failure.verifierError}` : ""}`
        : failure.checks
            .filter((check) => !check.passed)
            .map((check) => (revealVerdict ? `${check.id}: ${check.message}` : check.id))
            .join(revealVerdict ? "; " : ", ") || "(no check ran)",
    ]),
    highlighted: failures.map(() => true),
  };
}
