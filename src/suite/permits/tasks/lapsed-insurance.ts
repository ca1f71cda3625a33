import { REFERENCE_DATE, allRows, check, defineTask, parseAnswerJson } from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { permitsDomain } from "../domain.js";
import { PERMITS_PY } from "./python.js";

/** Contractors whose insurance expired before today, with their number of issued permits (when any). */
export function lapsedInsurance(state: StateView): Map<string, number> {
  const rows = allRows<{ license_id: string; issued: number }>(
    state.db,
    `SELECT c.license_id, count(p.permit_id) AS issued FROM contractors c
       JOIN permits p ON p.contractor_id = c.license_id AND p.status = 'issued'
      WHERE c.insurance_expires < ? GROUP BY c.license_id ORDER BY c.license_id`,
    REFERENCE_DATE,
  );
  return new Map(rows.map((row) => [row.license_id, row.issued]));
}

function verify({ initial, answer }: VerifyContext): Check[] {
  const expected = lapsedInsurance(initial);
  if (expected.size === 0) throw new Error("generation produced no contractor with lapsed insurance");
  const value = parseAnswerJson(answer);
  const actual = value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const problems = [...expected]
    .filter(([license, count]) => Number(actual[license]) !== count)
    .map(([license, count]) => `${license}: expected ${count}, got ${String(actual[license])}`);
  for (const license of Object.keys(actual)) if (!expected.has(license)) problems.push(`unexpected ${license}`);
  return [check("answer-contractors", problems.length === 0, problems.length === 0 ? "contractors match" : problems.slice(0, 5).join("; "))];
}

interface Variant {
  licenseDate?: boolean;
  allStatuses?: boolean;
}

function cells(variant: Variant): string[] {
  return [
    PERMITS_PY,
    String.raw`
report = {}
for c in listing("/contractors", "Licensed contractors"):
    info = fields(page(f"/contractors/{c['License']}"))
    if iso(info["${variant.licenseDate ? "License expires" : "Insurance expires"}"]) >= TODAY.isoformat():
        continue
    permits = listing(f"/permits?contractor={c['License']}${variant.allStatuses ? "" : "&status=issued"}", "Permits")
    if permits:
        report[c["License"]] = len(permits)
print(json.dumps(report, sort_keys=True))
`,
  ];
}

export const lapsedInsuranceTask = defineTask({
  id: "permits.lapsed-insurance",
  domain: permitsDomain,
  summary: "Find contractors whose liability insurance has expired and who still hold issued permits, with how many.",
  instruction:
    "Risk management asked which contractors are working without liability insurance. Find every contractor whose insurance expiry date is before today and who still holds permits in Issued status. Reply with a JSON object mapping each such contractor's license number to how many issued permits they hold, e.g. `{\"CL-10021\": 3}`.",
  tools: ["open_page"],
  verify,
  oracle: cells({}),
  nearMisses: [
    { id: "license-date", description: "Reads the license expiry date instead of the insurance expiry.", cells: cells({ licenseDate: true }) },
    { id: "all-statuses", description: "Counts the contractor's permits of every status.", cells: cells({ allStatuses: true }) },
  ],
});
