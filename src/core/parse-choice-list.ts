import { ERROR_CODES, ProgAgentError } from "./errors.js";

/** Parses `a,b,c` (or `all`) against a fixed set of choices; an unknown item is a user error naming the choices. */
export function parseChoiceList<Choice extends string>(
  text: string,
  choices: readonly Choice[],
  what: string,
): Choice[] {
  if (text.trim() === "all") return [...choices];
  const items = text
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
  return items.map((item) => {
    if (!(choices as readonly string[]).includes(item)) {
      throw new ProgAgentError(`unknown ${what} '${item}': expected one of ${choices.join(", ")} or 'all'`, {
        code: ERROR_CODES.INVALID_ARGUMENT,
        category: "user",
      });
    }
    return item as Choice;
  });
}
