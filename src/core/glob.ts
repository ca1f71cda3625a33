/** Matches `*` (any run of characters) and `?` (one character); a comma separates alternatives. */
export function globToRegExp(pattern: string): RegExp {
  const alternatives = pattern.split(",").map((part) =>
    part
      .trim()
      .replace(/[.+^${}()|[\]\\]/g, "\\$&")
      .replace(/\*/g, ".*")
      .replace(/\?/g, "."),
  );
  return new RegExp(`^(?:${alternatives.join("|")})$`);
}
