import { allRows, requireFile, checkCountedWrites } from "../../../envs/index.js";
import type { Check, Row, StateView, VerifyContext } from "../../../envs/index.js";
import { isoUtc, seconds } from "../clock.js";
import { REQUESTS } from "../documents.js";
import { engineerIdsByHandle } from "../facts.js";
import { defineOncallTask } from "./common.js";

const REQUEST =
  /^(\d+)\. (primary|secondary), (\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}) [A-Z]+ \(UTC([+-]\d{2}):(\d{2})\) until (\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}) [A-Z]+ \(UTC([+-]\d{2}):(\d{2})\): @([\w.-]+) covers$/;

function toUtc(day: string, time: string, hours: string, minutes: string): string {
  const offset = Number(hours) * 60 + Math.sign(Number(hours) || 1) * Number(minutes);
  return isoUtc(seconds(`${day}T${time}:00Z`) - offset * 60);
}

/** Approved cover requests not yet in the paging system, as override rows in UTC. */
export function expectedOverrides(state: StateView): Row[] {
  const ids = engineerIdsByHandle(state);
  const key = (row: Row): string =>
    [row.team, row.role, row.engineer_id, row.starts_at, row.ends_at].join("|");
  const existing = new Set(allRows<Row>(state.db, "SELECT * FROM schedule_overrides").map(key));
  const rows: Row[] = [];
  for (const path of state.listFiles().filter((file) => file.startsWith(REQUESTS))) {
    const text = requireFile(state, path);
    const team = /Team: (\w+)/.exec(text)![1]!;
    const approved = new Set(
      [...(/Approved: ([#\d, ]+)/.exec(text)?.[1]?.matchAll(/#(\d+)/g) ?? [])].map((found) => found[1]),
    );
    for (const line of text.split("\n")) {
      const found = REQUEST.exec(line);
      if (!found || !approved.has(found[1])) continue;
      const row = {
        team,
        role: found[2]!,
        engineer_id: ids.get(found[11]!)!,
        starts_at: toUtc(found[3]!, found[4]!, found[5]!, found[6]!),
        ends_at: toUtc(found[7]!, found[8]!, found[9]!, found[10]!),
      };
      if (!existing.has(key(row))) rows.push(row);
    }
  }
  return rows;
}

function verify(context: VerifyContext): Check[] {
  const expected = expectedOverrides(context.initial);
  if (expected.length === 0) throw new Error("generation produced no approved cover request");
  return checkCountedWrites(context, expected.length, [
    { table: "schedule_overrides", key: "override_id", added: expected },
  ]);
}

function cell(near: Set<string>): string {
  const convert = near.has("local-time-as-utc")
    ? 'return f"{day}T{hhmm}:00Z"'
    : 'at = datetime.fromisoformat(f"{day}T{hhmm}:00{sign}{hours}:{minutes}")\n    return at.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")';
  return String.raw`
def to_utc(day, hhmm, sign, hours, minutes):
    ${convert}

ids = engineer_ids()
existing = {(o["team"], o["role"], o["engineer_id"], o["starts_at"], o["ends_at"]) for o in fetch("list_overrides", "overrides")}
entered = 0
for path in workspace_files("inbox/override-requests"):
    text = read_text(path)
    team = re.search(r"Team: (\w+)", text).group(1)
    decision = re.search(r"Approved: ([#\d, ]+)", text)
    approved = ${near.has("includes-declined") ? 'set(re.findall(r"^(\\d+)\\. ", text, re.M))' : 'set(re.findall(r"#(\\d+)", decision.group(1))) if decision else set()'}
    for m in re.finditer(r"^(\d+)\. (primary|secondary), (\S+) (\S+) [A-Z]+ \(UTC([+-])(\d{2}):(\d{2})\) until (\S+) (\S+) [A-Z]+ \(UTC([+-])(\d{2}):(\d{2})\): @([\w.-]+) covers$", text, re.M):
        if m.group(1) not in approved:
            continue
        row = (team, m.group(2), ids[m.group(13)], to_utc(*m.group(3, 4, 5, 6, 7)), to_utc(*m.group(8, 9, 10, 11, 12)))
        if ${near.has("duplicates-existing") ? "False" : "row in existing"}:
            continue
        call("set_schedule_override", team=row[0], role=row[1], engineer_id=row[2], starts_at=row[3], ends_at=row[4])
        entered += 1
print(f"Entered {entered} overrides")
`;
}

export const syncOverridesTask = defineOncallTask({
  slug: "sync-overrides",
  summary: "Enter the July cover requests that belong in the paging system, as the paging policy says.",
  instruction:
    "Please process the July cover requests in inbox/override-requests/: enter every override the paging policy says belongs in the paging system with set_schedule_override, unless it is already there. Don't enter anything else. Reply with the number of overrides you entered, e.g. `Entered 6 overrides`.",
  tools: ["list_overrides", "set_schedule_override", "list_engineers"],
  verify,
  cell,
  nearMisses: [
    ["local-time-as-utc", "Enters the requester's local times as if they were UTC."],
    ["includes-declined", "Enters the requests the manager declined too."],
    ["duplicates-existing", "Enters approved requests that are already in the paging system again."],
  ],
});
