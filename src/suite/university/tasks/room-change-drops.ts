import type Database from "better-sqlite3";
import {
  addDays,
  checkStateDiff,
  defineTask,
  parseAnswerList,
  renderEmail,
  type Check,
  type GenerateContext,
  type StateView,
  type VerifyContext,
  allRows,
  variantNearMisses,
} from "../../../envs/index.js";
import { universityDomain } from "../domain.js";
import { CALENDAR_PATH, HANDBOOK_PATH, parseCalendar, parseHandbook, type Handbook } from "../documents.js";
import { PYTHON_PRELUDE, compareIds, gradedAndCurrentTerms, handbookOf } from "./shared.js";

export const INBOX_FOLDER = "inbox";
const FACILITIES = "Facilities Scheduling <scheduling@northbridge.edu>";
const REGISTRAR = "Office of the Registrar <registrar@northbridge.edu>";

interface SectionRow {
  section_id: number;
  course_code: string;
  section_number: string;
  room: string;
  capacity: number;
}

interface Registration {
  enrollment_id: number;
  student_id: string;
  program_code: string;
  enrolled_on: string;
}

function openRegistrations(db: Database.Database, sectionId: number): Registration[] {
  return allRows<Registration>(
    db,
    `SELECT e.enrollment_id, e.student_id, p.code AS program_code, e.enrolled_on
       FROM enrollments e JOIN students s ON s.student_id = e.student_id JOIN programs p ON p.program_id = s.program_id
       WHERE e.section_id = ? AND e.status = 'enrolled' ORDER BY e.enrollment_id`,
    sectionId,
  );
}

function coreByProgram(handbook: Handbook): Map<string, Set<string>> {
  return new Map(handbook.programs.map((program) => [program.code, new Set(program.core)]));
}

function roomLine(section: SectionRow, room: string, seats: number, enough: boolean): string {
  return enough
    ? `- ${section.course_code}, section ${section.section_number}: from ${section.room} to ${room}, which seats ${seats}, so nothing changes for registration.`
    : `- ${section.course_code}, section ${section.section_number}: from ${section.room} to ${room}. The new room seats ${seats}.`;
}

/** Fewer registrations than this in a moved section would make the new room a broom cupboard. */
const MINIMUM_MOVED_SECTION = 14;

/**
 * Moves in-person sections of the term in progress to new rooms: some too small for their registrations
 * (a student whose program has the course as core registered last, where possible; in the first one, two
 * registrations on either side of the cut made on the same day, so the enrollment-id tie-break decides),
 * one whose first assignment a later correction overrides, one that gets a larger room. Small moved
 * sections first get more registrations (up to MINIMUM_MOVED_SECTION) so that no new room seats only a
 * handful. Every new room is a room no section of the term uses and no other moved section gets. Writes
 * the three e-mails.
 */
