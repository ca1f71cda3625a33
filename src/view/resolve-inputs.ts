import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

/**
 * What one input of `progagent view` is: a run directory (an eval run, or a `rollout serve --record`
 * directory), a JSONL file of episodes (trajectories, rollout records, SFT exports), the JSON of
 * `tasks validate --json`, a parquet export, or something that is not there.
 */
export type InputKind = "run" | "jsonl" | "validation" | "parquet" | "missing";

export interface ResolvedInput {
  /** As given on the command line. */
  input: string;
  kind: InputKind;
  /** The file that holds the episodes (null when missing). */
  path: string | null;
  /** The run directory, when the input is one (or a trajectories.jsonl inside one). */
  runDir: string | null;
  /** A short name for the page: the run directory's or the file's name. */
  label: string;
  /** The run was made with --reveal-verdict: the verifier's check messages (expected values) may be shown. */
  revealVerdict: boolean;
  /** report.html of the run, when it has one. */
  reportPath: string | null;
  /** Why the input cannot be read. */
  problem: string | null;
}

const TRAJECTORIES_FILE = "trajectories.jsonl";

/** Resolves each input; an input that cannot be read is kept with its problem, so the page can say so. */
export function resolveInputs(inputs: readonly string[]): ResolvedInput[] {
  return inputs.map(resolveInput);
}

function resolveInput(input: string): ResolvedInput {
  const absolute = resolve(input);
  const base: ResolvedInput = {
    input,
    kind: "missing",
    path: null,
    runDir: null,
    label: basename(absolute),
    revealVerdict: false,
    reportPath: null,
    problem: null,
  };
  if (!existsSync(absolute)) return { ...base, problem: `${input}: no such file or directory` };
  if (statSync(absolute).isDirectory()) {
    const file = join(absolute, TRAJECTORIES_FILE);
    if (!existsSync(file))
      return {
        ...base,
        problem: `${input}: no ${TRAJECTORIES_FILE} in this directory (expected an eval run, a 'rollout serve --record' directory, or a file)`,
      };
    return { ...base, ...runFacts(absolute), kind: "run", path: file };
  }
  const name = basename(absolute);
  const inRun =
    name === TRAJECTORIES_FILE ? { ...runFacts(dirname(absolute)), label: basename(dirname(absolute)) } : {};
  if (name.endsWith(".parquet")) return { ...base, kind: "parquet", path: absolute };
  if (name.endsWith(".json")) return { ...base, kind: "validation", path: absolute };
  return { ...base, ...inRun, kind: "jsonl", path: absolute };
}

/** What a run directory says about its episodes: whether verdicts were revealed, where its report is. */
function runFacts(dir: string): Pick<ResolvedInput, "runDir" | "revealVerdict" | "reportPath"> {
  let revealVerdict = false;
  try {
    const config = JSON.parse(readFileSync(join(dir, "run-config.json"), "utf8")) as {
      revealVerdict?: unknown;
    };
    revealVerdict = config.revealVerdict === true;
  } catch {
    // No run-config.json (a rollout record, an older run): verdict messages stay hidden.
  }
  const report = join(dir, "report.html");
  return { runDir: dir, revealVerdict, reportPath: existsSync(report) ? report : null };
}
