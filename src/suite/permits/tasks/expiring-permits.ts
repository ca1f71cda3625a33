import { definePermitsTask } from "./python.js";
import { REFERENCE_DATE, addDays, allRows, check, getRow, parseAnswerList } from "../../../envs/index.js";
import type { GenerateContext, StateView } from "../../../envs/index.js";
import { inspectionId } from "../rules.js";

const HORIZON = addDays(REFERENCE_DATE, 30);

/** Issued permits expiring within the next 30 days (inclusive) that have no passed Final inspection. */
export function expiringPermits(state: StateView): string[] {
  const ids = allRows<{ permit_id: string }>(
    state.db,
    `SELECT permit_id FROM permits p WHERE status = 'issued' AND expires_on > ? AND expires_on <= ? AND NOT EXISTS
       (SELECT 1 FROM inspections i WHERE i.permit_id = p.permit_id AND i.inspection_type = 'Final' AND i.result = 'pass')
      ORDER BY permit_id`,
    REFERENCE_DATE,
    HORIZON,
  ).map((row) => row.permit_id);
  if (ids.length === 0) throw new Error("generation produced no expiring permit");
  return ids;
}

/**
 * Plants the two cases the rule turns on: a permit expiring on the window's last day, and one in the window
 * whose Final passed last week (the counter closes permits in a weekly batch, so it still shows Issued).
 */
function prepare({ db }: GenerateContext): void {
  const issued = allRows<{ permit_id: string; expires_on: string }>(
    db,
    "SELECT permit_id, expires_on FROM permits WHERE status = 'issued' ORDER BY issued_on, permit_id",
  );
  const edge = issued.find((permit) => permit.expires_on > addDays(HORIZON, 10));
  const closed = issued.find((permit) => permit.expires_on > REFERENCE_DATE && permit.expires_on < HORIZON);
  if (!edge || !closed) throw new Error("no issued permit to plant the expiry cases on");
  const update = "UPDATE permits SET expires_on = ?, issued_on = ? WHERE permit_id = ?";
  db.prepare(update).run(HORIZON, addDays(HORIZON, -365), edge.permit_id);
  const last = getRow<{ id: string }>(db, "SELECT max(inspection_id) AS id FROM inspections")!.id;
  const final = [
    inspectionId.format(Number(last.slice(5)) + 1),
    closed.permit_id,
    addDays(REFERENCE_DATE, -4),
  ];
  const notes = "Final approved. Certificate of completion to follow.";
  db.prepare("INSERT INTO inspections VALUES (?, ?, 'Final', ?, 'Priya Raman', 'pass', ?)").run(
    ...final,
    notes,
  );
}

function cells({ before = "<=", skipFinal = "finals" }): string[] {
  return [
    String.raw`
notices = []
for row in listing("/permits?status=issued", "Permits"):
    snap = page(f"/permits/{row['Permit']}")
    expires = iso(fields(snap)["Expires"])
    finals = [r for r in table(snap, "Inspections") if r["Type"] == "Final" and r["Result"] == "Pass"]
    if TODAY.isoformat() < expires ${before} "${HORIZON}" and not (${skipFinal}):
        notices.append(row["Permit"])
print(json.dumps(sorted(notices)))
`,
  ];
}

export const expiringPermitsTask = definePermitsTask({
  id: "permits.expiring-permits",
  summary:
    "List issued permits expiring in the next 30 days (inclusive) that have no passed Final inspection (memo's courtesy-notice rule).",
  instruction:
    'I\'m preparing this month\'s courtesy notices. Using the permit-expiry section of the inspection policy memo, which permits should get one today? Check the permits themselves on the portal. Reply with a JSON list of their permit numbers, e.g. `["BP-2024-00412", "EP-2024-00433"]`.',
  tools: ["open_page"],
  prepare,
  verify: ({ initial, answer }) => {
    const expected = expiringPermits(initial);
    const actual = [
      ...new Set(parseAnswerList(answer).map((id) => id.replace(/["[\]\s]/g, "").toUpperCase())),
    ];
    const same = JSON.stringify(actual.sort()) === JSON.stringify(expected);
    return [check("answer-permits", same, `expected ${expected.length} permits: ${expected.join(", ")}`)];
  },
  cells,
  nearMisses: {
    "ignores-passed-final": [{ skipFinal: "False" }, "Notifies a permit whose Final passed."],
    "window-end-exclusive": [{ before: "<" }, "Leaves out the permit expiring on day 30."],
  },
});
