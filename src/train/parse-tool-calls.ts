/**
 * Tool calls in raw model output, the way Qwen3-family models emit them: hermes JSON blocks
 * (`<tool_call>\n{"name": ..., "arguments": {...}}\n</tool_call>`) and the Qwen3-coder XML form
 * (`<tool_call>\n<function=NAME>\n<parameter=KEY>\nVALUE\n</parameter>\n</function>\n</tool_call>`).
 * XML is tried first and JSON second, as the authors' trainer does. Nothing here throws: what cannot be
 * parsed comes back as `errors`, which the caller turns into an observation for the model.
 */

export interface ParsedToolCall {
  name: string;
  /** The arguments as the model wrote them: the JSON text of a hermes call, or a JSON text built from XML. */
  argumentsText: string;
  arguments: Record<string, unknown>;
  format: "hermes" | "xml";
}

export interface ParsedCompletion {
  /** Reasoning inside a leading `<think>...</think>` (empty when none). */
  reasoning: string;
  /** Text outside the think block and the tool calls, trimmed. */
  content: string;
  calls: ParsedToolCall[];
  /** One teaching message per block that could not be parsed. */
  errors: string[];
  /** Whether generation ended with an end-of-turn token (`<|im_end|>` or `<|endoftext|>`). */
  endedTurn: boolean;
}

/** JSON-schema types of a tool's parameters, used to convert XML parameter text to values. */
export type ParameterTypes = (toolName: string) => Record<string, string | undefined> | undefined;

export interface ParseLimits {
  /** Calls kept at most; later well-formed blocks are counted in one error instead (default: no limit). */
  maxCalls?: number;
  /** Errors kept at most; later ones are counted in one last error (default 16). */
  maxErrors?: number;
}

const END_TOKENS = ["<|im_end|>", "<|endoftext|>"];
const OPEN = "<tool_call>";
const CLOSE = "</tool_call>";

/**
 * Parses raw model output in one pass. What it returns is bounded by `limits`, not by how many blocks the output
 * holds: a degenerate completion of a million blocks yields at most `maxCalls` calls and `maxErrors` errors.
 */
export function parseToolCalls(
  raw: string,
  parameterTypes?: ParameterTypes,
  limits: ParseLimits = {},
): ParsedCompletion {
  const maxCalls = limits.maxCalls ?? Number.POSITIVE_INFINITY;
  const maxErrors = limits.maxErrors ?? 16;
  let text = raw;
  let endedTurn = false;
  for (const token of END_TOKENS) {
    const at = text.indexOf(token);
    if (at >= 0) {
      text = text.slice(0, at);
      endedTurn = true;
    }
  }
  let reasoning = "";
  const thinkEnd = text.indexOf("</think>");
  if (thinkEnd >= 0) {
    const thinkStart = text.indexOf("<think>");
    reasoning = text.slice(thinkStart >= 0 && thinkStart < thinkEnd ? thinkStart + 7 : 0, thinkEnd).trim();
    text = text.slice(thinkEnd + "</think>".length);
  }
  const calls: ParsedToolCall[] = [];
  const errors: string[] = [];
  const outside: string[] = [];
  let droppedCalls = 0;
  let droppedErrors = 0;
  const addError = (error: string): void => {
    if (errors.length < maxErrors) errors.push(error);
    else droppedErrors += 1;
  };
  let cursor = 0;
  while (cursor < text.length) {
    const open = text.indexOf(OPEN, cursor);
    if (open < 0) {
      outside.push(text.slice(cursor));
      break;
    }
    outside.push(text.slice(cursor, open));
    const close = text.indexOf(CLOSE, open + OPEN.length);
    if (close < 0) {
      addError(
        `a <tool_call> block was not closed with </tool_call> (the output may have hit the token limit); ` +
          `write each call as <tool_call>\n{"name": "...", "arguments": {...}}\n</tool_call>`,
      );
      break;
    }
    const body = text.slice(open + OPEN.length, close).trim();
    const parsed = parseBlock(body, parameterTypes);
    if (typeof parsed === "string") addError(parsed);
    else if (calls.length < maxCalls) calls.push(parsed);
    else droppedCalls += 1;
    cursor = close + CLOSE.length;
  }
  if (droppedErrors > 0) errors.push(`${droppedErrors} more tool calls could not be parsed`);
  if (droppedCalls > 0)
    errors.push(`${droppedCalls} more tool calls were not run: one turn makes at most ${maxCalls}`);
  return { reasoning, content: outside.join("").trim(), calls, errors, endedTurn };
}

