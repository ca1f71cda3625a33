import { definePermitsTask } from "./python.js";
import { allRows, checkAnswerAmounts } from "../../../envs/index.js";
import type { StateView } from "../../../envs/index.js";

const SINCE = "2025-04-01";
const CODE = String.raw`\(([A-Z]{3} [A-Z]?\d[\d.]*)\)`;

/** Code sections cited in failed reports since April 1, with how often each was cited. */
export function citedCodes(state: StateView): Map<string, number> {
  const counts = new Map<string, number>();
  const sql = "SELECT notes FROM inspections WHERE result = 'fail' AND scheduled_for >= ?";
  for (const row of allRows<{ notes: string }>(state.db, sql, SINCE))
    for (const found of row.notes.matchAll(new RegExp(CODE, "g")))
      counts.set(found[1]!, (counts.get(found[1]!) ?? 0) + 1);
  if (counts.size === 0) throw new Error("generation produced no citation since April");
  return counts;
}

function cells({ allTime = false, pattern = CODE, firstOnly = false }): string[] {
  return [
    String.raw`
counts = {}
for row in listing("/inspections?result=fail${allTime ? "" : `&from=${SINCE}`}", "Inspections"):
    notes = texts(page(f"/inspections/{row['Inspection']}"), "paragraph")[0]
    for code in re.findall(r"${pattern}", notes)${firstOnly ? "[:1]" : ""}:
        counts[code] = counts.get(code, 0) + 1
print(json.dumps(counts, sort_keys=True))
`,
  ];
}

export const violationCodeTallyTask = definePermitsTask({
  id: "permits.violation-code-tally",
  summary:
    "Count every code section cited in failed inspection reports since April 1, 2025 (free-text inspector notes).",
  instruction:
    "The code-adoption committee wants to know which code sections our inspectors cite most. Go through every failed inspection dated April 1, 2025 or later and count each code section cited in the inspector's notes (a report citing two sections counts once for each). Reply with a JSON object mapping each code section, written as in the reports (e.g. `NEC 210.8`), to its number of citations.",
  tools: ["open_page"],
  verify: ({ initial, answer }) => [checkAnswerAmounts("answer-counts", answer, citedCodes(initial), 0)],
  cells,
  nearMisses: {
    "all-time": [{ allTime: true }, "Counts failed reports of every date."],
    "digits-only-pattern": [
      { pattern: String.raw`\(([A-Z]{3} \d[\d.]*)\)` },
      "Misses sections with a letter prefix such as IRC N1102.4.",
    ],
    "first-code-only": [{ firstOnly: true }, "Counts only the first section of a report citing two."],
  },
});
