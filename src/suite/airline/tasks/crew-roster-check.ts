import {
  allRows,
  answerObjectEntries,
  cachedStatement,
  check,
  checkStateDiff,
  defineTask,
  groupBy,
  parseAnswerJson,
  parseMarkdownTable,
  renderMarkdown,
  type Check,
  type GenerateContext,
  type StateView,
  type VerifyContext,
  variantNearMisses,
} from "../../../envs/index.js";
import { CREW_DUTY_PATH, CREW_LIMITS } from "../documents.js";
import { airlineDomain } from "../domain.js";
import { AIRLINE_HELPERS } from "./python.js";
import { TODAY, TODAY_TEXT, TOMORROW, minutesOf, ORACLE_OPTIONS } from "./shared.js";

export const ROSTER_CHECKLIST_PATH = "memos/roster-publication-checklist.md";
const CHECKS = ["status", "qualification", "duty", "rest"] as const;

interface DutyRules {
  reportMinutes: number;
  releaseMinutes: number;
  maxDutyHours: Map<string, number>;
  minRestHours: number;
}

export function parseDutyRules(text: string): DutyRules {
  return {
    reportMinutes: Number(/report time, (\d+) minutes before/.exec(text)?.[1]),
    releaseMinutes: Number(/release, (\d+) minutes after/.exec(text)?.[1]),
    maxDutyHours: new Map(parseMarkdownTable(text, "Limits").map((row) => [row[0] ?? "", Number(row[1])])),
    minRestHours: Number(/next: (\d+) hours/.exec(text)?.[1]),
  };
}

interface AssignmentRow {
  crew_id: string;
  role: string;
  status: string;
  qualifications: string;
  flight_id: string;
  flight_date: string;
  scheduled_departure: string;
  scheduled_arrival: string;
  type_code: string;
}

function assignments(state: StateView): AssignmentRow[] {
  return allRows<AssignmentRow>(
    state.db,
    `SELECT a.crew_id, c.role, c.status, c.qualifications, a.flight_id, f.flight_date, f.scheduled_departure,
            f.scheduled_arrival, p.type_code
     FROM crew_assignments a JOIN crew c ON c.crew_id = a.crew_id JOIN flights f ON f.flight_id = a.flight_id
     JOIN aircraft p ON p.tail = f.tail
     ORDER BY a.assignment_id`,
  );
}

interface Duty {
  report: number;
  release: number;
  rows: AssignmentRow[];
}

/** Each crew member's duty period on `day`: from report before their first departure to release after their last arrival. */
function dutiesOn(
  rows: AssignmentRow[],
  day: string,
  rules: { reportMinutes: number; releaseMinutes: number },
): Map<string, Duty> {
  const duties = new Map<string, Duty>();
  for (const row of rows.filter((item) => item.flight_date === day)) {
    const report = minutesOf(row.scheduled_departure) - rules.reportMinutes;
    const release = minutesOf(row.scheduled_arrival) + rules.releaseMinutes;
    const duty = duties.get(row.crew_id) ?? { report, release, rows: [] };
    duties.set(row.crew_id, {
      report: Math.min(duty.report, report),
      release: Math.max(duty.release, release),
      rows: [...duty.rows, row],
    });
  }
  return duties;
}

/** Gives the crew member `from`'s assignments on `day` to `to`. */
function reassign(db: GenerateContext["db"], to: string, from: string, day: string): void {
  cachedStatement(
    db,
    "UPDATE crew_assignments SET crew_id = ? WHERE crew_id = ? AND flight_id IN (SELECT flight_id FROM flights WHERE flight_date = ?)",
  ).run(to, from, day);
}

