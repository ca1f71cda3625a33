/**
 * A Python tokenizer for highlighting: comments, strings (prefixed, triple-quoted), numbers, keywords,
 * builtins, called names, decorators. One pass, no backtracking; text it does not know stays plain. The page
 * renders each token as a text node in a span, so code is never markup.
 */
export type PythonTokenKind =
  "comment" | "string" | "number" | "keyword" | "builtin" | "call" | "decorator" | "plain";

export interface PythonToken {
  kind: PythonTokenKind;
  text: string;
}

const KEYWORDS = new Set(
  (
    "False None True and as assert async await break class continue def del elif else except finally for " +
    "from global if import in is lambda nonlocal not or pass raise return try while with yield match case"
  ).split(" "),
);
const BUILTINS = new Set(
  (
    "print len range enumerate zip sorted sum min max abs round int float str bool list dict set tuple " +
    "isinstance type any all map filter repr open json tools Exception KeyError ValueError TypeError"
  ).split(" "),
);

// Sticky patterns (`y`): each matches at `lastIndex` only, so no token costs a copy of the rest of the code.
const STRING_START = /(?:[rRbBuUfF]{0,2})("""|'''|"|')/y;
const NUMBER = /(?:0[xX][\da-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|(?:\d[\d_]*)?\.?\d[\d_]*(?:[eE][+-]?\d+)?j?)/y;
const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const OPEN_CALL = /\s*\(/y;

function matchAt(pattern: RegExp, code: string, at: number): RegExpExecArray | null {
  pattern.lastIndex = at;
  return pattern.exec(code);
}

/** The end of a string starting at `start` whose quote (after any prefix) is `quote`. */
function stringEnd(code: string, start: number, quote: string): number {
  let at = start;
  const triple = quote.length === 3;
  while (at < code.length) {
    const character = code[at]!;
    if (character === "\\") {
      at += 2;
      continue;
    }
    if (!triple && character === "\n") return at;
    if (code.startsWith(quote, at)) return at + quote.length;
    at += 1;
  }
  return code.length;
}

export function tokenizePython(code: string): PythonToken[] {
  const tokens: PythonToken[] = [];
  let plain = "";
  const push = (kind: PythonTokenKind, text: string): void => {
    if (kind === "plain") {
      plain += text;
      return;
    }
    if (plain) tokens.push({ kind: "plain", text: plain });
    plain = "";
    tokens.push({ kind, text });
  };
  let at = 0;
  while (at < code.length) {
    const character = code[at]!;
    if (character === "#") {
      const end = code.indexOf("\n", at);
      const stop = end < 0 ? code.length : end;
      push("comment", code.slice(at, stop));
      at = stop;
      continue;
    }
    const string = matchAt(STRING_START, code, at);
    if (string && (string[0].length === string[1]!.length || /[A-Za-z]/.test(character))) {
      const end = stringEnd(code, at + string[0].length, string[1]!);
      push("string", code.slice(at, end));
      at = end;
      continue;
    }
    if (character === "@" && (at === 0 || code[at - 1] === "\n")) {
      const name = matchAt(NAME, code, at + 1);
      push("decorator", `@${name?.[0] ?? ""}`);
      at += 1 + (name?.[0].length ?? 0);
      continue;
    }
    const name = matchAt(NAME, code, at);
    if (name) {
      const word = name[0];
      const next = matchAt(OPEN_CALL, code, at + word.length);
      push(KEYWORDS.has(word) ? "keyword" : BUILTINS.has(word) ? "builtin" : next ? "call" : "plain", word);
      at += word.length;
      continue;
    }
    const number =
      /\d/.test(character) || (character === "." && /\d/.test(code[at + 1] ?? ""))
        ? matchAt(NUMBER, code, at)
        : null;
    if (number && number[0].length > 0) {
      push("number", number[0]);
      at += number[0].length;
      continue;
    }
    push("plain", character);
    at += 1;
  }
  if (plain) tokens.push({ kind: "plain", text: plain });
  return tokens;
}
