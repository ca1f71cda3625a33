/**
 * Records what every validation episode of the suite shows the model and how it is judged, so that two code
 * versions (e.g. before and after a refactor of the domains) can be compared byte for byte.
 *
 *   npx tsx bench/suite-transcripts.ts record --out before.jsonl [--task <glob>] [--scales all] [--seeds 0,7]
 *   npx tsx bench/suite-transcripts.ts compare before.jsonl after.jsonl
 *
 * One JSON line per task x scale x seed: the verdicts (null, oracle, replay, every near-miss) and, for every
 * episode, each tool call's arguments, error flag and result text, each cell's output text and the checks.
 * `compare` prints the first difference of every instance that differs and exits non-zero when any does. The
 * sandbox runs Python isolated (`-I`), so string hashing is randomised and a printed set of strings comes out in
 * another order from run to run of the same code: an instance whose only differences are the order of such sets
 * in cell output is counted apart ("differ only in the printed order of Python sets") and does not fail.
 */
import { closeSync, createReadStream, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import {
  parseScaleList,
  taskToolDefinitions,
  validateTaskInstance,
  type Scale,
  type TaskDefinition,
  type ValidationEpisode,
} from "../src/envs/index.js";
import { createKernelPool, type KernelPool } from "../src/kernel/index.js";
import { renderPythonDoc, toolInputJsonSchema } from "../src/runtime/index.js";
import { loadSuite } from "../src/suite/index.js";

interface InstanceTranscript {
  key: string;
  /** What the model is told: the instruction and every tool's description, JSON Schema and Python signature. */
  task: { instruction: string; tools: unknown[] };
  verdicts: { null: number; oracle: number; replay: number; nearMisses: Record<string, number> };
  problems: string[];
  episodes: Array<{
    phase: string;
    calls: Array<{ name: string; args: unknown; isError: boolean; text: string }>;
    cells: Array<{ status: string; text: string }>;
    verdict: unknown;
  }>;
}

function transcriptOf(episode: ValidationEpisode): InstanceTranscript["episodes"][number] {
  return {
    phase: episode.phase,
    calls: episode.calls.map((call) => ({
      name: call.name,
      args: call.args,
      isError: call.isError,
      text: call.result.content.map((part) => (part.type === "text" ? part.text : `[${part.type}]`)).join(""),
    })),
    cells: episode.cells.map((cell) => ({ status: cell.status, text: cell.text })),
    verdict: episode.verdict,
  };
}

function taskFace(task: TaskDefinition): InstanceTranscript["task"] {
  return {
    instruction: task.instruction,
    tools: taskToolDefinitions(task).map((tool) => {
      const spec = {
        name: tool.name,
        description: tool.description,
        inputSchema: toolInputJsonSchema(tool.inputSchema),
        kind: tool.kind,
      };
      return { ...spec, python: renderPythonDoc(spec) };
    }),
  };
}

async function record(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      out: { type: "string" },
      task: { type: "string", default: "*" },
      scales: { type: "string", default: "all" },
      seeds: { type: "string", default: "0,7" },
    },
  });
  if (!values.out) throw new Error("record needs --out <file.jsonl>");
  const tasks = await loadSuite(values.task);
  const scales = parseScaleList(values.scales);
  const seeds = values.seeds.split(",").map((seed) => Number(seed.trim()));
  await using pool = createKernelPool({ size: 2 });
  // One line at a time into a temporary file, renamed into place at the end: the whole suite's transcripts
  // are larger than the longest string V8 can build, and an interrupted run leaves no partial file behind.
  const partial = `${values.out}.partial-${process.pid}`;
  const file = openSync(partial, "w");
  let instances = 0;
  const startedAt = Date.now();
  try {
    await recordInto(file, tasks, scales, seeds, pool, () => (instances += 1));
    closeSync(file);
    renameSync(partial, values.out);
  } catch (error) {
    closeSync(file);
    rmSync(partial, { force: true });
    throw error;
  }
  process.stderr.write(
    `${instances} instances in ${Math.round((Date.now() - startedAt) / 1000)} s -> ${values.out}\n`,
  );
}

async function recordInto(
  file: number,
  tasks: readonly TaskDefinition[],
  scales: readonly Scale[],
  seeds: readonly number[],
  pool: KernelPool,
  counted: () => void,
): Promise<void> {
  for (const task of tasks) {
    for (const scale of scales) {
      for (const seed of seeds) {
        const episodes: InstanceTranscript["episodes"] = [];
        const row = await validateTaskInstance(task, scale, seed, {
          pool,
          onEpisode: (episode) => episodes.push(transcriptOf(episode)),
        });
        const transcript: InstanceTranscript = {
          key: `${task.id} ${scale} ${seed}`,
          task: taskFace(task),
          verdicts: {
            null: row.nullReward,
            oracle: row.oracleReward,
            replay: row.dtcReplayReward,
            nearMisses: row.nearMissRewards,
          },
          problems: row.problems,
          episodes,
        };
        writeSync(file, `${JSON.stringify(transcript)}\n`);
        counted();
        const callCount = episodes.reduce((total, episode) => total + episode.calls.length, 0);
        process.stderr.write(
          `${row.ok ? "ok  " : "FAIL"} ${transcript.key} (${callCount} calls, ${row.durationMs} ms)\n`,
        );
      }
    }
  }
}