/** The checklist applied to tomorrow's roster: crew id -> the checks that crew member fails. */
export function expectedFailures(state: StateView): Map<string, string[]> {
  const rules = parseDutyRules(state.readFile(CREW_DUTY_PATH) ?? "");
  const rows = assignments(state);
  const tomorrow = dutiesOn(rows, TOMORROW, rules);
  const today = dutiesOn(rows, TODAY, rules);
  const failures = new Map<string, Set<string>>();
  const fail = (crew: string, what: string): void => {
    failures.set(crew, (failures.get(crew) ?? new Set()).add(what));
  };
  for (const row of rows.filter((item) => item.flight_date === TOMORROW)) {
    if (row.status === "leave") fail(row.crew_id, "status");
    if (!row.qualifications.split(",").includes(row.type_code)) fail(row.crew_id, "qualification");
    const duty = tomorrow.get(row.crew_id);
    if (!duty) continue;
    if (duty.release - duty.report > (rules.maxDutyHours.get(row.role) ?? Infinity) * 60)
      fail(row.crew_id, "duty");
    const previous = today.get(row.crew_id);
    if (previous && duty.report - previous.release < rules.minRestHours * 60) fail(row.crew_id, "rest");
  }
  return new Map(
    [...failures]
      .sort((x, y) => x[0].localeCompare(y[0]))
      .map(([crew, set]) => [crew, CHECKS.filter((name) => set.has(name))]),
  );
}

/**
 * The checklist memo, and the roster problems it exists for: a crew member rostered tomorrow who has gone on
 * leave, a captain swapped onto a rotation of a type they are not qualified on, and a reserve first officer
 * called out onto a rotation (allowed).
 */
function prepare(context: GenerateContext): void {
  const { db, random } = context;
  context.writeFile(
    ROSTER_CHECKLIST_PATH,
    renderMarkdown("Roster publication checklist", [
      "From: Crew Scheduling",
      "No roster goes out before every crew member on it passes these checks, for every flight they are rostered on that day:",
      {
        numbered: [
          "Status: crew on leave cannot be rostered. Reserve crew can: being called out onto a flight is what reserve is for.",
          "Qualification: the crew member is qualified on the aircraft type of the aircraft that operates the flight in the schedule (the type codes in their qualifications).",
          "Duty: the day's duty period stays within the maximum for the crew member's role in the crew duty-time rules.",
          "Rest: the rest between the previous day's release and this day's report is at least the minimum in the crew duty-time rules (crew who were not on duty the previous day pass).",
        ],
      },
      "Report the crew members who fail a check to Crew Scheduling with the checks they fail; we fix the roster before it is published.",
    ]),
  );
  const rows = assignments({ db } as StateView);
  const rosteredOn = (day: string): Set<string> =>
    new Set(rows.filter((row) => row.flight_date === day).map((row) => row.crew_id));
  const busy = new Set([...rosteredOn(TODAY), ...rosteredOn(TOMORROW)]);
  const planted = new Set<string>();
  const rotations = groupBy(
    rows.filter((row) => row.flight_date === TOMORROW),
    (row) => row.crew_id,
  );
  const crew = allRows<{ crew_id: string; role: string; status: string; qualifications: string }>(
    db,
    "SELECT crew_id, role, status, qualifications FROM crew ORDER BY crew_id",
  );
  const byRole = (role: string): string[] =>
    [...rotations.keys()].filter((id) => rotations.get(id)?.[0]?.role === role).sort();
  /** A random rostered `role` member's rotation tomorrow, given to the first free crew member that `fits` its type. */
  const standIn = (
    role: string,
    fits: (member: (typeof crew)[number], type: string) => boolean,
  ): string | undefined => {
    const rostered = random.shuffle(byRole(role))[0];
    if (!rostered) return undefined;
    const type = rotations.get(rostered)?.[0]?.type_code ?? "";
    const member = crew.find(
      (candidate) => candidate.role === role && !busy.has(candidate.crew_id) && fits(candidate, type),
    );
    if (member) reassign(db, member.crew_id, rostered, TOMORROW);
    return member?.crew_id;
  };
  const qualifiedOn = (member: (typeof crew)[number], type: string): boolean =>
    member.qualifications.split(",").includes(type);
  // A captain not qualified on the rotation's type, free today and tomorrow.
  const captain = standIn(
    "captain",
    (member, type) => member.status === "active" && !qualifiedOn(member, type),
  );
  if (captain) {
    busy.add(captain);
    planted.add(captain);
  }
  // A reserve first officer qualified on the type, called out in place of the rostered one.
  const officer = standIn(
    "first_officer",
    (member, type) => member.status === "reserve" && qualifiedOn(member, type),
  );
  if (officer) planted.add(officer);
  // A cabin crew member rostered tomorrow who has since gone on leave.
  const cabin = random.shuffle(byRole("cabin"))[0];
  if (cabin) {
    cachedStatement(db, "UPDATE crew SET status = 'leave' WHERE crew_id = ?").run(cabin);
    planted.add(cabin);
  }
  // The scheduler keeps 11 hours of rest, so no one fails the rest check by itself: an early rotation
  // tomorrow goes to a crew member of the same role, qualified on its type, released late today. (At v0
  // both rotations are day rotations with more than 10 hours between them, so nothing can be planted.)
  plantShortRest(db, planted);
}