function prepare(context: GenerateContext): void {
  const { db, random, factors, referenceDate } = context;
  const { current } = gradedAndCurrentTerms(db);
  const currentName =
    parseCalendar(context.readFile(CALENDAR_PATH) ?? "").find((term) => term.code === current)?.name ??
    current;
  const core = coreByProgram(parseHandbook(context.readFile(HANDBOOK_PATH) ?? ""));
  const sections = random.shuffle(
    allRows<SectionRow>(
      db,
      `SELECT s.section_id, c.code AS course_code, s.section_number, s.room, s.capacity
         FROM sections s JOIN courses c ON c.course_id = s.course_id
         WHERE s.term = ? AND s.room != 'ONLINE' ORDER BY s.section_id`,
      current,
    ),
  );
  const isCore = (section: SectionRow, registration: Registration): boolean =>
    core.get(registration.program_code)?.has(section.course_code) ?? false;
  const candidates = sections
    .map((section) => ({ section, registrations: openRegistrations(db, section.section_id) }))
    .filter(
      ({ section, registrations }) => registrations.filter((item) => !isCore(section, item)).length >= 2,
    );
  // Sections with a core student first, so that the seat rule matters at every scale.
  const withCore = candidates.filter(({ section, registrations }) =>
    registrations.some((item) => isCore(section, item)),
  );
  const withoutCore = candidates.filter((item) => !withCore.includes(item));
  const shrinkCount = Math.min(withCore.length + withoutCore.length - 1, 1 + factors.rows);
  const ordered = [...withCore, ...withoutCore].map((item, index) =>
    index <= shrinkCount ? { ...item, registrations: padSection(context, item.section) } : item,
  );
  const setEnrolledOn = db.prepare("UPDATE enrollments SET enrolled_on = ? WHERE enrollment_id = ?");
  const lines: string[] = [];
  const taken = new Set(sections.map((section) => section.room));
  const newRoom = (section: SectionRow): string => {
    const building = section.room.replace(/ \d+$/, "");
    for (let attempt = 0; ; attempt += 1) {
      const room = `${building} ${attempt < 40 ? random.int(101, 129) : 130 + attempt}`;
      if (!taken.has(room)) {
        taken.add(room);
        return room;
      }
    }
  };
  for (const [index, { section, registrations }] of ordered.slice(0, shrinkCount).entries()) {
    const noncore = registrations.filter((item) => !isCore(section, item));
    const coreStudent = registrations.find((item) => isCore(section, item));
    if (coreStudent) {
      // The core student registered last: the plain "latest first" rule would drop them.
      const latest = registrations.reduce(
        (max, item) => (item.enrolled_on > max ? item.enrolled_on : max),
        "",
      );
      setEnrolledOn.run(addDays(latest, 1), coreStudent.enrollment_id);
    }
    const excess = random.int(1, Math.min(3, noncore.length - 1));
    if (index === 0) {
      // The last registration to go and the first to stay were made on the same day.
      const order = [...noncore].sort(
        (left, right) =>
          right.enrolled_on.localeCompare(left.enrolled_on) || right.enrollment_id - left.enrollment_id,
      );
      const lastDropped = order[excess - 1];
      const firstKept = order[excess];
      if (lastDropped && firstKept) setEnrolledOn.run(lastDropped.enrolled_on, firstKept.enrollment_id);
    }
    lines.push(roomLine(section, newRoom(section), registrations.length - excess, false));
  }
  const corrected = ordered[shrinkCount];
  let correction: string | null = null;
  if (corrected) {
    const count = corrected.registrations.length;
    lines.push(roomLine(corrected.section, newRoom(corrected.section), count - 1, false));
    const room = newRoom(corrected.section);
    correction = `- ${corrected.section.course_code}, section ${corrected.section.section_number} goes to ${room} after all, not to the room in my earlier message. ${room} seats ${count + random.int(0, 6)}.`;
  }
  const roomy = sections.find(
    (section) => !ordered.slice(0, shrinkCount + 1).some((item) => item.section === section),
  );
  if (roomy) lines.push(roomLine(roomy, newRoom(roomy), roomy.capacity + 10, true));

  const sent = addDays(referenceDate, -6);
  context.writeFile(
    `${INBOX_FOLDER}/${sent}-facilities-room-reassignments.txt`,
    renderEmail(
      {
        From: FACILITIES,
        To: REGISTRAR,
        Date: sent,
        Subject: `${currentName} room reassignments`,
      },
      `Hello Registrar's Office,

The summer renovation work will not be finished in time, so we have had to move several ${currentName}
classes. The new rooms are below; the building stays the same in every case.

${random.shuffle(lines).join("\n")}

Room capacities are the fire-code seat counts and cannot be exceeded. Instructors have been told.

Best,
Facilities Scheduling`,
    ),
  );
  if (correction) {
    const later = addDays(referenceDate, -3);
    context.writeFile(
      `${INBOX_FOLDER}/${later}-facilities-correction.txt`,
      renderEmail(
        {
          From: FACILITIES,
          To: REGISTRAR,
          Date: later,
          Subject: `Correction: ${currentName} room reassignments`,
        },
        `Hello again,

One correction to our message of ${sent}; everything else in it stands.

${correction}

Sorry for the confusion.
Facilities Scheduling`,
      ),
    );
  }
  const dean = addDays(referenceDate, -5);
  context.writeFile(
    `${INBOX_FOLDER}/${dean}-associate-dean-seat-rules.txt`,
    renderEmail(
      {
        From: "Associate Dean for Graduate Academic Affairs <gradaffairs@northbridge.edu>",
        To: REGISTRAR,
        Date: dean,
        Subject: `Re: ${currentName} room reassignments`,
      },
      `Dear colleagues,

Where one of these room changes leaves a section with more registered students than the new room
seats, please drop registrations until the section fits, as follows. Students for whom the course is a
core course of their own program (see the program handbook) keep their seats in any case. Among the
other students, the most recent registrations go first: the latest registration date first and, for
registrations made on the same day, the higher enrollment id first. Drop no more registrations than
needed, and mention the room change in the reason. My office will write to the students.

With thanks,
Associate Dean for Graduate Academic Affairs`,
    ),
  );
}

