import { allRows, check, defineTask, parseAnswerJson } from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { permitsDomain } from "../domain.js";
import { PERMITS_PY } from "./python.js";

const SINCE = "2025-04-01";
const CODE = /\(([A-Z]{3} [A-Z]?\d[\d.]*)\)/g;

/** Code sections cited in failed reports since April 1, with how often each was cited. */
export function citedCodes(state: StateView): Map<string, number> {
  const counts = new Map<string, number>();
  const notes = allRows<{ notes: string }>(
    state.db,
    "SELECT notes FROM inspections WHERE result = 'fail' AND scheduled_for >= ?",
    SINCE,
  );
  for (const row of notes)
    for (const found of row.notes.matchAll(CODE)) counts.set(found[1]!, (counts.get(found[1]!) ?? 0) + 1);
  return counts;
}

function verify({ initial, answer }: VerifyContext): Check[] {
  const expected = citedCodes(initial);
  if (expected.size === 0) throw new Error("generation produced no citation since April");
  const value = parseAnswerJson(answer);
  const actual = value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const problems = [...expected]
    .filter(([code, count]) => Number(actual[code]) !== count)
    .map(([code, count]) => `${code}: expected ${count}, got ${String(actual[code])}`);
  for (const code of Object.keys(actual)) if (!expected.has(code)) problems.push(`unexpected ${code}`);
  return [check("answer-counts", problems.length === 0, problems.length === 0 ? "counts match" : problems.slice(0, 5).join("; "))];
}

interface Variant {
  allTime?: boolean;
  digitsOnly?: boolean;
  firstCodeOnly?: boolean;
}

function cells(variant: Variant): string[] {
  const pattern = variant.digitsOnly ? String.raw`\(([A-Z]{3} \d[\d.]*)\)` : String.raw`\(([A-Z]{3} [A-Z]?\d[\d.]*)\)`;
  const codes = variant.firstCodeOnly ? "re.findall(pattern, notes)[:1]" : "re.findall(pattern, notes)";
  return [
    PERMITS_PY,
    String.raw`
pattern = r"${pattern}"
counts = {}
for row in listing("/inspections?result=fail${variant.allTime ? "" : `&from=${SINCE}`}", "Inspections"):
    notes = texts(page(f"/inspections/{row['Inspection']}"), "paragraph")[0]
    for code in ${codes}:
        counts[code] = counts.get(code, 0) + 1
print(json.dumps(counts, sort_keys=True))
`,
  ];
}

export const violationCodeTallyTask = defineTask({
  id: "permits.violation-code-tally",
  domain: permitsDomain,
  summary: "Count every code section cited in failed inspection reports since April 1, 2025 (free-text inspector notes).",
  instruction:
    "The code-adoption committee wants to know which code sections our inspectors cite most. Go through every failed inspection dated April 1, 2025 or later and count each code section cited in the inspector's notes (a report citing two sections counts once for each). Reply with a JSON object mapping each code section, written as in the reports (e.g. `NEC 210.8`), to its number of citations.",
  tools: ["open_page"],
  verify,
  oracle: cells({}),
  nearMisses: [
    { id: "all-time", description: "Counts failed reports of every date.", cells: cells({ allTime: true }) },
    { id: "digits-only-pattern", description: "Misses sections with a letter prefix such as IRC N1102.4.", cells: cells({ digitsOnly: true }) },
    { id: "first-code-only", description: "Counts only the first section of a report citing two.", cells: cells({ firstCodeOnly: true }) },
  ],
});
