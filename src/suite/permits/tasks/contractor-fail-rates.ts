import { definePermitsTask } from "./python.js";
import { allRows, check, parseAnswerJson } from "../../../envs/index.js";
import type { StateView } from "../../../envs/index.js";

const SINCE = "2025-01-01";

interface Rate {
  license: string;
  failed: number;
  inspections: number;
}

/** The three contractors with the highest failure rate since January (ties: more inspections, then license). */
export function worstContractors(state: StateView): Rate[] {
  const rows = allRows<Rate>(
    state.db,
    `SELECT p.contractor_id AS license, sum(i.result = 'fail') AS failed, count(*) AS inspections
       FROM inspections i JOIN permits p ON p.permit_id = i.permit_id
      WHERE i.result IN ('pass', 'fail') AND i.scheduled_for >= ? GROUP BY p.contractor_id HAVING count(*) >= 4`,
    SINCE,
  );
  const rank = (a: Rate, b: Rate): number =>
    b.failed * a.inspections - a.failed * b.inspections ||
    b.inspections - a.inspections ||
    (a.license < b.license ? -1 : 1);
  const top = rows.sort(rank).slice(0, 3);
  if (top.length < 3 || top[0]!.failed === 0)
    throw new Error("generation produced too few inspected contractors");
  return top;
}

function cells({
  results = '"Pass", "Fail"',
  since = SINCE,
  key = 'r["failed"] / r["inspections"]',
}): string[] {
  return [
    String.raw`
owner = {}
for c in listing("/contractors", "Licensed contractors"):
    for p in listing(f"/permits?contractor={c['License']}", "Permits"):
        owner[p["Permit"]] = c["License"]
stats = {}
for row in listing("/inspections?from=${since}", "Inspections"):
    if row["Result"] in (${results}):
        s = stats.setdefault(owner[row["Permit"]], {"license": owner[row["Permit"]], "failed": 0, "inspections": 0})
        s["inspections"] += 1
        s["failed"] += row["Result"] == "Fail"
ranked = sorted((r for r in stats.values() if r["inspections"] >= 4), key=lambda r: (-${key}, -r["inspections"], r["license"]))
print(json.dumps(ranked[:3]))
`,
  ];
}

export const contractorFailRatesTask = definePermitsTask({
  id: "permits.contractor-fail-rates",
  summary:
    "Rank contractors by inspection failure rate since January 1, 2025 (pass/fail results only, at least 4 inspections) by joining inspections to permits to contractors.",
  instruction:
    'Which contractors fail inspections most often this year? Take every inspection with a pass or fail result dated January 1, 2025 or later, attribute it to the contractor on the permit, and rank contractors with at least 4 such inspections by failure rate (failed / inspections), highest first; break ties by more inspections, then by license number. Reply with the top three as a JSON list like `[{"license": "CL-10007", "failed": 3, "inspections": 5}, ...]`.',
  tools: ["open_page"],
  verify: ({ initial, answer }) => {
    const expected = worstContractors(initial);
    const value = parseAnswerJson(answer);
    const actual = (Array.isArray(value) ? value : []) as Array<Record<string, unknown>>;
    const same =
      actual.length === 3 &&
      expected.every(
        (rate, index) =>
          String(actual[index]!.license).trim() === rate.license &&
          Number(actual[index]!.failed) === rate.failed &&
          Number(actual[index]!.inspections) === rate.inspections,
      );
    return [check("answer-ranking", same, `expected ${JSON.stringify(expected)}`)];
  },
  cells,
  nearMisses: {
    "counts-scheduled": [
      { results: '"Pass", "Fail", "Scheduled"' },
      "Counts scheduled bookings as inspections.",
    ],
    "all-time": [{ since: "2000-01-01" }, "Uses inspections of every year."],
    "ranks-by-count": [{ key: 'r["failed"]' }, "Ranks by failures, not rate."],
  },
});
