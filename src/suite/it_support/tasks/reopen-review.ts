import type Database from "better-sqlite3";
import {
  check,
  checkOtherTablesUnchanged,
  defineTask,
  variantNearMisses,
  parseAnswerJson,
  type Check,
  type GenerateContext,
  type VerifyContext,
} from "../../../envs/index.js";
import { isoToMinutes, minutesToIso } from "../business-time.js";
import { itSupportDomain } from "../domain.js";
import { PYTHON_HELPERS } from "../oracle-cells.js";
import { readSnapshotMinutes } from "../task-support.js";

export const REOPEN_POLICY_PATH = "policies/reopen-review.md";
const WINDOW_DAYS = 182;
const DAY = 24 * 60;

const POLICY = `# Reopen review

The Service Desk lead reviews twice a year how often resolved tickets come back. The numbers go into
the customer quality report, so please follow these definitions exactly.

- **Review window**: the ${WINDOW_DAYS} days (26 weeks) up to the data snapshot, i.e. every status change at or
  after the snapshot instant minus ${WINDOW_DAYS} days. Earlier history is not part of the review.
- **Resolutions**: every status change into \`resolved\` inside the window. A ticket that was resolved,
  reopened and resolved again counts twice.
- **Reopens**: every status change from \`resolved\` back to \`open\` inside the window. A ticket that
  returns to \`open\` from \`pending\` or \`on_hold\` was never resolved and is not a reopen.
- **Team**: each change counts for the team whose queue holds the ticket now.
- Report every team with at least one resolution in the window.

Use the reporting API (\`export_status_changes\`) for the history; it is rate limited, so expect to
retry.
`;

/**
 * Writes the review policy and plants reopened tickets: 3 + 2 x rows tickets inside the window are
 * reopened by the customer a few hours after resolution and resolved again, one of them twice. The
 * tickets were resolved at least a week before the snapshot, so that the planted history (at most
 * two rounds of 40 + 30 hours) ends before it.
 */
function prepare(context: GenerateContext): void {
  const { db, random, factors } = context;
  context.writeFile(REOPEN_POLICY_PATH, POLICY);
  const snapshot = readSnapshotMinutes(db);
  const start = snapshot - WINDOW_DAYS * DAY;
  const candidates = db
    .prepare(
      `SELECT id, resolved_at, assignee_agent_id FROM tickets
       WHERE status IN ('resolved', 'closed') AND resolved_at >= ? AND resolved_at < ? ORDER BY id`,
    )
    .all(minutesToIso(start + 2 * DAY), minutesToIso(snapshot - 7 * DAY)) as Array<{
    id: number;
    resolved_at: string;
    assignee_agent_id: number | null;
  }>;
  const insert = db.prepare(
    `INSERT INTO ticket_events (ticket_id, event_type, actor_agent_id, created_at, from_value, to_value, body)
     VALUES (?, 'status_change', ?, ?, ?, ?, ?)`,
  );
  const update = db.prepare(
    "UPDATE tickets SET status = ?, resolved_at = ?, closed_at = ?, updated_at = ? WHERE id = ?",
  );
  const chosen = random.shuffle(candidates).slice(0, 3 + 2 * factors.rows);
  chosen.forEach((ticket, index) => {
    let resolved = isoToMinutes(ticket.resolved_at);
    for (let round = 0; round < (index === 0 ? 2 : 1); round += 1) {
      const reopened = resolved + random.int(2, 40) * 60;
      insert.run(
        ticket.id,
        null,
        minutesToIso(reopened),
        "resolved",
        "open",
        "Customer replied: the problem is back.",
      );
      resolved = reopened + random.int(1, 30) * 60;
      insert.run(
        ticket.id,
        ticket.assignee_agent_id,
        minutesToIso(resolved),
        "open",
        "resolved",
        "Fixed again.",
      );
    }
    const closed = resolved + 3 * DAY;
    update.run(
      closed < snapshot ? "closed" : "resolved",
      minutesToIso(resolved),
      closed < snapshot ? minutesToIso(closed) : null,
      minutesToIso(Math.min(closed, snapshot - 1)),
      ticket.id,
    );
  });
}

