import { ERROR_CODES, ProgAgentError } from "../core/index.js";

/**
 * A JSON value as Python's `json.loads` returns it: integers keep their digits (Python ints are exact),
 * floats stay floats even when integral (`1.0`), objects keep their key order (a `Map`, so keys such as
 * `"10"` are not moved to the front the way JavaScript objects move integer-like keys).
 */
export type PythonJsonValue =
  | null
  | boolean
  | string
  | { readonly int: string }
  | { readonly float: number }
  | PythonJsonValue[]
  | Map<string, PythonJsonValue>;

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;

/** Parses JSON text the way Python's `json.loads` does (including its `NaN` / `Infinity` extensions). */
export function parsePythonJson(text: string): PythonJsonValue {
  let position = 0;
  const fail = (expected: string): never => {
    throw new ProgAgentError(`invalid JSON at offset ${position}: expected ${expected}`, {
      code: ERROR_CODES.FILE_FORMAT_INVALID,
      category: "user",
      details: { offset: position },
    });
  };
  const skip = (): void => {
    WHITESPACE.lastIndex = position;
    WHITESPACE.exec(text);
    position = WHITESPACE.lastIndex;
  };
  const literal = (word: string): boolean => {
    if (text.startsWith(word, position)) {
      position += word.length;
      return true;
    }
    return false;
  };
  const parseString = (): string => {
    const start = position;
    position += 1;
    for (;;) {
      const char = text.charCodeAt(position);
      if (Number.isNaN(char)) fail("a closing quote");
      if (char === 0x22) break;
      if (char < 0x20) fail("no raw control characters in a string");
      position += char === 0x5c ? 2 : 1;
    }
    position += 1;
    try {
      return JSON.parse(text.slice(start, position)) as string;
    } catch {
      position = start;
      return fail("a valid string escape");
    }
  };
  const parseValue = (depth: number): PythonJsonValue => {
    if (depth > 1000) fail("nesting below 1000 levels");
    skip();
    const char = text[position];
    if (char === '"') return parseString();
    if (char === "{") {
      position += 1;
      const map = new Map<string, PythonJsonValue>();
      skip();
      if (text[position] === "}") {
        position += 1;
        return map;
      }
      for (;;) {
        skip();
        if (text[position] !== '"') fail("a string key");
        const key = parseString();
        skip();
        if (text[position] !== ":") fail("':'");
        position += 1;
        map.set(key, parseValue(depth + 1));
        skip();
        if (text[position] === ",") {
          position += 1;
          continue;
        }
        if (text[position] === "}") {
          position += 1;
          return map;
        }
        fail("',' or '}'");
      }
    }
    if (char === "[") {
      position += 1;
      const list: PythonJsonValue[] = [];
      skip();
      if (text[position] === "]") {
        position += 1;
        return list;
      }
      for (;;) {
        list.push(parseValue(depth + 1));
        skip();
        if (text[position] === ",") {
          position += 1;
          continue;
        }
        if (text[position] === "]") {
          position += 1;
          return list;
        }
        fail("',' or ']'");
      }
    }
    if (literal("null")) return null;
    if (literal("true")) return true;
    if (literal("false")) return false;
    if (literal("NaN")) return { float: Number.NaN };
    if (literal("Infinity")) return { float: Number.POSITIVE_INFINITY };
    if (literal("-Infinity")) return { float: Number.NEGATIVE_INFINITY };
    NUMBER.lastIndex = position;
    const match = NUMBER.exec(text);
    if (!match) return fail("a JSON value");
    position = NUMBER.lastIndex;
    if (match[1] === undefined && match[2] === undefined) {
      // Python ints are exact; "-0" is the int 0.
      return { int: /^-0+$/.test(match[0]) ? "0" : match[0] };
    }
    return { float: Number(match[0]) };
  };
  const value = parseValue(0);
  skip();
  if (position !== text.length) fail("the end of the text");
  return value;
}

/** Python's `float.__repr__`: the shortest round-trip digits, fixed notation for 1e-4 <= |x| < 1e16. */
export function pythonFloatRepr(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Number.POSITIVE_INFINITY) return "Infinity";
  if (value === Number.NEGATIVE_INFINITY) return "-Infinity";
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  const sign = value < 0 ? "-" : "";
  const [mantissa, exponentText] = Math.abs(value).toExponential().split("e") as [string, string];
  const digits = mantissa.replace(".", "");
  const exponent = Number(exponentText);
  // Python switches to exponent notation when the decimal point would sit more than 16 digits right of the
  // first digit or 4 or more zeros left of it (repr(1e16) == '1e+16', repr(1e-5) == '1e-05').
  const decimalPoint = exponent + 1;
  if (decimalPoint > 16 || decimalPoint < -3) {
    const fraction = digits.length > 1 ? `.${digits.slice(1)}` : "";
    const magnitude = String(Math.abs(exponent)).padStart(2, "0");
    return `${sign}${digits[0]}${fraction}e${exponent < 0 ? "-" : "+"}${magnitude}`;
  }
  if (decimalPoint <= 0) return `${sign}0.${"0".repeat(-decimalPoint)}${digits}`;
  if (decimalPoint >= digits.length) return `${sign}${digits}${"0".repeat(decimalPoint - digits.length)}.0`;
  return `${sign}${digits.slice(0, decimalPoint)}.${digits.slice(decimalPoint)}`;
}

/**
 * Python's `json.dumps(value, ensure_ascii=False)` with the default separators (`", "` and `": "`), which is
 * what Hugging Face's `tojson` filter (and ms-swift's agent templates) produce.
 */
export function pythonJsonDumps(value: PythonJsonValue): string {
  if (value === null) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(", ")}]`;
  if (value instanceof Map) {
    const entries: string[] = [];
    for (const [key, item] of value) entries.push(`${JSON.stringify(key)}: ${pythonJsonDumps(item)}`);
    return `{${entries.join(", ")}}`;
  }
  if ("int" in value) return value.int;
  return pythonFloatRepr(value.float);
}

/** `json.dumps(json.loads(text), ensure_ascii=False)`, or undefined when Python could not parse the text. */
export function canonicalPythonJson(text: string): string | undefined {
  try {
    return pythonJsonDumps(parsePythonJson(text));
  } catch {
    return undefined;
  }
}

/** Converts a plain JavaScript value (from JSON.parse or code) to the Python form; integral numbers become ints. */
export function toPythonJsonValue(value: unknown): PythonJsonValue {
  if (value === null || value === undefined) return null;
  if (typeof value === "boolean" || typeof value === "string") return value;
  if (typeof value === "number")
    return Number.isInteger(value) && Math.abs(value) < 2 ** 53 ? { int: String(value) } : { float: value };
  if (Array.isArray(value)) return value.map(toPythonJsonValue);
  if (typeof value === "object") {
    const map = new Map<string, PythonJsonValue>();
    for (const [key, item] of Object.entries(value as Record<string, unknown>))
      map.set(key, toPythonJsonValue(item));
    return map;
  }
  return String(value);
}
