/** Writes the workspace: the fixed rule documents and the files whose number grows with the scale. */
import { addDays, earlierDate, toCsv } from "../../envs/index.js";
import { catalogCourse, departmentOfCourse } from "./catalog.js";
import {
  CALENDAR_PATH,
  COMMITTEE_FOLDER,
  HANDBOOK_PATH,
  REGULATIONS_PATH,
  TRANSFER_REGISTER_PATH,
  WAIVER_FOLDER,
  exemptionLine,
  gradeChangeMemoPath,
  writeCalendar,
  writeGradeChangeMemo,
  writeHandbook,
  writeRegulations,
  writeTransferRegister,
  writeWaiverLetter,
  type GradeChangeMemo,
  type WaiverLetter,
} from "./documents.js";
import { chairOf } from "./memos.js";
import { fullName, studentName, type StudentRecord, type WaiverRecord, type World } from "./model.js";
import { nextTerm } from "./terms.js";

/** Committee meetings: the review of the last graded term first, then earlier reviews and follow-ups. */
function writeCommitteeNotes(world: World, count: number): void {
  const { random, referenceDate } = world.context;
  const reviewTerm = world.currentIndex - 1;
  const meetings: Array<{ termIndex: number; followUp: boolean }> = [];
  for (let index = 0; index < count; index += 1) {
    const cycle = [
      { termIndex: reviewTerm, followUp: false },
      { termIndex: reviewTerm - 1, followUp: false },
      { termIndex: reviewTerm, followUp: true },
      { termIndex: reviewTerm - 2, followUp: false },
    ];
    const pick = cycle[index % cycle.length] ?? { termIndex: reviewTerm, followUp: false };
    meetings.push({
      termIndex: Math.max(0, pick.termIndex - 2 * Math.floor(index / cycle.length)),
      followUp: pick.followUp,
    });
  }
  const members = world.instructors.filter((instructor) => instructor.rank === "Professor").slice(0, 5);
  const usedPaths = new Set<string>();
  for (const [index, meeting] of meetings.entries()) {
    const term = world.terms[meeting.termIndex];
    if (!term) continue;
    const sameTerm = meetings
      .map((item, position) => ({ item, position }))
      .filter(({ item }) => item.termIndex === meeting.termIndex);
    const share = sameTerm.findIndex(({ position }) => position === index);
    const exemptions = world.exemptions
      .filter((exemption) => exemption.termIndex === meeting.termIndex)
      .filter((_, position) => position % sameTerm.length === share);
    const offset = meeting.followUp ? random.int(18, 30) : random.int(4, 14);
    const date = earlierDate(
      addDays(term.gradesDueDate, offset),
      addDays(referenceDate, -1 - (meeting.followUp ? 0 : 1)),
    );
    const lines = exemptions.map((exemption) =>
      exemptionLine({
        studentId: exemption.studentId,
        studentName: studentName(world, exemption.studentId),
        termName: term.name,
        decision: exemption.decision,
        reason: exemption.reason,
      }),
    );
    const content = `# Academic Standing Committee — meeting notes, ${date}

Present: ${members.map((member) => `Prof. ${member.firstName} ${member.lastName}`).join(", ")}; ${random.pick(world.staff)} (Registrar's Office, secretary)

## 1. ${meeting.followUp ? "Follow-up on the" : "Opening of the"} ${term.name} standing review

${
  meeting.followUp
    ? `The committee considered requests that arrived after its first ${term.name} meeting.`
    : `The Registrar presented the calendar for the ${term.name} standing review. Students may request an exemption in writing with supporting documentation.`
}

## 2. Exemption requests

${lines.length > 0 ? lines.join("\n") : "No exemption requests were pending at this meeting."}

## 3. Other business

- Reminder: the committee alone decides suspensions and reinstatements.
- ${random.pick([
      "The graduate advising office will circulate the revised probation letter template.",
      "Members discussed earlier outreach to students with two or more grades below B-.",
      "The next meeting will be scheduled after grades are due.",
      "The committee thanked the Registrar's Office for the new exemption request form.",
    ])}
`;
    let path = `${COMMITTEE_FOLDER}/standing-committee-${date}.md`;
    for (let suffix = 2; usedPaths.has(path); suffix += 1)
      path = `${COMMITTEE_FOLDER}/standing-committee-${date}-${suffix}.md`;
    usedPaths.add(path);
    world.context.writeFile(path, content);
  }
}

/** Waiver letters: this term's decisions in the even letters, last term's archive in the odd ones. */
function writeWaiverLetters(world: World, count: number): void {
  const { random, referenceDate } = world.context;
  const current = world.currentIndex;
  const letters: Array<{ termIndex: number; waivers: WaiverRecord[] }> = [];
  for (let index = 0; index < count; index += 1)
    letters.push({ termIndex: index % 2 === 0 || current === 0 ? current : current - 1, waivers: [] });
  for (const termIndex of [current, current - 1]) {
    const slots = letters.filter((letter) => letter.termIndex === termIndex);
    if (slots.length === 0) continue;
    const waivers = world.waivers
      .filter((waiver) => waiver.termIndex === termIndex)
      .sort(
        (left, right) =>
          left.courseCode.localeCompare(right.courseCode) || left.studentId.localeCompare(right.studentId),
      );
    waivers.forEach((waiver, position) => slots[position % slots.length]?.waivers.push(waiver));
  }
  for (const [index, letter] of letters.entries()) {
    const term = world.terms[letter.termIndex];
    if (!term) continue;
    if (letter.waivers.length === 0) letter.waivers.push(...fillerWaivers(world, letter.termIndex));
    const departments = [
      ...new Set(letter.waivers.map((waiver) => departmentOfCourse(waiver.courseCode).name)),
    ].sort();
    const issuer = chairOf(world, departments[0] ?? "Computer Science");
    const document: WaiverLetter = {
      department: departments.join(", "),
      termName: term.name,
      issuedOn: earlierDate(addDays(term.startDate, -random.int(3, 20)), addDays(referenceDate, -1)),
      issuedBy: issuer,
      waivers: letter.waivers.map((waiver) => ({
        studentId: waiver.studentId,
        studentName: studentName(world, waiver.studentId),
        courseCode: waiver.courseCode,
        prerequisiteCode: waiver.prerequisiteCode,
        decision: waiver.decision,
      })),
    };
    const slug = (departments[0] ?? "graduate").toLowerCase().replace(/[^a-z]+/g, "-");
    world.context.writeFile(
      `${WAIVER_FOLDER}/${term.code}-prerequisite-waivers-${slug}-${String(index + 1).padStart(2, "0")}.md`,
      writeWaiverLetter(document),
    );
  }
}

