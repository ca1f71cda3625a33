import { REFERENCE_DATE, addDays, allRows, check, defineTask, getRow, parseAnswerList } from "../../../envs/index.js";
import type { Check, GenerateContext, StateView, VerifyContext } from "../../../envs/index.js";
import { permitsDomain } from "../domain.js";
import { inspectionId } from "../rules.js";
import { PERMITS_PY } from "./python.js";

const WINDOW_DAYS = 30;

/** Issued permits expiring within the next 30 days (inclusive) that have no passed Final inspection. */
export function expiringPermits(state: StateView): string[] {
  return allRows<{ permit_id: string }>(
    state.db,
    `SELECT permit_id FROM permits p WHERE status = 'issued' AND expires_on > ? AND expires_on <= ?
        AND NOT EXISTS (SELECT 1 FROM inspections i WHERE i.permit_id = p.permit_id AND i.inspection_type = 'Final' AND i.result = 'pass')
      ORDER BY permit_id`,
    REFERENCE_DATE,
    addDays(REFERENCE_DATE, WINDOW_DAYS),
  ).map((row) => row.permit_id);
}

/**
 * Plants the two cases the rule turns on: a permit expiring on the window's last day, and one in the window
 * whose Final passed last week (the counter closes permits in a weekly batch, so it still shows Issued).
 */
function prepare({ db }: GenerateContext): void {
  const issued = allRows<{ permit_id: string; issued_on: string; expires_on: string }>(
    db,
    "SELECT permit_id, issued_on, expires_on FROM permits WHERE status = 'issued' ORDER BY issued_on, permit_id",
  );
  const edge = issued.find((permit) => permit.expires_on > addDays(REFERENCE_DATE, WINDOW_DAYS + 10));
  const closed = issued.find((permit) => permit.expires_on > REFERENCE_DATE && permit.expires_on <= addDays(REFERENCE_DATE, 20));
  if (!edge || !closed) throw new Error("no issued permit to plant the expiry cases on");
  db.prepare("UPDATE permits SET expires_on = ?, issued_on = ? WHERE permit_id = ?").run(
    addDays(REFERENCE_DATE, WINDOW_DAYS),
    addDays(REFERENCE_DATE, WINDOW_DAYS - 365),
    edge.permit_id,
  );
  const last = getRow<{ id: string }>(db, "SELECT max(inspection_id) AS id FROM inspections")!.id;
  db.prepare("INSERT INTO inspections VALUES (?, ?, 'Final', ?, 'Priya Raman', 'pass', ?)").run(
    inspectionId.format(Number(last.slice(5)) + 1),
    closed.permit_id,
    addDays(REFERENCE_DATE, -4),
    "Final approved. Certificate of completion to follow.",
  );
}

function verify({ initial, answer }: VerifyContext): Check[] {
  const expected = expiringPermits(initial);
  if (expected.length === 0) throw new Error("generation produced no expiring permit");
  const actual = [...new Set(parseAnswerList(answer).map((id) => id.replace(/["[\]]/g, "").trim().toUpperCase()))].sort();
  return [
    check(
      "answer-permits",
      JSON.stringify(actual) === JSON.stringify(expected),
      `expected ${expected.length} permits: ${expected.join(", ")}`,
    ),
  ];
}

interface Variant {
  ignoreFinal?: boolean;
  exclusiveEnd?: boolean;
}

function cells(variant: Variant): string[] {
  return [
    PERMITS_PY,
    String.raw`
horizon = (TODAY + timedelta(days=${WINDOW_DAYS})).isoformat()
notices = []
for row in listing("/permits?status=issued", "Permits"):
    snap = page(f"/permits/{row['Permit']}")
    expires = iso(fields(snap)["Expires"])
    if not (TODAY.isoformat() < expires ${variant.exclusiveEnd ? "<" : "<="} horizon):
        continue
    finals = [r for r in table(snap, "Inspections") if r["Type"] == "Final" and r["Result"] == "Pass"]
    if ${variant.ignoreFinal ? "False" : "finals"}:
        continue
    notices.append(row["Permit"])
print(json.dumps(sorted(notices)))
`,
  ];
}

export const expiringPermitsTask = defineTask({
  id: "permits.expiring-permits",
  domain: permitsDomain,
  summary: "List issued permits expiring in the next 30 days (inclusive) that have no passed Final inspection (memo's courtesy-notice rule).",
  instruction:
    "I'm preparing this month's courtesy notices. Using the permit-expiry section of the inspection policy memo, which permits should get one today? Check the permits themselves on the portal. Reply with a JSON list of their permit numbers, e.g. `[\"BP-2024-00412\", \"EP-2024-00433\"]`.",
  tools: ["open_page"],
  prepare,
  verify,
  oracle: cells({}),
  nearMisses: [
    { id: "ignores-passed-final", description: "Sends a notice for a permit whose Final already passed.", cells: cells({ ignoreFinal: true }) },
    { id: "window-end-exclusive", description: "Leaves out the permit expiring on the 30th day.", cells: cells({ exclusiveEnd: true }) },
  ],
});
