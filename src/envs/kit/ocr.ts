/**
 * Scanned-page text as an OCR engine returns it: columns that drift, hyphenated line breaks, repeated page
 * headers and footers, scan stamps, stray marks, character confusions and misread amounts. Callers decide
 * which fields may be noisy and keep the key fields (ids) clean. The readers (`parseOcrAmount`,
 * `OCR_AMOUNT_PATTERN` and `PYTHON_OCR_HELPERS`) undo exactly the amount noise written here.
 *
 * The layout helpers are the ones the customs domain wrote first (`src/suite/customs/render-ocr.ts`, which
 * said they belonged here); customs can import them from the kit.
 */
import type { SeededRandom } from "../../core/index.js";

const CONFUSIONS: Array<[RegExp, string]> = [
  [/O/g, "0"],
  [/o/g, "0"],
  [/l/g, "1"],
  [/I/g, "l"],
  [/S/g, "5"],
  [/rn/g, "m"],
];

/** The text with one OCR confusion (O/0, l/1, I/l, S/5, rn/m) at one spot, with the given probability. */
export function ocrConfuse(random: SeededRandom, text: string, probability = 0.5): string {
  if (!random.chance(probability)) return text;
  const [pattern, replacement] = random.pick(CONFUSIONS);
  const spots = [...text.matchAll(pattern)];
  if (spots.length === 0) return text;
  const spot = random.pick(spots);
  const at = spot.index ?? 0;
  return text.slice(0, at) + replacement + text.slice(at + spot[0].length);
}

/** A cell padded to `width` plus 0..`jitter` extra spaces, so columns drift as they do on a skewed scan. */
export function cell(random: SeededRandom, text: string, width: number, jitter = 3): string {
  return text.padEnd(width) + " ".repeat(random.int(0, jitter));
}

/** A right-aligned cell (numbers), with drift. */
export function numberCell(random: SeededRandom, text: string, width: number, jitter = 2): string {
  return " ".repeat(random.int(1, jitter + 1)) + text.padStart(width);
}

/** Breaks `text` into lines of at most `width` characters, hyphenating a word cut at the edge. */
export function hyphenate(text: string, width: number): string[] {
  const lines: string[] = [];
  let rest = text;
  while (rest.length > width) {
    const space = rest.lastIndexOf(" ", width);
    if (space > width * 0.6) {
      lines.push(rest.slice(0, space));
      rest = rest.slice(space + 1);
    } else {
      lines.push(`${rest.slice(0, width - 1)}-`);
      rest = rest.slice(width - 1);
    }
  }
  lines.push(rest);
  return lines;
}

const STRAY = ["'", "`", ".", ",", "~", ";", "|", "¦", "°"];

/** A line of scanner debris (dust, a punched hole, a fold) or nothing. */
export function strayLine(random: SeededRandom, probability = 0.3): string[] {
  if (!random.chance(probability)) return [];
  const marks = Array.from({ length: random.int(1, 4) }, () => random.pick(STRAY));
  return [" ".repeat(random.int(0, 50)) + marks.join(" ".repeat(random.int(0, 3)))];
}

/** A scan stamp as a document management system burns it into every page. */
export function scanStamp(random: SeededRandom, day: string): string {
  const time = `${String(random.int(7, 18)).padStart(2, "0")}:${String(random.int(0, 59)).padStart(2, "0")}`;
  return `[SCANNED ${day} ${time} | batch ${random.int(100, 999)} | img ${String(random.int(1, 9999)).padStart(4, "0")}]`;
}

/**
 * Splits body lines into pages of at most `linesPerPage`, each framed by the header and footer for its
 * page number (footers say "Page n of m"). `between(page)` adds lines at the bottom of every page but the
 * last (a carried-forward subtotal), `last` lines end the last page. A block never splits across pages.
 */
