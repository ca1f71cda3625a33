import { defineTask, flagNearMisses } from "../../../envs/index.js";
import { libraryDomain } from "../domain.js";
import { misassignedLines } from "../facts.js";
import { checkAnswerValues } from "./common.js";
import { LIBRARY_PY } from "./python.js";

function cells(near: string[]): string[] {
  return [
    LIBRARY_PY,
    `NEAR = set(${JSON.stringify(near)})
lines = fetch("list_order_lines", "lines", status="ordered")
print(len(lines))`,
    `wrong = {}
for line in lines:
    fund = fund_for(bib(line["bib_id"]))
    if fund != line["fund_code"]:
        wrong[line["line_id"]] = fund
print(json.dumps(wrong))`,
  ];
}

export const fundAssignmentTask = defineTask({
  id: "library.fund-assignment",
  domain: libraryDomain,
  summary:
    "Lines on order charged to the wrong fund per the policy's MARC-based fund assignment (format before audience, every 650/655).",
  instruction:
    'Audit the fund coding of everything on order (order lines in status ordered): apply the fund assignment rules of our collection development policy to each line\'s bibliographic record. Do not change anything. Reply with only a JSON object mapping each line charged to the wrong fund to the fund it should be charged to, e.g. {"POL-000017": "JUV"}.',
  tools: ["list_order_lines", "list_bibs", "get_bib"],
  verify: ({ initial, answer }) => [checkAnswerValues(answer, misassignedLines(initial))],
  oracle: cells([]),
  nearMisses: flagNearMisses(cells, [
    ["first-650-only", "Reads the form subdivision of the first subject heading only.", "first-650"],
    [
      "audience-before-format",
      "Applies the juvenile rule before the large-print and AV rules.",
      "audience-first",
    ],
    ["ignores-physical-description", "Never assigns AV from the 300 field.", "no-av"],
  ]),
});
