import {
  allRows,
  check,
  checkStateDiff,
  defineTask,
  parseAnswerNumber,
  requireFile,
} from "../../../envs/index.js";
import type { StateView } from "../../../envs/index.js";
import { INBOX } from "../documents.js";
import { permitsDomain } from "../domain.js";
import { rosterBackups } from "./expectations.js";
import { PERMITS_PY } from "./python.js";

const LEAVE = String.raw`^From: (.+?) <[^>]+>[\s\S]*on leave from (\w+ \d+, \d{4}) through (\w+ \d+, \d{4})`;

/** Scheduled inspections booked with an inspector on a day of their leave, and the roster backup each goes to. */
export function leaveReassignments(state: StateView): Map<string, string> {
  const backups = rosterBackups(state);
  const isoOf = (day: string): string => new Date(`${day} 00:00:00 UTC`).toISOString().slice(0, 10);
  const moves = new Map<string, string>();
  for (const path of state.listFiles().filter((file) => file.startsWith(INBOX))) {
    const [, inspector = "", start = "", end = ""] = new RegExp(LEAVE).exec(requireFile(state, path)) ?? [];
    if (!inspector) continue;
    const rows = allRows<{ inspection_id: string }>(
      state.db,
      "SELECT * FROM inspections WHERE result = 'scheduled' AND inspector = ? AND scheduled_for BETWEEN ? AND ?",
      inspector,
      isoOf(start),
      isoOf(end),
    );
    for (const row of rows) moves.set(row.inspection_id, backups.get(inspector)!);
  }
  if (moves.size === 0) throw new Error("generation produced no booking during a leave");
  return moves;
}

function cells(inWindow: string): string[] {
  return [
    PERMITS_PY,
    String.raw`
backup = {line.split(",")[0]: line.split(",")[3] for line in read_text("staff/inspector-roster.csv").splitlines()[1:]}
to_iso = lambda s: datetime.strptime(s, "%B %d, %Y").date().isoformat()
leaves = []
for path, text in inbox():
    found = re.search(r"${LEAVE}", text)
    if found:
        leaves.append((found.group(1), to_iso(found.group(2)), to_iso(found.group(3))))
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
  verify: ({ initial, final, answer }) => {
    const expected = leaveReassignments(initial);
    const changed = new Map([...expected].map(([id, inspector]) => [id, { inspector }]));
    return [
      ...checkStateDiff(initial.db, final.db, [{ table: "inspections", key: "inspection_id", changed }]),
      check(
        "answer-count",
        parseAnswerNumber(answer) === expected.size,
        `expected ${expected.size} reassignments`,
      ),
    ];
  },
  oracle: cells("start <= day <= end"),
  nearMisses: [
    { id: "all-bookings", description: "Moves bookings after the leave too.", cells: cells("True") },
    {
      id: "start-exclusive",
      description: "Reads the leave's first day as exclusive.",
      cells: cells("start < day <= end"),
    },
  ],
});
