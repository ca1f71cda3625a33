import { allRows, check, defineTask, parseAnswerJson } from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { permitsDomain } from "../domain.js";
import { PERMITS_PY } from "./python.js";

const SINCE = "2025-01-01";
const MIN_INSPECTIONS = 4;

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
      WHERE i.result IN ('pass', 'fail') AND i.scheduled_for >= ?
      GROUP BY p.contractor_id HAVING count(*) >= ?`,
    SINCE,
    MIN_INSPECTIONS,
  );
  return rows
    .sort(
      (a, b) =>
        b.failed * a.inspections - a.failed * b.inspections ||
        b.inspections - a.inspections ||
        a.license.localeCompare(b.license),
    )
    .slice(0, 3);
}

function verify({ initial, answer }: VerifyContext): Check[] {
  const expected = worstContractors(initial);
  if (expected.length < 3 || expected[0]!.failed === 0) throw new Error("generation produced too few inspected contractors");
  const value = parseAnswerJson(answer);
  const actual = Array.isArray(value) ? (value as Array<Record<string, unknown>>) : [];
  const same =
    actual.length === expected.length &&
    expected.every(
      (rate, index) =>
        String(actual[index]?.license ?? "").trim() === rate.license &&
        Number(actual[index]?.failed) === rate.failed &&
        Number(actual[index]?.inspections) === rate.inspections,
    );
  return [check("answer-ranking", same, `expected ${JSON.stringify(expected)}`)];
}

interface Variant {
  countScheduled?: boolean;
  allTime?: boolean;
  byCount?: boolean;
}

function cells(variant: Variant): string[] {
  const sortKey = variant.byCount
    ? '(-r["failed"], -r["inspections"], r["license"])'
    : '(-r["failed"] / r["inspections"], -r["inspections"], r["license"])';
  return [
    PERMITS_PY,
    String.raw`
owner = {}
for c in listing("/contractors", "Licensed contractors"):
    for p in listing(f"/permits?contractor={c['License']}", "Permits"):
        owner[p["Permit"]] = c["License"]
print(len(owner), "permits mapped")
`,
    String.raw`
stats = {}
for row in listing("/inspections${variant.allTime ? "" : `?from=${SINCE}`}", "Inspections"):
    if row["Result"] not in (${variant.countScheduled ? '"Pass", "Fail", "Scheduled"' : '"Pass", "Fail"'}):
        continue
    s = stats.setdefault(owner[row["Permit"]], {"license": owner[row["Permit"]], "failed": 0, "inspections": 0})
    s["inspections"] += 1
    s["failed"] += row["Result"] == "Fail"
ranked = sorted((r for r in stats.values() if r["inspections"] >= ${MIN_INSPECTIONS}), key=lambda r: ${sortKey})
print(json.dumps(ranked[:3]))
`,
  ];
}

export const contractorFailRatesTask = defineTask({
  id: "permits.contractor-fail-rates",
  domain: permitsDomain,
  summary:
    "Rank contractors by inspection failure rate since January 1, 2025 (pass/fail results only, at least 4 inspections) by joining inspections to permits to contractors.",
  instruction:
    "Which contractors fail inspections most often this year? Take every inspection with a pass or fail result dated January 1, 2025 or later, attribute it to the contractor on the permit, and rank contractors with at least 4 such inspections by failure rate (failed / inspections), highest first; break ties by more inspections, then by license number. Reply with the top three as a JSON list like `[{\"license\": \"CL-10007\", \"failed\": 3, \"inspections\": 5}, ...]`.",
  tools: ["open_page"],
  verify,
  oracle: cells({}),
  nearMisses: [
    { id: "counts-scheduled", description: "Counts scheduled bookings as inspections.", cells: cells({ countScheduled: true }) },
    { id: "all-time", description: "Uses inspections of every year.", cells: cells({ allTime: true }) },
    { id: "ranks-by-count", description: "Ranks by the number of failures instead of the rate.", cells: cells({ byCount: true }) },
  ],
});
