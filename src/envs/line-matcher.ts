import { MAX_SEARCH_LINE_CHARS } from "./workspace-path.js";

/** A line that contains the query. */
export interface SearchMatch {
  path: string;
  line: number;
  text: string;
}

const MATCH_TEXT_CHARS = 500;

/** Finds matching lines in a stream of text; matching is per line, case-insensitive, like `includes`. */
export class LineMatcher {
  #line = 1;
  #carry = "";
  /** The first characters of a long line already searched in pieces, and whether it was reported. */
  #longLine: { prefix: string; reported: boolean } | undefined;

  constructor(
    private readonly needle: string,
    private readonly path: string,
    private readonly matches: SearchMatch[],
    private readonly maxMatches: number,
  ) {}

  get full(): boolean {
    return this.matches.length >= this.maxMatches;
  }

  push(text: string): void {
    let start = 0;
    const first = text.indexOf("\n");
    if (first === -1) {
      this.#append(text);
      return;
    }
    this.#endLine(this.#carry + text.slice(0, first));
    this.#carry = "";
    start = first + 1;
    const last = text.lastIndexOf("\n");
    if (last > first) {
      const middle = text.slice(start, last);
      // Whole lines without the query (most of a big file) are only counted, not split.
      if (middle.toLowerCase().includes(this.needle)) {
        for (const line of middle.split("\n")) {
          if (this.full) return;
          this.#endLine(line);
        }
      } else {
        this.#line += countNewlines(middle) + 1;
      }
      start = last + 1;
    }
    this.#append(text.slice(start));
  }

  end(): void {
    if (this.#carry !== "" || this.#longLine) this.#endLine(this.#carry);
    this.#carry = "";
  }

  #append(text: string): void {
    this.#carry += text;
    if (this.#carry.length > MAX_SEARCH_LINE_CHARS) {
      // A very long line: search what we have and keep only its beginning for the report.
      this.#longLine ??= { prefix: this.#carry.slice(0, MATCH_TEXT_CHARS), reported: false };
      if (!this.#longLine.reported && this.#carry.toLowerCase().includes(this.needle))
        this.#report(this.#longLine.prefix);
      // Keep the last characters a match could start in, so that no match across two pieces is missed.
      this.#carry = this.needle.length > 1 ? this.#carry.slice(-(this.needle.length - 1)) : "";
    }
  }

  #endLine(line: string): void {
    if (this.#longLine) {
      if (!this.#longLine.reported && line.toLowerCase().includes(this.needle))
        this.#report(this.#longLine.prefix);
      this.#longLine = undefined;
    } else if (line.toLowerCase().includes(this.needle)) {
      this.#report(line.slice(0, MATCH_TEXT_CHARS));
    }
    this.#line += 1;
  }

  #report(text: string): void {
    if (this.full) return;
    if (this.#longLine) this.#longLine.reported = true;
    this.matches.push({ path: this.path, line: this.#line, text });
  }
}

function countNewlines(text: string): number {
  let count = 0;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) count += 1;
  return count;
}