/** The transcripts of a file, read line by line (the file can be larger than one string may be). */
async function readTranscripts(path: string): Promise<Map<string, InstanceTranscript>> {
  const map = new Map<string, InstanceTranscript>();
  const lines = createInterface({ input: createReadStream(path, "utf8"), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === "") continue;
    const transcript = JSON.parse(line) as InstanceTranscript;
    map.set(transcript.key, transcript);
  }
  return map;
}

/** The first place two transcripts of one instance differ, or null when they are the same to the byte. */
function firstDifference(before: InstanceTranscript, after: InstanceTranscript): string | null {
  if (JSON.stringify(before.task) !== JSON.stringify(after.task)) {
    const index = before.task.tools.findIndex(
      (tool, position) => JSON.stringify(tool) !== JSON.stringify(after.task.tools[position]),
    );
    return index < 0
      ? "instruction or tool count differs"
      : `tool ${index + 1}:\n  before ${JSON.stringify(before.task.tools[index])}\n  after  ${JSON.stringify(after.task.tools[index])}`;
  }
  if (JSON.stringify(before.verdicts) !== JSON.stringify(after.verdicts))
    return `verdicts ${JSON.stringify(before.verdicts)} -> ${JSON.stringify(after.verdicts)}`;
  if (before.episodes.length !== after.episodes.length)
    return `${before.episodes.length} episodes -> ${after.episodes.length}`;
  for (const [index, old] of before.episodes.entries()) {
    const next = after.episodes[index]!;
    if (old.phase !== next.phase) return `episode ${index}: phase ${old.phase} -> ${next.phase}`;
    if (old.calls.length !== next.calls.length)
      return `${old.phase}: ${old.calls.length} calls -> ${next.calls.length}`;
    for (const [callIndex, call] of old.calls.entries()) {
      const other = next.calls[callIndex]!;
      if (JSON.stringify(call) !== JSON.stringify(other))
        return `${old.phase} call ${callIndex + 1} ${call.name}(${JSON.stringify(call.args)}):\n  before ${JSON.stringify(call).slice(0, 600)}\n  after  ${JSON.stringify(other).slice(0, 600)}`;
    }
    for (const [cellIndex, cell] of old.cells.entries()) {
      const other = next.cells[cellIndex];
      if (JSON.stringify(cell) !== JSON.stringify(other))
        return `${old.phase} cell ${cellIndex + 1}:\n  before ${JSON.stringify(cell).slice(0, 600)}\n  after  ${JSON.stringify(other).slice(0, 600)}`;
    }
    if (old.cells.length !== next.cells.length)
      return `${old.phase}: ${old.cells.length} cells -> ${next.cells.length}`;
    if (JSON.stringify(old.verdict) !== JSON.stringify(next.verdict))
      return `${old.phase} verdict ${JSON.stringify(old.verdict)} -> ${JSON.stringify(next.verdict)}`;
  }
  return null;
}

const QUOTED = String.raw`'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"`;
const PRINTED_SET = new RegExp(String.raw`\{(?:${QUOTED})(?:, (?:${QUOTED}))*\}`, "g");

/** Cell text with every printed set of strings (`{'b', 'a'}`) in sorted order. */
function sortPrintedSets(text: string): string {
  return text.replace(
    PRINTED_SET,
    (set) => `{${(set.slice(1, -1).match(new RegExp(QUOTED, "g")) ?? []).sort().join(", ")}}`,
  );
}

/** The transcript with every cell's printed sets of strings sorted. */
function withSortedSets(transcript: InstanceTranscript): InstanceTranscript {
  const episodes = transcript.episodes.map((episode) => ({
    ...episode,
    cells: episode.cells.map((cell) => ({ ...cell, text: sortPrintedSets(cell.text) })),
  }));
  return { ...transcript, episodes };
}

async function compare(argv: string[]): Promise<void> {
  const [beforePath, afterPath] = argv;
  if (!beforePath || !afterPath) throw new Error("compare needs two transcript files");
  const before = await readTranscripts(beforePath);
  const after = await readTranscripts(afterPath);
  let differing = 0;
  let setOrderOnly = 0;
  let calls = 0;
  for (const [key, old] of before) {
    const next = after.get(key);
    if (!next) {
      differing += 1;
      process.stdout.write(`${key}: missing from ${afterPath}\n`);
      continue;
    }
    calls += old.episodes.reduce((total, episode) => total + episode.calls.length, 0);
    const difference = firstDifference(old, next);
    if (difference && firstDifference(withSortedSets(old), withSortedSets(next)) === null) setOrderOnly += 1;
    else if (difference) {
      differing += 1;
      process.stdout.write(`${key}: ${difference}\n`);
    }
  }
  for (const key of after.keys())
    if (!before.has(key)) {
      differing += 1;
      process.stdout.write(`${key}: only in ${afterPath}\n`);
    }
  const verdict = differing === 0 ? "identical" : `${differing} differ`;
  const sets = setOrderOnly === 0 ? "" : ` (${setOrderOnly} differ only in the printed order of Python sets)`;
  process.stdout.write(`${before.size} instances, ${calls} tool calls compared: ${verdict}${sets}\n`);
  if (differing > 0) process.exitCode = 1;
}

const [command, ...rest] = process.argv.slice(2);
if (command === "record") await record(rest);
else if (command === "compare") await compare(rest);
else {
  process.stderr.write(
    "usage: suite-transcripts.ts record --out <file> [--task <glob>] [--scales <list>] [--seeds 0,7]\n",
  );
  process.stderr.write("       suite-transcripts.ts compare <before.jsonl> <after.jsonl>\n");
  process.exitCode = 2;
}