/** Approvals for students who already meet the prerequisite, so no letter is empty; they change nothing. */
function fillerWaivers(world: World, termIndex: number): WaiverRecord[] {
  const options = world.students.flatMap((student) =>
    student.enrollments
      .filter(
        (enrollment) =>
          enrollment.termIndex === termIndex && catalogCourse(enrollment.courseCode).prerequisites.length > 0,
      )
      .map((enrollment) => ({ student, enrollment })),
  );
  return world.context.random
    .shuffle(options)
    .slice(0, 2)
    .map(({ student, enrollment }) => ({
      studentId: student.id,
      termIndex,
      courseCode: enrollment.courseCode,
      prerequisiteCode: catalogCourse(enrollment.courseCode).prerequisites[0] ?? "",
      decision: "APPROVED" as const,
    }));
}

function writeDailyLogs(world: World, count: number): void {
  const { random, referenceDate } = world.context;
  const activities = [
    (student: StudentRecord) => `issued an official transcript for ${student.id} (${fullName(student)})`,
    (student: StudentRecord) => `completed an enrollment verification letter for ${student.id}`,
    (student: StudentRecord) => `updated the mailing address of ${student.id}`,
    (student: StudentRecord) => `answered an e-mail from ${fullName(student)} about the add/drop deadline`,
    (student: StudentRecord) => `scanned a change-of-advisor form for ${student.id}`,
    () => `moved a section to a larger room at the department's request`,
    () => `reconciled the nightly enrollment export; no discrepancies`,
    () => `forwarded two transfer credit evaluations to the program directors`,
  ];
  for (let index = 0; index < count; index += 1) {
    const date = addDays(referenceDate, -(index * 3 + 1));
    const lines: string[] = [`Office of the Registrar — daily log ${date}`, ""];
    let minutes = 8 * 60 + random.int(30, 55);
    const entries = random.int(9, 16);
    for (let entry = 0; entry < entries; entry += 1) {
      const student = random.pick(world.students);
      const activity = random.pick(activities);
      const time = `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
      lines.push(`${time}  ${random.pick(world.staff)}: ${activity(student)}`);
      minutes += random.int(12, 40);
    }
    world.context.writeFile(`registrar/daily-log-${date}.txt`, `${lines.join("\n")}\n`);
  }
}

function writeRosterExports(world: World, count: number): void {
  const { random } = world.context;
  const sections = random
    .shuffle(
      world.sections.filter(
        (section) => section.termIndex === world.currentIndex && section.enrollments.length > 0,
      ),
    )
    .slice(0, count);
  for (const section of sections) {
    const term = world.terms[section.termIndex];
    const rows = [...section.enrollments]
      .sort((left, right) => left.studentId.localeCompare(right.studentId))
      .flatMap((enrollment) => {
        const student = world.students.find((item) => item.id === enrollment.studentId);
        return student
          ? [
              [
                student.id,
                student.lastName,
                student.firstName,
                student.programCode,
                enrollment.status,
                enrollment.enrolledOn,
              ],
            ]
          : [];
      });
    const slug = section.courseCode.replace(" ", "").toLowerCase();
    world.context.writeFile(
      `exports/roster-${term?.code ?? ""}-${slug}-${section.sectionNumber}.csv`,
      toCsv(
        ["student_id", "last_name", "first_name", "program", "registration_status", "registered_on"],
        rows,
      ),
    );
  }
}

export function writeWorkspace(world: World, memos: GradeChangeMemo[]): void {
  const { context } = world;
  const filesFactor = context.factors.files;
  const current = world.terms[world.currentIndex];
  if (!current) throw new Error("no term in progress");
  context.writeFile(
    REGULATIONS_PATH,
    writeRegulations(world.regulations, world.terms[0]?.year ?? current.year),
  );
  const academicYear =
    current.season === "fall" ? `${current.year}-${current.year + 1}` : `${current.year - 1}-${current.year}`;
  context.writeFile(HANDBOOK_PATH, writeHandbook(world.handbook, academicYear));
  context.writeFile(CALENDAR_PATH, writeCalendar([...world.terms, nextTerm(current)], context.referenceDate));
  context.writeFile(TRANSFER_REGISTER_PATH, writeTransferRegister(world.transfers));
  for (const memo of memos) context.writeFile(gradeChangeMemoPath(memo.memoId), writeGradeChangeMemo(memo));
  writeWaiverLetters(world, 2 * filesFactor);
  writeCommitteeNotes(world, filesFactor);
  writeDailyLogs(world, filesFactor);
  writeRosterExports(world, filesFactor);
}