/** Resolutions and reopens per current team name inside the review window. */
export function expectedReopenCounts(
  db: Database.Database,
): Map<string, { resolved: number; reopened: number }> {
  const start = minutesToIso(readSnapshotMinutes(db) - WINDOW_DAYS * DAY);
  const rows = db
    .prepare(
      `SELECT teams.name AS team,
         SUM(e.to_value = 'resolved') AS resolved,
         SUM(e.from_value = 'resolved' AND e.to_value = 'open') AS reopened
       FROM ticket_events e JOIN tickets t ON t.id = e.ticket_id JOIN teams ON teams.id = t.team_id
       WHERE e.event_type = 'status_change' AND e.created_at >= ?
       GROUP BY teams.name HAVING SUM(e.to_value = 'resolved') > 0 ORDER BY teams.name`,
    )
    .all(start) as Array<{ team: string; resolved: number; reopened: number }>;
  return new Map(rows.map((row) => [row.team, { resolved: row.resolved, reopened: row.reopened }]));
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const expected = expectedReopenCounts(initial.db);
  const parsed = parseAnswerJson(answer);
  const given =
    parsed && typeof parsed === "object" && !Array.isArray(parsed)
      ? new Map(
          Object.entries(parsed as Record<string, unknown>).map(([team, value]) => [
            team.trim().toLowerCase(),
            value as { resolved?: unknown; reopened?: unknown } | null,
          ]),
        )
      : null;
  const problems: string[] = [];
  if (given === null) problems.push("the answer is not a JSON object keyed by team name");
  else {
    for (const [team, counts] of expected) {
      const value = given.get(team.toLowerCase());
      if (Number(value?.resolved) !== counts.resolved || Number(value?.reopened) !== counts.reopened)
        problems.push(
          `${team}: expected ${counts.resolved} resolved / ${counts.reopened} reopened, got ${JSON.stringify(value ?? null)}`,
        );
    }
    const known = new Set([...expected.keys()].map((team) => team.toLowerCase()));
    // A team listed with nothing is harmless; one listed with counts had none to report.
    for (const [team, value] of given)
      if (!known.has(team) && (Number(value?.resolved ?? 0) !== 0 || Number(value?.reopened ?? 0) !== 0))
        problems.push(`${team} had no resolution in the window`);
  }
  return [
    check(
      "reopen-counts",
      problems.length === 0,
      problems.length === 0 ? `all ${expected.size} teams right` : problems.slice(0, 8).join("; "),
    ),
    checkOtherTablesUnchanged(initial.db, final.db, []),
  ];
}

interface ReopenVariant {
  retry: boolean;
  fromResolvedOnly: boolean;
  window: boolean;
}

function reopenCells(variant: ReopenVariant): string[] {
  return [
    `${PYTHON_HELPERS}
handbook = read_text("policies/service-desk-handbook.md")
policy = read_text("policies/reopen-review.md")
print(policy)
now = ts(re.search(r"captured at \\*\\*([0-9T:\\-]+Z)\\*\\*", handbook).group(1))
days = int(re.search(r"the (\\d+) days \\(26 weeks\\)", policy).group(1))
window_start = (now - timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%SZ")
team_names = {team["id"]: team["name"] for team in fetch_all("list_teams", "teams")}
print("now", now, "window from", window_start, team_names)`,
    `def export_all(**filters):
    items, page = [], 1
    while True:
        result = None
        for attempt in range(5):
            try:
                result = tools.export_status_changes(page=page, per_page=50, **filters)
                break
            except Exception as error:
                print("page", page, "-", error)
                ${variant.retry ? "continue" : "break"}
        if result is None:
            page += 1
            continue
        items.extend(result["changes"])
        if not result["has_more"]:
            return items
        page += 1

changes = export_all(${variant.window ? "changed_from=window_start" : ""})
counts = {}
for change in changes:
    team = team_names[change["ticket_team_id"]]
    entry = counts.setdefault(team, {"resolved": 0, "reopened": 0})
    if change["to_status"] == "resolved":
        entry["resolved"] += 1
    if change["to_status"] == "open" and ${variant.fromResolvedOnly ? 'change["from_status"] == "resolved"' : 'change["from_status"] != "new"'}:
        entry["reopened"] += 1
print(len(changes), "status changes")`,
    `print(json.dumps({team: entry for team, entry in sorted(counts.items()) if entry["resolved"] > 0}))`,
  ];
}

const FULL: ReopenVariant = { retry: true, fromResolvedOnly: true, window: true };

export const reopenReviewTask = defineTask({
  id: "it_support.reopen-review",
  domain: itSupportDomain,
  summary:
    "Resolutions and customer reopens per current team over the last 26 weeks, paging through the rate-limited reporting export (429s to retry); only resolved -> open counts as a reopen.",
  instruction:
    'For the customer quality report, run the reopen review described in policies/reopen-review.md as of the data snapshot (see the service desk handbook). Do not change any tickets. Reply with only a JSON object mapping each team name to {"resolved": number, "reopened": number}.',
  tools: ["list_teams", "list_tickets", "get_ticket", "export_status_changes"],
  prepare,
  verify,
  oracle: reopenCells(FULL),
  nearMisses: variantNearMisses(reopenCells, FULL, {
    "skips-rate-limited-pages": [
      { retry: false },
      "Moves on to the next page when the reporting API answers 429, losing that page.",
    ],
    "any-return-to-open": [
      { fromResolvedOnly: false },
      "Counts tickets coming back to open from pending or on hold as reopens.",
    ],
    "ignores-window": [{ window: false }, "Exports the whole history instead of the 26-week review window."],
  }),
});
