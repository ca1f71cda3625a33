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
