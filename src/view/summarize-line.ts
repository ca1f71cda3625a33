import { domainOf, type EpisodeSummary } from "./episode-summary.js";

/** Where a line sits in its file. */
export interface LinePlace {
  source: number;
  line: number;
  offset: number;
}

/** A line read: its summary (with a warning when it was read on a best-effort basis), or why it was skipped. */
export type LineReading = { summary: EpisodeSummary; warning?: string } | { skipped: string };

/** The trajectory schema versions this viewer knows; a line of another version is shown as far as it fits. */
export const KNOWN_TRAJECTORY_VERSIONS: readonly number[] = [1, 2];

const MESSAGES_KEY = Buffer.from(',"messages":[');
const TOOLS_NAME = Buffer.from('"tools"');
const TURNS_NAME = Buffer.from('"turns"');
const TURNS_KEY = Buffer.from(',"turns":[');
const TOOL_CALLS_KEY = Buffer.from(',"toolCalls":[');
const CODE_BLOCKS_KEY = Buffer.from(',"codeBlocks":[');
const RUNTIME_ERRORS_KEY = Buffer.from(',"runtimeErrors":');
const CODE_BLOCK_MARK = Buffer.from('"toolCallCount":');

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Summarises one line of a JSONL file for the list. A trajectory line as progagent writes it (keys in the
 * schema's order) is read without parsing its messages: the scalars before `messages`, the element counts of
 * `turns` and `toolCalls` (a byte scan), a count of code blocks and the scalars after them. JSON strings never
 * hold an unescaped quote, so model text cannot make a `,"key":` appear; the only nested objects a model
 * shapes are tool arguments, inside `toolCalls`, and the counts there must close exactly at the next key, or
 * the line is parsed whole (as is a line with another key order). Anything else (SFT rows) is parsed whole.
 */
export function summarizeLine(bytes: Buffer, place: LinePlace): LineReading {
  if (bytes.length === 0) return { skipped: "an empty line" };
  if (bytes[0] !== 0x7b || bytes[bytes.length - 1] !== 0x7d)
    return { skipped: "not a JSON object (a line cut short, or another format)" };
  const fast = summarizeTrajectoryFast(bytes, place);
  if (fast) return fast;
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    return { skipped: `not JSON (${(error as Error).message.slice(0, 120)})` };
  }
  if (!isObject(value)) return { skipped: "not a JSON object" };
  const searchRange = { searchStart: 0, searchEnd: bytes.length };
  if ("episodeId" in value || "schemaVersion" in value)
    return summarizeTrajectoryObject(value, { ...place, lengthBytes: bytes.length, ...searchRange });
  if (Array.isArray(value.messages))
    return summarizeSftRow(value, { ...place, lengthBytes: bytes.length, ...searchRange });
  return { skipped: `another schema (keys: ${Object.keys(value).slice(0, 6).join(", ")})` };
}

interface FullPlace extends LinePlace {
  lengthBytes: number;
  searchStart: number;
  searchEnd: number;
}

