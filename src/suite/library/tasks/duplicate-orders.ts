import { checkAnswerIdLists, defineTask, flagNearMisses } from "../../../envs/index.js";
import { libraryDomain } from "../domain.js";
import { duplicateOrders } from "../facts.js";
import { LIBRARY_PY } from "./python.js";

function cells(near: string[]): string[] {
  return [
    LIBRARY_PY,
    `NEAR = set(${JSON.stringify(near)})
lines = fetch("list_order_lines", "lines") if "all-status" in NEAR else fetch("list_order_lines", "lines", status="ordered")
lines = [l for l in lines if l["status"] != "cancelled" or "all-status" in NEAR]
print(len(lines))`,
    `by_isbn = {}
for line in lines:
    for isbn in isbns_of(bib(line["bib_id"])):
        by_isbn.setdefault(isbn, []).append(line["line_id"])
print(json.dumps({isbn: sorted(ids) for isbn, ids in sorted(by_isbn.items()) if len(ids) > 1}))`,
  ];
}

export const duplicateOrdersTask = defineTask({
  id: "library.duplicate-orders",
  domain: libraryDomain,
  summary:
    "ISBNs on order more than once across bib records (repeated 020s, hyphens, ISBN-10 forms, cancelled $z ISBNs).",
  instruction:
    'Check everything on order (order lines in status ordered) for duplicate ISBNs, following the "Duplicate checking" rules in our collection development policy and reading each line\'s bibliographic record. Reply with only a JSON object mapping each ISBN-13 that is on order on more than one line to the list of those line ids, e.g. {"9780306406157": ["POL-000012", "POL-000040"]}.',
  tools: ["list_order_lines", "list_bibs", "get_bib"],
  verify: ({ initial, answer }) => {
    const expected = duplicateOrders(initial);
    if (expected.size < 3) throw new Error("generation planted too few duplicate orders");
    return [checkAnswerIdLists(answer, expected)];
  },
  oracle: cells([]),
  nearMisses: flagNearMisses(cells, [
    ["first-020-only", "Reads only the first 020 field of each record.", "first-020"],
    ["no-isbn10", "Compares ISBN-10s as they are instead of converting them to ISBN-13.", "no-isbn10"],
    ["cancelled-isbns-count", "Reads the cancelled $z ISBNs of each 020 as well as $a.", "any-isbn"],
    ["every-status", "Counts cancelled and received lines as on order.", "all-status"],
  ]),
});