export function renderPages(options: {
  body: string[][];
  linesPerPage: number;
  header: (page: number, pages: number) => string[];
  footer: (page: number, pages: number) => string[];
  between?: (page: number, blocks: string[][]) => string[];
  last?: string[];
}): string[] {
  const pages: string[][][] = [[]];
  let used = 0;
  for (const block of options.body) {
    if (used > 0 && used + block.length > options.linesPerPage) {
      pages.push([]);
      used = 0;
    }
    pages[pages.length - 1]!.push(block);
    used += block.length;
  }
  return pages.map((blocks, index) => {
    const page = index + 1;
    const isLast = page === pages.length;
    return [
      ...options.header(page, pages.length),
      ...blocks.flat(),
      ...(isLast ? (options.last ?? []) : (options.between?.(page, blocks) ?? [])),
      ...options.footer(page, pages.length),
    ].join("\n");
  });
}

/** `12,450.00` */
export function amountText(value: number): string {
  return value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** How a scanner misreads an amount: a space inside the digits, `l` for a 1, `O` for a 0. */
export type OcrAmountNoise = "split" | "one" | "zero";

/**
 * An amount as a scanner misreads it now and then (with `probability`, default 0.2): a space inside the
 * integer digits (`12,4 50.00`), `l` for a 1 (`l2,450.00`) or `O` for a 0 (`12,45O.00`). The decimals stay
 * clean, so the readers below can tell where an amount ends. `kind` picks the misreading when the amount
 * allows it (a split needs two integer digits); with probability 1 every amount of 10 or more changes.
 */
export function ocrAmount(
  random: SeededRandom,
  value: number,
  options: { probability?: number; kind?: OcrAmountNoise } = {},
): string {
  const text = amountText(value);
  if (!random.chance(options.probability ?? 0.2)) return text;
  const integer = text.slice(0, text.indexOf("."));
  const kinds: OcrAmountNoise[] = [
    ...(integer.length >= 2 ? (["split"] as const) : []),
    ...(integer.includes("1") ? (["one"] as const) : []),
    ...(integer.includes("0") ? (["zero"] as const) : []),
  ];
  if (kinds.length === 0) return text;
  const kind = options.kind && kinds.includes(options.kind) ? options.kind : random.pick(kinds);
  const replace = (from: string, to: string): string => {
    const at = random.pick([...integer.matchAll(new RegExp(from, "g"))].map((match) => match.index ?? 0));
    return text.slice(0, at) + to + text.slice(at + 1);
  };
  if (kind === "one") return replace("1", "l");
  if (kind === "zero") return replace("0", "O");
  const at = random.int(1, integer.length - 1);
  return `${text.slice(0, at)} ${text.slice(at)}`;
}

/**
 * One amount token in OCR text, misreadings included: starts after a non-letter, may hold `l`, `I`, `O`,
 * commas and single spaces inside its integer part, and ends in a point and two clean decimals.
 */
export const OCR_AMOUNT_PATTERN = /(?<![A-Za-z\d.])[\dlIO](?:[\dlIO,]| (?=[\dlIO,]*\.\d\d))*\.\d\d/g;

/** Reads an amount back from OCR text: drops `$`, spaces and commas, reads l/I as 1 and O as 0; null if none. */
export function parseOcrAmount(text: string): number | null {
  const cleaned = text
    .replace(/[$\s,]/g, "")
    .replace(/[lI]/g, "1")
    .replace(/O/g, "0");
  return /^-?\d+(?:\.\d+)?$/.test(cleaned) ? Number(cleaned) : null;
}

/** Every amount in a line of OCR text, in order. */
export function ocrAmountsIn(line: string): number[] {
  return [...line.matchAll(OCR_AMOUNT_PATTERN)].map((match) => parseOcrAmount(match[0])!);
}

/** The same readers for oracle programs: `ocr_amount(text)` and `ocr_amounts(line)`. */
export const PYTHON_OCR_HELPERS = String.raw`
OCR_AMOUNT = re.compile(r"(?<![A-Za-z\d.])[\dlIO](?:[\dlIO,]| (?=[\dlIO,]*\.\d\d))*\.\d\d")

def ocr_amount(text):
    return float(re.sub(r"[$\s,]", "", text).replace("l", "1").replace("I", "1").replace("O", "0"))

def ocr_amounts(line):
    return [ocr_amount(found) for found in OCR_AMOUNT.findall(line)]
`;
