/** Drawn books for the catalog: titles, authors, ISBNs as catalogers typed them, subjects by audience. */
import type { Faker } from "@faker-js/faker";
import type { SeededRandom } from "../../core/index.js";
import { weightedPick } from "../../envs/index.js";
import { hyphenate13, isbn10Of, makeIsbn13, type BookDraft } from "./marc.js";

export type Category =
  | "adult-fiction"
  | "adult-nonfiction"
  | "juvenile-fiction"
  | "juvenile-nonfiction"
  | "ya"
  | "large-print"
  | "audiobook"
  | "dvd"
  | "juvenile-large-print"
  | "juvenile-second-650";

/** How a planted twin spells an earlier record's ISBN. */
export type TwinVariant = "hyphen" | "isbn10" | "second" | "cancelled-isbn" | "cancelled-line";

const WORDS = {
  adjective: "Silent,Hidden,Last,Broken,Golden,Northern,Quiet,Bright,Lost,Winter,Painted,Distant".split(","),
  noun: "River,Garden,Harbor,Lantern,Orchard,Kingdom,Promise,Island,Letter,Station,Forest,Mirror".split(","),
  topic:
    "Families,Friendship,Dragons,Gardening,Cooking,World War 1939-1945,Climate change,Dogs,Immigrants,Detectives,Space flight,Baseball,Grief,Small business".split(
      ",",
    ),
  place: "New York,Boston,Chicago,Minneapolis,San Francisco,London,Toronto".split(","),
};

const CATEGORY_WEIGHTS: Array<[Category, number]> = [
  ["adult-fiction", 30],
  ["adult-nonfiction", 25],
  ["juvenile-fiction", 12],
  ["juvenile-nonfiction", 8],
  ["ya", 10],
  ["large-print", 7],
  ["audiobook", 5],
  ["dvd", 3],
];

/** Per category: the 650 form subdivisions drawn from, the 655 genre, the kind of 300 extent, fiction or not. */
const SHAPES: Record<
  Category,
  [Array<string | null>, string | null, "print" | "large" | "audio" | "video", boolean]
> = {
  "adult-fiction": [["Fiction"], null, "print", true],
  "adult-nonfiction": [[null, "Handbooks, manuals, etc", "Popular works"], null, "print", false],
  "juvenile-fiction": [["Juvenile fiction"], "Picture books", "print", true],
  "juvenile-nonfiction": [["Juvenile literature"], null, "print", false],
  ya: [["Juvenile fiction"], "Young adult fiction", "print", true],
  "large-print": [["Fiction", null], "Large type books", "large", true],
  audiobook: [["Fiction"], "Audiobooks", "audio", true],
  dvd: [[null], "Documentary films", "video", false],
  "juvenile-large-print": [["Juvenile fiction"], "Large type books", "large", true],
  "juvenile-second-650": [["Juvenile fiction"], null, "print", true],
};

function shape(
  random: SeededRandom,
  category: Category,
): Pick<BookDraft, "subjects" | "genres" | "extent" | "fiction"> {
  const [forms, genre, kind, fiction] = SHAPES[category];
  const form = random.pick(forms);
  const topics = random.shuffle(WORDS.topic).slice(0, random.int(1, 2));
  const subjects: Array<[string, string | null]> =
    category === "juvenile-second-650"
      ? [
          [topics[0]!, null],
          [WORDS.topic.find((topic) => topic !== topics[0])!, form],
        ]
      : topics.map((topic) => [topic, form]);
  const extent = {
    print: `${random.int(96, 640)} pages ; ${random.int(18, 28)} cm`,
    large: `${random.int(300, 700)} pages (large print) ; 24 cm`,
    audio: `${random.int(6, 14)} audio discs (${random.int(6, 18)} hr.) : digital ; 4 3/4 in.`,
    video: `1 videodisc (${random.int(80, 140)} min.) : sound, color ; 4 3/4 in.`,
  }[kind];
  return { subjects, genres: genre ? [genre] : [], extent, fiction };
}

/** The 020 fields of an ordinary record, in the shapes catalogers leave them. */
function isbnFields(random: SeededRandom, isbn: string, other: string): BookDraft["isbns"] {
  const style = random.int(0, 9);
  if (style < 4) return [{ text: isbn, qualifier: random.pick(["hardcover", null]) }];
  if (style < 6)
    return [
      { text: isbn, qualifier: "hardcover" },
      { text: other, qualifier: "ebook" },
    ];
  if (style < 8) return [{ text: hyphenate13(isbn), qualifier: null }];
  return [
    { text: isbn, qualifier: null },
    { text: `${isbn10Of(isbn)} (hbk.)`, qualifier: null },
  ];
}

function twinFields(variant: TwinVariant, isbn: string, own: string): BookDraft["isbns"] {
  switch (variant) {
    case "hyphen":
      return [{ text: hyphenate13(isbn), qualifier: "hardcover" }];
    case "isbn10":
      return [{ text: `${isbn10Of(isbn)} (pbk.)`, qualifier: null }];
    case "second":
      return [
        { text: own, qualifier: "ebook" },
        { text: isbn, qualifier: "hardcover" },
      ];
    case "cancelled-isbn":
      return [
        { text: own, qualifier: "paperback" },
        { text: isbn, qualifier: null, cancelled: true },
      ];
    case "cancelled-line":
      return [{ text: isbn, qualifier: "hardcover" }];
  }
}

/** A source of fresh books; `twin` spells an earlier book's ISBN the planted way. */
export function books(random: SeededRandom, faker: Faker, idOf: (n: number) => string) {
  let count = 0;
  const used = new Set<string>();
  const fresh = (): string => {
    for (;;) {
      const isbn = makeIsbn13(random.int(100000000, 999999999));
      if (!used.has(isbn)) return (used.add(isbn), isbn);
    }
  };
  return (category?: Category, twin?: { isbn: string; variant: TwinVariant }): BookDraft => {
    count += 1;
    const kind =
      category ??
      weightedPick(
        random,
        CATEGORY_WEIGHTS.map(([c]) => c),
        CATEGORY_WEIGHTS.map(([, w]) => w),
      );
    const isbn = fresh();
    const drawn = shape(random, kind);
    const title =
      `${random.pick(["The ", "", "A "])}${random.pick(WORDS.adjective)} ${random.pick(WORDS.noun)}`.trim();
    return {
      bibId: idOf(count),
      isbn: twin?.isbn ?? isbn,
      title,
      subtitle: drawn.fiction && random.chance(0.4) ? "a novel" : null,
      author: `${faker.person.lastName()}, ${faker.person.firstName()}`,
      publisher: `${faker.person.lastName()} ${random.pick(["Press", "Books", "House", "& Company"])}`,
      place: random.pick(WORDS.place),
      year: random.int(2022, 2025),
      isbns: twin ? twinFields(twin.variant, twin.isbn, isbn) : isbnFields(random, isbn, fresh()),
      ...drawn,
      ...(category === undefined && random.chance(0.3)
        ? { summary: faker.lorem.sentences(random.int(2, 4)) }
        : {}),
    };
  };
}