function plantShortRest(db: GenerateContext["db"], planted: Set<string>): void {
  const rows = assignments({ db } as StateView);
  const statusOf = new Map(
    allRows<{ crew_id: string; status: string }>(db, "SELECT crew_id, status FROM crew").map((row) => [
      row.crew_id,
      row.status,
    ]),
  );
  const today = dutiesOn(rows, TODAY, CREW_LIMITS);
  const tomorrow = dutiesOn(rows, TOMORROW, CREW_LIMITS);
  const early = [...tomorrow]
    .filter(([crew]) => !planted.has(crew))
    .sort((x, y) => x[1].report - y[1].report || x[0].localeCompare(y[0]));
  const late = [...today]
    .filter(([crew]) => !planted.has(crew) && statusOf.get(crew) === "active")
    .sort((x, y) => y[1].release - x[1].release || x[0].localeCompare(y[0]));
  const qualified = (rows: AssignmentRow[] | undefined, on: AssignmentRow[]): boolean =>
    on.every((row) => rows?.[0]?.qualifications.split(",").includes(row.type_code) ?? false);
  // Someone free tomorrow takes the rotation; failing that, two crew members swap tomorrow's rotations.
  for (const swap of [false, true])
    for (const [crew, duty] of early) {
      const taker = late.find(
        ([other, previous]) =>
          other !== crew &&
          tomorrow.has(other) === swap &&
          previous.rows[0]?.role === duty.rows[0]?.role &&
          qualified(previous.rows, duty.rows) &&
          (!swap ||
            (statusOf.get(crew) === "active" && qualified(duty.rows, tomorrow.get(other)?.rows ?? []))) &&
          duty.report - previous.release < CREW_LIMITS.minRestHours * 60,
      );
      if (!taker) continue;
      const theirs = allRows<{ assignment_id: number }>(
        db,
        "SELECT assignment_id FROM crew_assignments WHERE crew_id = ? AND flight_id IN (SELECT flight_id FROM flights WHERE flight_date = ?)",
        taker[0],
        TOMORROW,
      );
      reassign(db, taker[0], crew, TOMORROW);
      for (const { assignment_id } of theirs)
        cachedStatement(db, "UPDATE crew_assignments SET crew_id = ? WHERE assignment_id = ?").run(
          crew,
          assignment_id,
        );
      return;
    }
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const expected = expectedFailures(initial);
  const entries = Array.isArray(parseAnswerJson(answer)) ? null : answerObjectEntries(answer);
  const given =
    entries &&
    new Map(
      entries.map(([crew, checks]) => [
        crew.trim().toUpperCase(),
        new Set((Array.isArray(checks) ? checks : [checks]).map((item) => String(item).trim().toLowerCase())),
      ]),
    );
  const crewOk =
    given !== null && given.size === expected.size && [...expected.keys()].every((crew) => given.has(crew));
  const checksOk =
    crewOk &&
    [...expected].every(
      ([crew, checks]) =>
        given?.get(crew)?.size === checks.length && checks.every((name) => given.get(crew)?.has(name)),
    );
  const expectedText = JSON.stringify(Object.fromEntries(expected));
  return [
    check(
      "crew-failing",
      crewOk,
      crewOk ? "the right crew members" : `expected ${expectedText}, found '${answer.slice(0, 300)}'`,
    ),
    check("checks-failed", checksOk, checksOk ? "the right checks" : `expected ${expectedText}`),
    ...checkStateDiff(initial.db, final.db, []),
  ];
}

