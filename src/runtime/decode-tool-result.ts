import type { ToolCallResult } from "./tool-types.js";

export type DecodedToolResult = { ok: true; value: unknown } | { ok: false; error: string };

// Servers that forget MCP's isError flag still say so in words; these are the shapes seen in practice.
const ERROR_TEXT_PATTERN =
  /^\s*(?:error|exception|traceback \(most recent call last\)|failed|mcp error -?\d+)\b\s*[:(-]?/i;

/** Text of every text item, joined. */
export function resultText(result: ToolCallResult): string {
  return result.content
    .filter((item) => item.type === "text" && typeof item.text === "string")
    .map((item) => item.text as string)
    .join("\n");
}

/** True when an upstream result is an error although `isError` is missing. */
export function looksLikeUnflaggedError(result: ToolCallResult): boolean {
  if (result.isError || result.structuredContent) return false;
  const text = resultText(result);
  if (ERROR_TEXT_PATTERN.test(text)) return true;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
      const keys = Object.keys(parsed);
      return (
        keys.length > 0 &&
        keys.length <= 3 &&
        keys.includes("error") &&
        keys.every((key) => ["error", "message", "code", "status"].includes(key))
      );
    }
  } catch {
    // not JSON
  }
  return false;
}

/**
 * The one deterministic decoding rule: an error result (flagged, or recognisably unflagged) fails with its
 * text; otherwise structured content; otherwise all-text content parsed as JSON; otherwise the text.
 * Non-text content (images, resources) comes back as the list of content items.
 */
export function decodeToolResult(result: ToolCallResult): DecodedToolResult {
  if (result.isError || looksLikeUnflaggedError(result)) {
    return { ok: false, error: resultText(result) || "the tool reported an error without a message" };
  }
  if (result.structuredContent !== undefined && result.structuredContent !== null) {
    return { ok: true, value: result.structuredContent };
  }
  const allText = result.content.every((item) => item.type === "text");
  if (!allText) return { ok: true, value: result.content };
  const text = resultText(result);
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: true, value: text };
  }
}