function summarizeTrajectoryFast(bytes: Buffer, place: LinePlace): LineReading | undefined {
  // Forward searches only (Buffer#lastIndexOf scans from the start): the keys after `messages` are found in
  // order, each from the one before; the tail's key in a window at the end.
  const messagesAt = bytes.indexOf(MESSAGES_KEY);
  if (messagesAt < 0) return undefined;
  // The messages are most of a line: they are crossed once, by the search for `tools` (v2) or `turns` (v1).
  const toolsAt = findArrayKey(bytes, TOOLS_NAME, messagesAt);
  const turnsAt = findArrayKey(bytes, TURNS_NAME, toolsAt < 0 ? messagesAt : toolsAt);
  const toolCallsAt = turnsAt < 0 ? -1 : bytes.indexOf(TOOL_CALLS_KEY, turnsAt);
  const codeBlocksAt = toolCallsAt < 0 ? -1 : bytes.indexOf(CODE_BLOCKS_KEY, toolCallsAt);
  const runtimeErrorsAt = codeBlocksAt < 0 ? -1 : lastKeyAfter(bytes, RUNTIME_ERRORS_KEY, codeBlocksAt);
  if (runtimeErrorsAt < 0) return undefined;
  let head: unknown, tail: unknown;
  try {
    head = JSON.parse(`${bytes.toString("utf8", 0, messagesAt)}}`);
    tail = JSON.parse(`{${bytes.toString("utf8", runtimeErrorsAt + 1)}`);
  } catch {
    return undefined;
  }
  const turns = countArrayElements(bytes, turnsAt + TURNS_KEY.length - 1, toolCallsAt);
  const toolCalls = countArrayElements(bytes, toolCallsAt + TOOL_CALLS_KEY.length - 1, codeBlocksAt);
  if (!isObject(head) || !isObject(tail) || turns === null || toolCalls === null) return undefined;
  let codeBlocks = 0;
  for (
    let at = bytes.indexOf(CODE_BLOCK_MARK, codeBlocksAt);
    at >= 0 && at < runtimeErrorsAt;
    at = bytes.indexOf(CODE_BLOCK_MARK, at + CODE_BLOCK_MARK.length)
  )
    codeBlocks += 1;
  const reading = summarizeTrajectoryObject(
    { ...head, ...tail, turns, toolCalls, codeBlocks },
    {
      ...place,
      lengthBytes: bytes.length,
      searchStart: messagesAt + MESSAGES_KEY.length - 1,
      searchEnd: toolsAt > messagesAt && toolsAt < turnsAt ? toolsAt : turnsAt,
    },
  );
  // A line the fast reading cannot make sense of is read whole: the slow path decides what it is.
  return "skipped" in reading ? undefined : reading;
}

/**
 * The next `,"name":[` from `from` (the comma's index), or -1. Searched as `"name"` and checked around:
 * Buffer#indexOf crosses JSON text several times faster with a needle that starts and ends with a quote.
 */
function findArrayKey(bytes: Buffer, quotedName: Buffer, from: number): number {
  for (let at = bytes.indexOf(quotedName, from); at >= 0; at = bytes.indexOf(quotedName, at + 1)) {
    const after = at + quotedName.length;
    if (bytes[at - 1] === 0x2c && bytes[after] === 0x3a && bytes[after + 1] === 0x5b) return at - 1;
  }
  return -1;
}

/** The last occurrence of `key` after `from`, searched forward in windows that grow from the end. */
function lastKeyAfter(bytes: Buffer, key: Buffer, from: number): number {
  for (let window = 16_384; ; window *= 4) {
    const start = Math.max(from, bytes.length - window);
    let found = -1;
    for (let at = bytes.indexOf(key, start); at >= 0; at = bytes.indexOf(key, at + key.length)) found = at;
    if (found >= 0 || start === from) return found;
  }
}

/**
 * The number of elements of the JSON array that spans exactly bytes[start, end), or null when the bytes are
 * not one balanced array. A byte loop that skips strings: faster than parsing what it only counts.
 */
export function countArrayElements(bytes: Buffer, start: number, end: number): number | null {
  if (bytes[start] !== 0x5b || bytes[end - 1] !== 0x5d) return null;
  let depth = 0;
  let elements = 0;
  let empty = true;
  let inString = false;
  for (let at = start; at < end; at += 1) {
    const byte = bytes[at]!;
    if (inString) {
      if (byte === 0x5c) at += 1;
      else if (byte === 0x22) inString = false;
      continue;
    }
    if (byte === 0x22) inString = true;
    else if (byte === 0x5b || byte === 0x7b) depth += 1;
    else if (byte === 0x5d || byte === 0x7d) {
      depth -= 1;
      if (depth === 0 && at !== end - 1) return null;
    } else if (byte === 0x2c && depth === 1) elements += 1;
    if (depth === 1 && empty && byte !== 0x5b && byte > 0x20) empty = false;
  }
  if (depth !== 0 || inString) return null;
  return empty ? 0 : elements + 1;
}