function parseBlock(body: string, parameterTypes?: ParameterTypes): ParsedToolCall | string {
  if (body.startsWith("<function=")) return parseXmlBlock(body, parameterTypes);
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    return `a tool call is not valid JSON (${(error as Error).message}); expected {"name": "...", "arguments": {...}}`;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return 'a tool call must be a JSON object {"name": "...", "arguments": {...}}';
  const record = value as Record<string, unknown>;
  if (typeof record.name !== "string" || record.name.length === 0)
    return 'a tool call lacks its "name" (a string)';
  let args: unknown = record.arguments ?? record.parameters ?? {};
  let argumentsText: string;
  if (typeof args === "string") {
    argumentsText = args;
    try {
      args = JSON.parse(args);
    } catch {
      return `the arguments of '${record.name}' are a string that is not a JSON object`;
    }
  } else {
    argumentsText = JSON.stringify(args);
  }
  if (args === null || typeof args !== "object" || Array.isArray(args))
    return `the arguments of '${record.name}' must be a JSON object`;
  return { name: record.name, argumentsText, arguments: args as Record<string, unknown>, format: "hermes" };
}

function parseXmlBlock(body: string, parameterTypes?: ParameterTypes): ParsedToolCall | string {
  const header = /^<function=([^>\n]+)>/.exec(body);
  if (!header?.[1]) return "a <function=...> tool call has no function name";
  const name = header[1].trim();
  const end = body.lastIndexOf("</function>");
  if (end < 0) return `the tool call '${name}' is not closed with </function>`;
  const inner = body.slice(header[0].length, end);
  const types = parameterTypes?.(name) ?? {};
  const args: Record<string, unknown> = {};
  for (const { key, value } of xmlParameters(inner)) {
    let raw = value;
    if (raw.startsWith("\n")) raw = raw.slice(1);
    if (raw.endsWith("\n")) raw = raw.slice(0, -1);
    args[key] = convertParameter(raw, types[key]);
  }
  return { name, argumentsText: JSON.stringify(args), arguments: args, format: "xml" };
}

const PARAMETER_OPEN = "<parameter=";
const PARAMETER_CLOSE = "</parameter>";

/**
 * `<parameter=KEY>VALUE</parameter>` pairs in order, as `/<parameter=([^>\n]+)>([\s\S]*?)<\/parameter>/g` finds
 * them, in one pass: that regex rescans the rest of the text for every unclosed tag (80,000 of them in 1 MB of
 * model output took minutes). Every character is looked at a bounded number of times.
 */
function* xmlParameters(inner: string): Generator<{ key: string; value: string }> {
  let cursor = 0;
  for (;;) {
    const open = inner.indexOf(PARAMETER_OPEN, cursor);
    if (open < 0) return;
    const nameStart = open + PARAMETER_OPEN.length;
    let nameEnd = nameStart;
    while (nameEnd < inner.length && inner[nameEnd] !== ">" && inner[nameEnd] !== "\n") nameEnd += 1;
    if (nameEnd >= inner.length) return;
    if (inner[nameEnd] === "\n" || nameEnd === nameStart) {
      // No tag opening before this line break (or an empty name): neither can one that starts inside the span.
      cursor = Math.max(nameEnd, open + 1);
      continue;
    }
    const close = inner.indexOf(PARAMETER_CLOSE, nameEnd + 1);
    if (close < 0) return; // no closing tag anywhere after: nothing later can match either
    yield { key: inner.slice(nameStart, nameEnd).trim(), value: inner.slice(nameEnd + 1, close) };
    cursor = close + PARAMETER_CLOSE.length;
  }
}

/** Strings stay text; other declared types are read as JSON when they parse, else kept as text. */
function convertParameter(raw: string, type: string | undefined): unknown {
  if (type === undefined || type === "string") return raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    if (type === "boolean" && /^(true|false)$/i.test(raw.trim())) return raw.trim().toLowerCase() === "true";
    return raw;
  }
}
