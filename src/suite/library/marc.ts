/**
 * Bibliographic records in MARC mnemonic form (`=245  10$aTitle :$bsubtitle /$cauthor.`): ISBN arithmetic,
 * rendering a drawn book as a record, and reading a record back (the ISBNs it carries, the fund its
 * audience and format call for) the way the oracles' Python does.
 */

export function isbn13Check(first12: string): string {
  const sum = [...first12].reduce((total, digit, index) => total + Number(digit) * (index % 2 ? 3 : 1), 0);
  return String((10 - (sum % 10)) % 10);
}

export function isbn10Of(isbn13: string): string {
  const core = isbn13.slice(3, 12);
  const sum = [...core].reduce((total, digit, index) => total + Number(digit) * (10 - index), 0);
  const check = (11 - (sum % 11)) % 11;
  return core + (check === 10 ? "X" : String(check));
}

/** A 978 ISBN-13 from a nine-digit number. */
export function makeIsbn13(nine: number): string {
  const first12 = `978${String(nine).padStart(9, "0")}`;
  return first12 + isbn13Check(first12);
}

/** Hyphenated the way publishers print it (group 1, a registrant, a title number, the check digit). */
export function hyphenate13(isbn: string): string {
  return `${isbn.slice(0, 3)}-${isbn[3]}-${isbn.slice(4, 8)}-${isbn.slice(8, 12)}-${isbn[12]}`;
}

/** An ISBN as written in a 020 $a (hyphens, spaces, a qualifier after it) as ISBN-13, or null. */
export function normalizeIsbn(value: string): string | null {
  const token = /^[\d\- ]*[\dXx]/.exec(value.trim())?.[0].replace(/[- ]/g, "").toUpperCase() ?? "";
  if (/^\d{13}$/.test(token)) return token;
  if (/^\d{9}[\dX]$/.test(token)) return `978${token.slice(0, 9)}${isbn13Check(`978${token.slice(0, 9)}`)}`;
  return null;
}

export interface BookDraft {
  bibId: string;
  /** The book's own ISBN-13. */
  isbn: string;
  title: string;
  subtitle: string | null;
  author: string;
  publisher: string;
  place: string;
  year: number;
  /** 020 fields in order: the $a text, a $q qualifier, and whether it is a cancelled ISBN ($z). */
  isbns: Array<{ text: string; qualifier: string | null; cancelled?: boolean }>;
  /** 650 fields: the topic and its form subdivision ($v), if any. */
  subjects: Array<[string, string | null]>;
  genres: string[];
  extent: string;
  fiction: boolean;
  /** A 520 summary, when the vendor's record carried one. */
  summary?: string;
}

/** The record as the catalog stores it, one `=TAG  II$a...` line per field. */
export function renderMarc(book: BookDraft, createdOn: string): string {
  const yymmdd = createdOn.slice(2).replace(/-/g, "");
  const [last, first] = book.author.split(", ");
  const lines = [
    "=LDR  00000nam a2200000 i 4500",
    `=001  ${book.bibId}`,
    `=008  ${yymmdd}s${book.year}    ${book.place.slice(0, 2).toLowerCase()}u           000 ${book.fiction ? "1" : "0"} eng d`,
    ...book.isbns.map(
      (isbn) =>
        `=020  \\\\$${isbn.cancelled ? "z" : "a"}${isbn.text}${isbn.qualifier ? `$q(${isbn.qualifier})` : ""}`,
    ),
    `=100  1\\$a${book.author},$eauthor.`,
    `=245  1${book.title.startsWith("The ") ? "4" : "0"}$a${book.title}${book.subtitle ? ` :$b${book.subtitle}` : ""} /$c${first} ${last}.`,
    `=264  \\1$a${book.place} :$b${book.publisher},$c${book.year}.`,
    `=300  \\\\$a${book.extent}`,
    ...(book.summary ? [`=520  \\\\$a${book.summary}`] : []),
    ...book.subjects.map(([topic, form]) => `=650  \\0$a${topic}${form ? `$v${form}.` : "."}`),
    ...book.genres.map((genre) => `=655  \\7$a${genre}.$2lcgft`),
  ];
  return lines.join("\n");
}

interface Field {
  tag: string;
  subfields: Array<[string, string]>;
}

export function marcFields(marc: string): Field[] {
  return marc
    .split("\n")
    .map((line) => /^=(\d{3}|LDR) {2}(.*)$/.exec(line.trimEnd()))
    .filter((match) => match !== null)
    .map((match) => ({
      tag: match[1]!,
      subfields: match[2]!
        .split("$")
        .slice(1)
        .map((part) => [part.slice(0, 1), part.slice(1).trim()] as [string, string]),
    }));
}

/** Every valid ISBN ($a of each 020, never $z) as ISBN-13. */
export function isbnsOf(marc: string): string[] {
  const found = marcFields(marc)
    .filter((field) => field.tag === "020")
    .flatMap((field) =>
      field.subfields.filter(([code]) => code === "a").map(([, value]) => normalizeIsbn(value)),
    );
  return [...new Set(found.filter((isbn) => isbn !== null))];
}

/** The fund the collection-development policy assigns: format first, then audience, then fiction. */
export function fundFor(marc: string): string {
  const fields = marcFields(marc);
  const values = (tag: string, code: string): string[] =>
    fields
      .filter((field) => field.tag === tag)
      .flatMap((field) => field.subfields.filter(([c]) => c === code).map(([, v]) => v.toLowerCase()));
  if (values("300", "a").some((extent) => /audio disc|videodisc/.test(extent))) return "AV";
  const genres = values("655", "a");
  if (genres.some((genre) => genre.startsWith("large type books"))) return "LPRT";
  if (genres.some((genre) => genre.startsWith("young adult"))) return "YA";
  const forms = values("650", "v");
  if (forms.some((form) => form.startsWith("juvenile"))) return "JUV";
  return forms.some((form) => form.startsWith("fiction")) ? "AFIC" : "ANF";
}
