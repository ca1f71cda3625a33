import { allRows, check, checkStateDiff, defineTask, parseAnswerNumber } from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { INBOX } from "../documents.js";
import { permitsDomain } from "../domain.js";
import { requireFile, rosterBackups } from "./expectations.js";
import { PERMITS_PY } from "./python.js";

const LEAVE = /^From: (.+?) <[^>]+>[\s\S]*on leave from (\w+ \d+, \d{4}) through (\w+ \d+, \d{4})/;

function isoOf(longDate: string): string {
  return new Date(`${longDate} 00:00:00 UTC`).toISOString().slice(0, 10);
}

/** Scheduled inspections booked with an inspector on a day of their leave, and the roster backup each goes to. */
export function leaveReassignments(state: StateView): Map<string, string> {
  const backups = rosterBackups(state);
  const moves = new Map<string, string>();
  for (const path of state.listFiles().filter((file) => file.startsWith(INBOX)).sort()) {
    const found = LEAVE.exec(requireFile(state, path));
    if (!found) continue;
    const backup = backups.get(found[1]!);
    if (!backup) throw new Error(`${found[1]} is not on the roster`);
    const rows = allRows<{ inspection_id: string }>(
      state.db,
      "SELECT inspection_id FROM inspections WHERE result = 'scheduled' AND inspector = ? AND scheduled_for BETWEEN ? AND ?",
      found[1],
      isoOf(found[2]!),
      isoOf(found[3]!),
    );
    for (const row of rows) moves.set(row.inspection_id, backup);
  }
  return moves;
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const expected = leaveReassignments(initial);
  if (expected.size === 0) throw new Error("generation produced no booking during a leave");
  return [
    ...checkStateDiff(initial.db, final.db, [
      {
        table: "inspections",
        key: "inspection_id",
        changed: new Map([...expected].map(([id, inspector]) => [id, { inspector }])),
      },
    ]),
    check("answer-count", parseAnswerNumber(answer) === expected.size, `expected ${expected.size} reassignments`),
  ];
}

interface Variant {
  allBookings?: boolean;
  startExclusive?: boolean;
}

function cells(variant: Variant): string[] {
  const inWindow = variant.allBookings ? "True" : `start ${variant.startExclusive ? "<" : "<="} day <= end`;
  return [
    PERMITS_PY,
    String.raw`
backup = {}
for line in read_text("staff/inspector-roster.csv").splitlines()[1:]:
    cols = line.split(",")
    backup[cols[0]] = cols[3]
leaves = []
for path, text in inbox():
    found = re.search(r"^From: (.+?) <[^>]+>[\s\S]*on leave from (\w+ \d+, \d{4}) through (\w+ \d+, \d{4})", text)
    if found:
        to_iso = lambda s: datetime.strptime(s, "%B %d, %Y").date().isoformat()
        leaves.append((found.group(1), to_iso(found.group(2)), to_iso(found.group(3))))
print(leaves)
`,
    String.raw`
moved = []
for row in listing("/inspections?result=scheduled", "Inspections"):
    day = iso(row["Date"])
    for name, start, end in leaves:
        if row["Inspector"] == name and ${inWindow}:
            submit(f"/inspections/{row['Inspection']}/reassign", inspector=backup[name])
            moved.append(row["Inspection"])
print(f"Reassigned {len(moved)} inspections")
`,
  ];
}

export const reassignLeaveCoverageTask = defineTask({
  id: "permits.reassign-leave-coverage",
  domain: permitsDomain,
  summary:
    "Move bookings of inspectors on leave (leave notices in the inbox, both days inclusive) to their roster backups; bookings outside the leave stay.",
  instruction:
    "Some inspectors have sent out-of-office notices to the shared inbox. Please apply the leave-coverage rule from the inspection policy memo to the scheduled inspections on the portal. Leave every other booking as it is. Reply with the number of inspections you reassigned, e.g. `Reassigned 6 inspections`.",
  tools: ["open_page", "submit_form"],
  verify,
  oracle: cells({}),
  nearMisses: [
    { id: "all-bookings", description: "Moves every booking of an inspector on leave, even after the leave ends.", cells: cells({ allBookings: true }) },
    { id: "start-exclusive", description: "Reads the leave's first day as exclusive.", cells: cells({ startExclusive: true }) },
  ],
});
