import { REFERENCE_DATE, allRows, checkAnswerAmounts, defineTask } from "../../../envs/index.js";
import type { StateView } from "../../../envs/index.js";
import { permitsDomain } from "../domain.js";
import { PERMITS_PY } from "./python.js";

/** Contractors whose insurance expired before today, with their number of issued permits (when any). */
export function lapsedInsurance(state: StateView): Map<string, number> {
  const rows = allRows<{ license_id: string; issued: number }>(
    state.db,
    `SELECT c.license_id, count(*) AS issued FROM contractors c
       JOIN permits p ON p.contractor_id = c.license_id AND p.status = 'issued'
      WHERE c.insurance_expires < ? GROUP BY c.license_id`,
    REFERENCE_DATE,
  );
  if (rows.length === 0) throw new Error("generation produced no contractor with lapsed insurance");
  return new Map(rows.map((row) => [row.license_id, row.issued]));
}

function cells(dateField: string, statusFilter: string): string[] {
  return [
    PERMITS_PY,
    String.raw`
report = {}
for c in listing("/contractors", "Licensed contractors"):
    info = fields(page(f"/contractors/{c['License']}"))
    if iso(info["${dateField}"]) >= TODAY.isoformat():
        continue
    permits = listing(f"/permits?contractor={c['License']}${statusFilter}", "Permits")
    if permits:
        report[c["License"]] = len(permits)
print(json.dumps(report, sort_keys=True))
`,
  ];
}

export const lapsedInsuranceTask = defineTask({
  id: "permits.lapsed-insurance",
  domain: permitsDomain,
  summary:
    "Find contractors whose liability insurance has expired and who still hold issued permits, with how many.",
  instruction:
    'Risk management asked which contractors are working without liability insurance. Find every contractor whose insurance expiry date is before today and who still holds permits in Issued status. Reply with a JSON object mapping each such contractor\'s license number to how many issued permits they hold, e.g. `{"CL-10021": 3}`.',
  tools: ["open_page"],
  verify: ({ initial, answer }) => [
    checkAnswerAmounts("answer-contractors", answer, lapsedInsurance(initial), 0),
  ],
  oracle: cells("Insurance expires", "&status=issued"),
  nearMisses: [
    {
      id: "license-date",
      description: "Reads the license expiry date instead of the insurance expiry.",
      cells: cells("License expires", "&status=issued"),
    },
    {
      id: "all-statuses",
      description: "Counts the contractor's permits of every status.",
      cells: cells("Insurance expires", ""),
    },
  ],
});