const text = (value: unknown, fallback = ""): string => (typeof value === "string" ? value : fallback);
const count = (value: unknown): number | null =>
  typeof value === "number" && Number.isFinite(value) ? value : null;
const lengthOf = (value: unknown): number | null =>
  Array.isArray(value) ? value.length : typeof value === "number" ? value : null;

/**
 * The summary of a parsed trajectory (or a rollout record, a trajectory with a `rollout` field). `codeBlocks`
 * may be the array or, from the fast path, its length.
 */
export function summarizeTrajectoryObject(value: JsonObject, place: FullPlace): LineReading {
  const task = text(value.task);
  const version = count(value.schemaVersion);
  const turns = lengthOf(value.turns);
  const toolCalls = lengthOf(value.toolCalls);
  const codeBlocks = lengthOf(value.codeBlocks);
  if (task === "" || turns === null || toolCalls === null || codeBlocks === null)
    return {
      skipped: `another schema: ${task === "" ? "no task" : "no turns, toolCalls or codeBlocks"} (not a progagent trajectory)`,
    };
  const rollout = isObject(value.rollout) ? value.rollout : undefined;
  const reward = count(value.reward);
  const summary: EpisodeSummary = {
    ...place,
    kind: rollout ? "rollout" : "trajectory",
    schemaVersion: version,
    runId: text(value.runId),
    episodeId: text(value.episodeId),
    task,
    domain: domainOf(task),
    harness: text(value.harness),
    scale: text(value.scale),
    seed: count(value.seed),
    sample: count(value.sample),
    model: text(value.model),
    reward,
    endReason: text(rollout?.endReason, text(value.endReason)),
    turns,
    toolCalls,
    codeBlocks,
    runtimeErrors: count(value.runtimeErrors) ?? 0,
    toolOutputTokens: count(value.toolOutputTokens),
    contextTokens: count(value.finalContextTokens),
    wallTimeMs: count(value.durationMs),
    step: count(rollout?.step),
  };
  if (version !== null && KNOWN_TRAJECTORY_VERSIONS.includes(version)) return { summary };
  return {
    summary,
    warning:
      version === null
        ? "no schemaVersion: read as far as it fits trajectory version 2"
        : `schemaVersion ${version} is unknown to this viewer (it reads ${KNOWN_TRAJECTORY_VERSIONS.join(" and ")}): read as far as it fits version 2`,
  };
}

interface SftMessage {
  role?: unknown;
  content?: unknown;
  tool_calls?: unknown;
}

/**
 * An SFT export row (verl, ms-swift or OpenAI fine-tuning JSON): a conversation without a verdict. The task,
 * scale and harness come from the verl columns where present.
 */
export function summarizeSftRow(value: JsonObject, place: FullPlace): LineReading {
  const messages = value.messages as SftMessage[];
  let turns = 0;
  let toolCalls = 0;
  for (const message of messages) {
    if (!isObject(message)) return { skipped: "another schema: a message that is not an object" };
    if (message.role === "assistant") {
      turns += 1;
      toolCalls += Array.isArray(message.tool_calls) ? message.tool_calls.length : 0;
    }
    if (message.role === "tool_call") toolCalls += 1;
  }
  const task = text(value.task);
  return {
    summary: {
      ...place,
      kind: "sft",
      schemaVersion: null,
      runId: text(value.run_id),
      episodeId: text(value.episode_id),
      task,
      domain: domainOf(task),
      harness: text(value.harness),
      scale: text(value.scale),
      seed: null,
      sample: null,
      model: "",
      reward: null,
      endReason: "",
      turns,
      toolCalls,
      codeBlocks: 0,
      runtimeErrors: 0,
      toolOutputTokens: null,
      contextTokens: count(value.num_tokens),
      wallTimeMs: null,
      step: null,
    },
  };
}