/**
 * Registers more active students in a section (on dates its registrations were made) until it has
 * MINIMUM_MOVED_SECTION registrations or is full; returns its registrations.
 */
function padSection(context: GenerateContext, section: SectionRow): Registration[] {
  const { db, random } = context;
  const registrations = openRegistrations(db, section.section_id);
  const missing = Math.min(MINIMUM_MOVED_SECTION, section.capacity) - registrations.length;
  if (missing <= 0) return registrations;
  const students = allRows<{ student_id: string }>(
    db,
    `SELECT student_id FROM students WHERE enrollment_status = 'active' AND student_id NOT IN
         (SELECT student_id FROM enrollments WHERE section_id = ?) ORDER BY student_id`,
    section.section_id,
  );
  const dates = registrations.map((item) => item.enrolled_on);
  const insert = db.prepare(
    "INSERT INTO enrollments (student_id, section_id, status, grade, enrolled_on, grade_posted_on) VALUES (?, ?, 'enrolled', NULL, ?, NULL)",
  );
  for (const student of random.shuffle(students).slice(0, missing))
    insert.run(student.student_id, section.section_id, random.pick(dates));
  return openRegistrations(db, section.section_id);
}

const SEAT_LINE = /^- ([A-Z]+ \d{3}),? section (\d{3})\b.*?seats (\d+)/gm;

/** Seats per section (course code + section number), the later message overriding the earlier one. */
function seatsFromInbox(state: StateView): Map<string, number> {
  const seats = new Map<string, number>();
  const messages = state
    .listFiles()
    .filter((path) => path.startsWith(`${INBOX_FOLDER}/`) && path.includes("facilities"))
    .sort();
  for (const path of messages)
    for (const match of (state.readFile(path) ?? "").matchAll(SEAT_LINE))
      seats.set(`${match[1]}|${match[2]}`, Number(match[3]));
  return seats;
}

/** The registrations the room changes drop: the latest non-core registrations beyond the new seats. */
export function expectedRoomDrops(state: StateView): number[] {
  const { db } = state;
  const { current } = gradedAndCurrentTerms(db);
  const core = coreByProgram(handbookOf(state));
  const drops: number[] = [];
  for (const [key, seats] of seatsFromInbox(state)) {
    const [courseCode, sectionNumber] = key.split("|");
    const section = db
      .prepare(
        `SELECT s.section_id, c.code AS course_code, s.section_number, s.room, s.capacity
         FROM sections s JOIN courses c ON c.course_id = s.course_id
         WHERE s.term = ? AND c.code = ? AND s.section_number = ?`,
      )
      .get(current, courseCode, sectionNumber) as SectionRow | undefined;
    if (!section) throw new Error(`the inbox names a section that does not exist: ${key}`);
    const registrations = openRegistrations(db, section.section_id);
    const excess = registrations.length - seats;
    if (excess <= 0) continue;
    const droppable = registrations
      .filter((item) => !(core.get(item.program_code)?.has(section.course_code) ?? false))
      .sort(
        (left, right) =>
          right.enrolled_on.localeCompare(left.enrolled_on) || right.enrollment_id - left.enrollment_id,
      );
    drops.push(...droppable.slice(0, excess).map((item) => item.enrollment_id));
  }
  return drops.sort((left, right) => left - right);
}

function verify(context: VerifyContext): Check[] {
  const { initial, final, answer } = context;
  const expected = expectedRoomDrops(initial);
  return [
    ...checkStateDiff(initial.db, final.db, [
      {
        table: "enrollments",
        key: "enrollment_id",
        changed: new Map(expected.map((id) => [id, { status: "dropped" }])),
      },
      {
        table: "registrar_actions",
        key: "action_id",
        added: expected.map((id) => ({
          action_type: "enrollment_drop",
          enrollment_id: id,
          new_value: "dropped",
        })),
      },
    ]),
    compareIds(
      "answer",
      "answered enrollment ids",
      expected.map(String),
      parseAnswerList(answer).map((item) => String(Number(item))),
    ),
  ];
}