interface Options {
  noQualification?: boolean;
  reserveFails?: boolean;
  noStatus?: boolean;
}

function cells(options: Options = {}): string[] {
  const statusTest = options.noStatus
    ? "False"
    : options.reserveFails
      ? 'member["status"] != "active"'
      : 'member["status"] == "leave"';
  return [
    AIRLINE_HELPERS,
    String.raw`
rules = read_text("policies/crew-duty-time.md")
checklist = read_text("memos/roster-publication-checklist.md")
print(checklist)
report_before = int(re.search(r"report time, (\d+) minutes before", rules).group(1))
release_after = int(re.search(r"release, (\d+) minutes after", rules).group(1))
max_duty = {row[0]: float(row[1]) for row in md_table(rules, "Limits")}
min_rest = float(re.search(r"next: (\d+) hours", rules).group(1))
print(report_before, release_after, max_duty, min_rest)
`,
    String.raw`
roster = fetch("list_crew_assignments", "assignments", date=TOMORROW)
crew = {member["crew_id"]: member for member in fetch("list_crew", "crew")}
types = {plane["tail"]: plane["type_code"] for plane in fetch("list_aircraft", "aircraft")}
tails = {flight["flight_id"]: flight["tail"] for flight in fetch("list_flights", "flights", date=TOMORROW)}
on_roster = sorted({row["crew_id"] for row in roster})
print(len(roster), "assignments,", len(on_roster), "crew")
`,
    String.raw`
def duty_of(rows):
    report = min(datetime.fromisoformat(r["scheduled_departure"]) for r in rows) - timedelta(minutes=report_before)
    release = max(datetime.fromisoformat(r["scheduled_arrival"]) for r in rows) + timedelta(minutes=release_after)
    return report, release

failures = {}
for crew_id in on_roster:
    member = crew[crew_id]
    mine = fetch("list_crew_assignments", "assignments", crew_id=crew_id)
    tomorrow = [r for r in mine if r["flight_date"] == TOMORROW]
    today = [r for r in mine if r["flight_date"] == TODAY]
    failed = []
    if ${statusTest}:
        failed.append("status")
    quals = member["qualifications"].split(",")
    if ${options.noQualification ? "False" : 'any(types[tails[r["flight_id"]]] not in quals for r in tomorrow)'}:
        failed.append("qualification")
    report, release = duty_of(tomorrow)
    if (release - report).total_seconds() / 3600 > max_duty[member["role"]]:
        failed.append("duty")
    if today:
        _, previous_release = duty_of(today)
        if (report - previous_release).total_seconds() / 3600 < min_rest:
            failed.append("rest")
    if failed:
        failures[crew_id] = failed
print(json.dumps(failures))
`,
  ];
}

export const crewRosterCheckTask = defineTask({
  id: "airline.crew-roster-check",
  domain: airlineDomain,
  summary:
    "Run Crew Scheduling's roster publication checklist on tomorrow's roster: crew status (leave fails, reserve is fine), qualification on the type of the aircraft operating each flight, duty period against the role's maximum and rest since today's release from the duty-time rules; one crew listing per rostered crew member.",
  instruction: `Crew Scheduling here. ${TODAY_TEXT} Before we publish tomorrow's roster, please run the checks of our roster publication checklist on every crew member rostered tomorrow. Reply with only a JSON object {"<crew_id>": [<the checks that crew member fails, each one of "status", "qualification", "duty", "rest">], ...} listing only the crew members who fail at least one check.`,
  tools: [
    "list_crew",
    "list_crew_assignments",
    "list_flights",
    "get_flight",
    "list_aircraft",
    "get_aircraft",
  ],
  prepare,
  verify,
  oracle: cells(),
  nearMisses: variantNearMisses(cells, ORACLE_OPTIONS, {
    "ignores-qualification": [
      { noQualification: true },
      "Checks status and duty time but never compares qualifications with the aircraft type.",
    ],
    "reserve-fails-status": [
      { reserveFails: true },
      "Treats reserve crew called out onto a flight as a status failure.",
    ],
    "ignores-status": [{ noStatus: true }, "Never looks at crew status, so a crew member on leave passes."],
  }),
});
