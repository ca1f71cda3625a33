/** JSON.stringify that never throws: bigint becomes a string, cycles become "[Circular]". */
export function safeStringify(value: unknown, indent?: number): string {
  const seen = new WeakSet<object>();
  return (
    JSON.stringify(
      value,
      (_key, inner: unknown) => {
        if (typeof inner === "bigint") return inner.toString();
        if (inner instanceof Error) return { name: inner.name, message: inner.message };
        if (typeof inner === "object" && inner !== null) {
          if (seen.has(inner)) return "[Circular]";
          seen.add(inner);
        }
        return inner;
      },
      indent,
    ) ?? "null"
  );
}

/** Parses JSON, returning undefined instead of throwing. */
export function tryParseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** Nesting a JSON text may have before `parseJsonBounded` refuses it (legitimate requests nest a few levels). */
export const DEFAULT_MAX_JSON_DEPTH = 256;

/**
 * Parses JSON whose nesting is at most `maxDepth`, checked in one pass before parsing: a value nested millions
 * deep parses, but every recursive walk of it afterwards (JSON.stringify, a schema check) overflows the stack.
 */
export function parseJsonBounded(
  text: string,
  maxDepth: number = DEFAULT_MAX_JSON_DEPTH,
): { ok: true; value: unknown } | { ok: false; message: string } {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c)
        index += 1; // a backslash escapes the next character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      depth += 1;
      if (depth > maxDepth)
        return { ok: false, message: `JSON nested deeper than ${maxDepth} levels (at character ${index})` };
    } else if (code === 0x7d || code === 0x5d) depth -= 1;
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}
