/**
 * An episode as the page walks it: the instruction, then one entry per assistant turn with its reasoning,
 * text and tool calls, each call with its result, its code block (PTC) and the environment calls that code
 * made. Built from the trajectory as written, defensively: a field of another type or missing is left out,
 * never trusted (another schema version, a hand-edited file).
 */

type Json = Record<string, unknown>;

export interface CodeBlockView {
  code: string;
  status: string;
  output: string;
  errorType: string | null;
  toolCallCount: number;
  durationMs: number | null;
}

export interface EnvironmentCall {
  name: string;
  args: unknown;
  via: string;
  isError: boolean;
  durationMs: number | null;
}

export interface CallView {
  id: string;
  name: string;
  /** The exact argument string the model produced. */
  argumentsText: string;
  /** The arguments parsed, or undefined when they are not a JSON object. */
  arguments: Json | undefined;
  result: string | null;
  codeBlock: CodeBlockView | undefined;
  /** Environment tools called from this call's code, in order. */
  environmentCalls: EnvironmentCall[];
}

export interface TurnRecordView {
  contextTokens: number | null;
  completionTokens: number | null;
  toolOutputTokens: number | null;
  durationMs: number | null;
  finishReason: string | null;
}

export interface TurnView {
  index: number;
  reasoning: string | null;
  content: string;
  calls: CallView[];
  record: TurnRecordView | undefined;
  /** Tool messages that answer no call of this turn (a parse error, a message without an id). */
  strayResults: string[];
}

export interface CheckView {
  id: string;
  passed: boolean;
  message: string | null;
}

export interface EpisodeModel {
  system: string | null;
  instructions: string[];
  turns: TurnView[];
  checks: CheckView[];
  answer: string | null;
  verifierError: string | null;
  error: string | null;
  tools: Array<{ name: string; description: string }>;
}

const asText = (value: unknown): string | null => (typeof value === "string" ? value : null);
const asNumber = (value: unknown): number | null =>
  typeof value === "number" && Number.isFinite(value) ? value : null;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

function parseArguments(text: string): Json | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function reasoningOf(message: Json): string | null {
  const text = asText(message.reasoning_content) ?? asText(message.reasoning);
  if (text) return text;
  const blocks = list(message.thinking_blocks)
    .map((block) =>
      isObject(block)
        ? (asText(block.thinking) ?? (block.type === "redacted_thinking" ? "[redacted thinking]" : null))
        : null,
    )
    .filter((text): text is string => text !== null);
  return blocks.length > 0 ? blocks.join("\n\n") : null;
}

function codeBlockOf(value: unknown): CodeBlockView | undefined {
  if (!isObject(value)) return undefined;
  return {
    code: asText(value.code) ?? "",
    status: asText(value.status) ?? "?",
    output: asText(value.output) ?? "",
    errorType: asText(value.errorType),
    toolCallCount: asNumber(value.toolCallCount) ?? 0,
    durationMs: asNumber(value.durationMs),
  };
}

function environmentCallOf(value: unknown): EnvironmentCall | undefined {
  if (!isObject(value)) return undefined;
  return {
    name: asText(value.name) ?? "?",
    args: value.args,
    via: asText(value.via) ?? "?",
    isError: value.isError === true,
    durationMs: asNumber(value.durationMs),
  };
}

function turnRecordOf(value: unknown): TurnRecordView | undefined {
  if (!isObject(value)) return undefined;
  return {
    contextTokens: asNumber(value.contextTokens),
    completionTokens: asNumber(value.completionTokens),
    toolOutputTokens: asNumber(value.toolOutputTokens),
    durationMs: asNumber(value.durationMs),
    finishReason: asText(value.finishReason),
  };
}

/** Groups a list of entries that carry a `turn` number by it. */
function byTurn<T>(entries: unknown[], convert: (value: unknown) => T | undefined): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const entry of entries) {
    const turn = isObject(entry) ? asNumber(entry.turn) : null;
    const converted = convert(entry);
    if (turn === null || converted === undefined) continue;
    groups.set(turn, [...(groups.get(turn) ?? []), converted]);
  }
  return groups;
}

/** The code-carrying calls are those whose arguments hold a `code` string (programmatic_tool_call). */
function isCodeCall(call: CallView): boolean {
  return typeof call.arguments?.code === "string";
}