interface RoomVariant {
  coreProtected: boolean;
  latestFirst: boolean;
  corrections: boolean;
  /** Whether same-day registrations are ordered by enrollment id (higher first) as the e-mail says. */
  tieBreak: boolean;
}

function roomCells(variant: RoomVariant): string[] {
  return [
    PYTHON_PRELUDE,
    `handbook = read_text("handbook/graduate-program-handbook.md")
core = {}
for block in handbook.split("\\n### ")[1:]:
    code = re.match(r".+ \\(([A-Z]+)\\)", block).group(1)
    core[code] = [item.strip() for item in re.search(r"Core courses \\([^)]*\\): (.+)", block).group(1).split(",")]
messages = sorted(p for p in files if p.startswith("inbox/"))
for path in messages:
    print("=====", path)
    print(read_text(path))`,
    `seats = {}
for path in messages:
    if "facilities" not in path${variant.corrections ? "" : ' or "correction" in path'}:
        continue
    for course, number, count in re.findall(r"^- ([A-Z]+ \\d{3}),? section (\\d{3})\\b.*?seats (\\d+)", read_text(path), re.M):
        seats[(course, number)] = int(count)
in_progress = tools.list_enrollments(status="enrolled", per_page=1)["enrollments"][0]["term"]
sections = {(s["course_code"], s["section_number"]): s for s in fetch_all("list_sections", "sections", term=in_progress)}
program_of = {s["student_id"]: s["program_code"] for s in fetch_all("list_students", "students")}
print(in_progress, seats)`,
    `to_drop = []
for (course, number), count in sorted(seats.items()):
    section = sections[(course, number)]
    registered = fetch_all("list_enrollments", "enrollments", section_id=section["section_id"], status="enrolled")
    excess = len(registered) - count
    print(course, number, "registered", len(registered), "seats", count)
    if excess <= 0:
        continue
    candidates = [e for e in registered if ${variant.coreProtected ? 'course not in core.get(program_of[e["student_id"]], [])' : "True"}]
    candidates.sort(key=lambda e: ${variant.tieBreak ? '(e["enrolled_on"], e["enrollment_id"])' : 'e["enrolled_on"]'}, reverse=${variant.latestFirst ? "True" : "False"})
    to_drop += [(e["enrollment_id"], course, number) for e in candidates[:excess]]
for enrollment_id, course, number in to_drop:
    tools.drop_enrollment(enrollment_id=enrollment_id, reason=f"{course} section {number} moved to a smaller room; seat rules of the Associate Dean")
print("dropped", len(to_drop))`,
    `print(json.dumps(sorted(enrollment_id for enrollment_id, _, _ in to_drop)))`,
  ];
}

const FULL: RoomVariant = { coreProtected: true, latestFirst: true, corrections: true, tieBreak: true };

export const roomChangeDropsTask = defineTask({
  id: "university.room-change-drops",
  domain: universityDomain,
  summary:
    "Apply Facilities' room-change e-mails (one corrected later) to the term in progress: drop the latest non-core registrations of every section that no longer fits, per the Associate Dean's e-mail; checked by state difference.",
  instruction:
    "Facilities has moved some of the coming term's classes to other rooms; the e-mails are in the inbox folder. For every section that now has more registered students than its new room seats, drop registrations with the drop_enrollment tool, following the Associate Dean's e-mail on who keeps a seat, until the section fits. Change nothing else. Reply with only a JSON array of the enrollment ids you dropped, sorted.",
  tools: [
    "list_programs",
    "list_students",
    "get_student",
    "list_sections",
    "get_section",
    "list_enrollments",
    "get_course",
    "drop_enrollment",
  ],
  prepare,
  verify,
  oracle: roomCells(FULL),
  nearMisses: variantNearMisses(roomCells, FULL, {
    "drops-core-students": [
      { coreProtected: false },
      "Drops the latest registrations regardless of whether the course is core for the student.",
    ],
    "drops-earliest": [
      { latestFirst: false },
      "Drops the earliest registrations instead of the most recent ones.",
    ],
    "ignores-correction": [
      { corrections: false },
      "Uses the first room assignment and misses Facilities' correction.",
    ],
    "ignores-same-day-order": [
      { tieBreak: false },
      "Orders registrations by date only, so of two made on the same day the lower enrollment id goes first.",
    ],
  }),
});