export function buildEpisodeModel(trajectory: Json): EpisodeModel {
  const messages = list(trajectory.messages).filter(isObject);
  const codeBlocks = byTurn(list(trajectory.codeBlocks), codeBlockOf);
  const codeCalls = byTurn(
    list(trajectory.toolCalls).filter((entry) => isObject(entry) && entry.via === "code"),
    environmentCallOf,
  );
  const records = new Map<number, TurnRecordView>();
  for (const record of list(trajectory.turns))
    if (isObject(record) && asNumber(record.index) !== null)
      records.set(asNumber(record.index)!, turnRecordOf(record)!);
  let system: string | null = null;
  const instructions: string[] = [];
  const turns: TurnView[] = [];
  for (const message of messages) {
    const role = message.role;
    if (role === "system" && turns.length === 0)
      system = (system ? `${system}\n\n` : "") + (asText(message.content) ?? "");
    else if (role === "user" && turns.length === 0) instructions.push(asText(message.content) ?? "");
    else if (role === "assistant") {
      const index = turns.length;
      turns.push({
        index,
        reasoning: reasoningOf(message),
        content: asText(message.content) ?? "",
        calls: list(message.tool_calls)
          .filter(isObject)
          .map((call, position) => {
            const fn = isObject(call.function) ? call.function : {};
            const argumentsText = asText(fn.arguments) ?? "";
            return {
              id: asText(call.id) ?? `#${position}`,
              name: asText(fn.name) ?? "?",
              argumentsText,
              arguments: parseArguments(argumentsText),
              result: null,
              codeBlock: undefined,
              environmentCalls: [],
            };
          }),
        record: records.get(index),
        strayResults: [],
      });
    } else if (role === "tool" || role === "user") {
      const turn = turns[turns.length - 1];
      if (!turn) continue;
      const content = asText(message.content) ?? "";
      const id = asText(message.tool_call_id);
      const call =
        (id !== null
          ? turn.calls.find((candidate) => candidate.id === id && candidate.result === null)
          : undefined) ??
        (id === null ? turn.calls.find((candidate) => candidate.result === null) : undefined);
      if (call && role === "tool") call.result = content;
      else turn.strayResults.push(content);
    }
  }
  for (const turn of turns)
    attachCode(turn, codeBlocks.get(turn.index) ?? [], codeCalls.get(turn.index) ?? []);
  return {
    system,
    instructions,
    turns,
    checks: list(trajectory.checks)
      .filter(isObject)
      .map((check) => ({
        id: asText(check.id) ?? "?",
        passed: check.passed === true,
        message: asText(check.message),
      })),
    answer: asText(trajectory.answer),
    verifierError: asText(trajectory.verifierError),
    error: asText(trajectory.error),
    tools: list(trajectory.tools)
      .filter(isObject)
      .map((tool) => (isObject(tool.function) ? tool.function : {}))
      .map((fn) => ({ name: asText(fn.name) ?? "?", description: asText(fn.description) ?? "" })),
  };
}

/** Gives each code call of a turn its code block, in order, and each block the environment calls it made. */
function attachCode(turn: TurnView, blocks: CodeBlockView[], environmentCalls: EnvironmentCall[]): void {
  let next = 0;
  let callIndex = 0;
  for (const call of turn.calls) {
    if (!isCodeCall(call)) continue;
    const block = blocks[next];
    if (!block) break;
    next += 1;
    call.codeBlock = block;
    call.environmentCalls = environmentCalls.slice(callIndex, callIndex + block.toolCallCount);
    callIndex += block.toolCallCount;
  }
}

/** Context tokens per turn and the part of them that tool outputs filled (summed up to that turn). */
export function contextSeries(
  turns: readonly TurnView[],
): Array<{ turn: number; context: number; toolOutput: number }> {
  const series: Array<{ turn: number; context: number; toolOutput: number }> = [];
  let toolOutputSoFar = 0;
  for (const turn of turns) {
    const record = turn.record;
    if (!record || record.contextTokens === null) continue;
    series.push({
      turn: turn.index,
      context: record.contextTokens,
      toolOutput: Math.min(toolOutputSoFar, record.contextTokens),
    });
    toolOutputSoFar += record.toolOutputTokens ?? 0;
  }
  return series;
}
