import {
  allRows,
  check,
  defineTask,
  parseAnswerJson,
  REFERENCE_DATE,
  type Check,
  type GenerateContext,
  type VerifyContext,
} from "../../../envs/index.js";
import { clinicDomain } from "../domain.js";
import {
  CLINIC_CLOSE_MINUTES,
  VISIT_RULES,
  formatStartTime,
  intervalsOverlap,
  roomInterval,
  splitStartTime,
} from "../rules.js";
import type { VisitType } from "../rules.js";
import { checkListedItems } from "./answer-lists.js";
import { providerFree, roomFree, type Booking } from "./bookings.js";
import { clinicNearMisses, PYTHON_PAGING_CELL, PYTHON_RULES_CELL } from "./python-helpers.js";

interface AppointmentRow extends Booking {
  patient_id: number;
  specialty: string;
}

/** Every pair of non-cancelled appointments from `fromDate` on whose room occupancy overlaps. */
export function roomConflicts(state: VerifyContext["initial"], fromDate: string): Array<[number, number]> {
  const rows = allRows<{ id: number; room_id: number; visit_type: string; start_time: string }>(
    state.db,
    `SELECT id, room_id, visit_type, start_time FROM appointments
      WHERE room_id IS NOT NULL AND status != 'cancelled' AND substr(start_time, 1, 10) >= ?
      ORDER BY room_id, start_time, id`,
    fromDate,
  );
  const pairs: Array<[number, number]> = [];
  for (let index = 0; index < rows.length; index += 1) {
    const first = rows[index]!;
    const firstInterval = roomInterval(first.visit_type, first.start_time);
    for (let next = index + 1; next < rows.length && rows[next]!.room_id === first.room_id; next += 1) {
      const second = rows[next]!;
      if (intervalsOverlap(firstInterval, roomInterval(second.visit_type, second.start_time)))
        pairs.push([Math.min(first.id, second.id), Math.max(first.id, second.id)]);
    }
  }
  return pairs;
}

/**
 * Plants double bookings, and look-alikes that are not: a clash only the procedure-room turnover
 * reveals, a back-to-back pair that merely touches, a clash with a cancelled visit and one in the past.
 */
function prepare(context: GenerateContext): void {
  const { db, random, referenceDate } = context;
  const rows = allRows<AppointmentRow>(
    db,
    `SELECT a.id, a.patient_id, a.provider_id, a.room_id, a.visit_type, a.start_time, a.status, s.code AS specialty
       FROM appointments a JOIN providers p ON p.id = a.provider_id JOIN specialties s ON s.id = p.specialty_id
      ORDER BY a.id`,
  );
  const insert = db.prepare(
    `INSERT INTO appointments (patient_id, provider_id, room_id, visit_type, start_time, status, reason, cancel_reason)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const live = (row: AppointmentRow): boolean => row.status !== "cancelled";
  // Someone who is in clinic that day (has visits) and free at that time, preferring the anchor's specialty.
  const pickProvider = (anchor: AppointmentRow, visitType: VisitType, startTime: string): number => {
    const date = startTime.slice(0, 10);
    const working = [
      ...new Set(rows.filter((row) => row.start_time.startsWith(date)).map((row) => row.provider_id)),
    ];
    const free = working.filter((providerId) => providerFree(rows, providerId, visitType, startTime));
    const sameSpecialty = free.filter((providerId) =>
      rows.some((row) => row.provider_id === providerId && row.specialty === anchor.specialty),
    );
    return sameSpecialty.length > 0
      ? random.pick(sameSpecialty)
      : free.length > 0
        ? random.pick(free)
        : anchor.provider_id;
  };
  const add = (anchor: AppointmentRow, visitType: VisitType, minutes: number, status: string): void => {
    const startTime = formatStartTime(anchor.start_time.slice(0, 10), minutes);
    const providerId =
      visitType === "procedure" ? anchor.provider_id : pickProvider(anchor, visitType, startTime);
    const patient = random.pick(rows.filter((row) => row.specialty === anchor.specialty)).patient_id;
    const reason =
      visitType === "procedure"
        ? "Skin lesion removal"
        : random.pick(["Medication review", "Wound check", "Blood pressure check"]);
    const result = insert.run(
      patient,
      providerId,
      anchor.room_id,
      visitType,
      startTime,
      status,
      reason,
      status === "cancelled" ? "Patient cancelled online" : null,
    );
    rows.push({
      id: Number(result.lastInsertRowid),
      patient_id: patient,
      provider_id: providerId,
      room_id: anchor.room_id,
      visit_type: visitType,
      start_time: startTime,
      status,
      specialty: anchor.specialty,
    });
  };
  const used = new Set<number>();
  const anchors = (filter: (row: AppointmentRow) => boolean): AppointmentRow[] =>
    random.shuffle(
      rows.filter((row) => !used.has(row.id) && live(row) && row.room_id !== null && filter(row)),
    );
  const future = (row: AppointmentRow): boolean => row.start_time.slice(0, 10) >= referenceDate;
  const exam = (row: AppointmentRow): boolean => VISIT_RULES[row.visit_type as VisitType].roomType === "exam";
  const take = (candidates: AppointmentRow[]): AppointmentRow | undefined => {
    const anchor = candidates[0];
    if (anchor) used.add(anchor.id);
    return anchor;
  };
  const endOf = (row: AppointmentRow): number => roomInterval(row.visit_type, row.start_time).endMinutes;
  const startOf = (row: AppointmentRow): number => splitStartTime(row.start_time).minutes;

  const rounds = Math.max(1, Math.round(context.factors.rows / 2));
  for (let round = 0; round < rounds; round += 1) {
    // The same slot booked twice.
    const exact = take(anchors((row) => future(row) && exam(row)));
    if (exact) add(exact, "follow_up", startOf(exact), "scheduled");
    // A visit booked ten minutes into a longer one.
    const partial = take(
      anchors(
        (row) => future(row) && exam(row) && VISIT_RULES[row.visit_type as VisitType].lengthMinutes >= 30,
      ),
    );
    if (partial) add(partial, "follow_up", startOf(partial) + 10, "scheduled");
    // A procedure booked during the previous procedure's turnover.
    const turnover = take(
      anchors(
        (row) =>
          future(row) &&
          row.visit_type === "procedure" &&
          endOf(row) - 5 + VISIT_RULES.procedure.lengthMinutes <= CLINIC_CLOSE_MINUTES &&
          roomFree(
            rows,
            row.room_id!,
            "procedure",
            formatStartTime(row.start_time.slice(0, 10), endOf(row) - 5),
            row.id,
          ),
      ),
    );
    if (turnover) add(turnover, "procedure", endOf(turnover) - 5, "scheduled");
    // Back to back: touching but not overlapping.
    const touching = take(
      anchors(
        (row) =>
          future(row) &&
          exam(row) &&
          endOf(row) + 20 <= CLINIC_CLOSE_MINUTES &&
          roomFree(
            rows,
            row.room_id!,
            "follow_up",
            formatStartTime(row.start_time.slice(0, 10), endOf(row)),
            row.id,
          ),
      ),
    );
    if (touching) add(touching, "follow_up", endOf(touching), "scheduled");
    // A clash with a visit that was cancelled.
    const cancelled = take(anchors((row) => future(row) && exam(row)));
    if (cancelled) add(cancelled, "follow_up", startOf(cancelled), "cancelled");
    // A clash in the past, already seen.
    const past = take(anchors((row) => !future(row) && row.status === "completed" && exam(row)));
    if (past) add(past, "follow_up", startOf(past), "completed");
  }
}

function verify({ initial, answer }: VerifyContext): Check[] {
  const expected = roomConflicts(initial, REFERENCE_DATE);
  if (expected.length === 0) throw new Error("generation produced no double booking");
  const parsed = parseAnswerJson(answer);
  const list = Array.isArray(parsed)
    ? parsed
    : parsed && typeof parsed === "object" && Array.isArray((parsed as { conflicts?: unknown }).conflicts)
      ? (parsed as { conflicts: unknown[] }).conflicts
      : null;
  if (!list || !list.every((pair) => Array.isArray(pair) && pair.length === 2))
    return [
      check("answer-format", false, `expected {"conflicts": [[id, id], ...]}, got: ${answer.slice(0, 200)}`),
    ];
  const key = (pair: unknown[]): string => {
    const [first, second] = pair.map(Number) as [number, number];
    return `${Math.min(first, second)}-${Math.max(first, second)}`;
  };
  const expectedKeys = new Set(expected.map(key));
  const givenKeys = new Set((list as unknown[][]).map(key));
  const difference = {
    missing: [...expectedKeys].filter((pair) => !givenKeys.has(pair)),
    extra: [...givenKeys].filter((pair) => !expectedKeys.has(pair)),
    summary: `expected ${expected.length} pairs`,
    extraLabel: "not conflicts",
    missingLimit: Infinity,
    extraLimit: 15,
  };
  return [
    checkListedItems("conflicting-pairs", difference, `all ${expected.length} double-booked pairs found`),
  ];
}

interface Variant {
  ignoreTurnover?: boolean;
  countCancelled?: boolean;
  touchingConflicts?: boolean;
  includePast?: boolean;
}

function programCells(variant: Variant): string[] {
  return [
    PYTHON_PAGING_CELL,
    PYTHON_RULES_CELL,
    String.raw`
turnover = {}
for m in re.finditer(r"^\| \x60(\w+)\x60 \| [^|]+\| \d+ min \| [^|]+\| (\d+ min|-) \|", rules, re.M):
    turnover[m.group(1)] = ${variant.ignoreTurnover ? "0" : 'int(m.group(2).split()[0]) if m.group(2) != "-" else 0'}
rooms = fetch_all("list_rooms", "rooms")
booked = {}
for room in rooms:
    booked[room["id"]] = fetch_all("list_appointments", "appointments", room_id=room["id"]${
      variant.includePast ? "" : `, date_from="${REFERENCE_DATE}"`
    })
print(turnover, len(rooms), "rooms,", sum(len(v) for v in booked.values()), "room bookings")
`,
    String.raw`
def occupancy(appointment):
    start = to_minutes(appointment["start_time"])
    return appointment["start_time"][:10], start, start + visit_lengths[appointment["visit_type"]] + turnover[appointment["visit_type"]]

conflicts = []
for room_id, appointments in booked.items():
    live = [a for a in appointments if ${variant.countCancelled ? "True" : 'a["status"] != "cancelled"'}]
    for i, first in enumerate(live):
        for second in live[i + 1:]:
            a, b = occupancy(first), occupancy(second)
            if a[0] == b[0] and a[1] ${variant.touchingConflicts ? "<=" : "<"} b[2] and b[1] ${variant.touchingConflicts ? "<=" : "<"} a[2]:
                conflicts.append(sorted([first["id"], second["id"]]))
print(len(conflicts), "conflicts")
`,
    String.raw`
# Double-check each reported pair against the full appointment records before answering.
for pair in conflicts:
    details = [tools.get_appointment(appointment_id=appointment_id)["appointment"] for appointment_id in pair]
    print(pair, [(d["room_code"], d["start_time"], d["visit_type"], d["status"]) for d in details])
`,
    'print(json.dumps({"conflicts": sorted(conflicts)}))',
  ];
}

export const roomDoubleBookingsTask = defineTask({
  id: "clinic.room-double-bookings",
  domain: clinicDomain,
  summary:
    "Find every pair of upcoming appointments that double-book a room, using visit lengths and procedure-room turnover from the scheduling rules.",
  instruction: `The practice manager suspects the room schedule from today (${REFERENCE_DATE}) onward has double bookings. Using the clinic's scheduling rules, find every pair of appointments dated today or later that double-book a room. Reply with only a JSON object {"conflicts": [[smaller_appointment_id, larger_appointment_id], ...]} listing each conflicting pair once.`,
  tools: ["list_rooms", "list_appointments", "get_appointment", "list_providers"],
  prepare,
  verify,
  oracle: programCells({}),
  nearMisses: clinicNearMisses(programCells, {
    "ignores-turnover": [{ ignoreTurnover: true }, "Forgets the 15-minute procedure-room turnover."],
    "counts-cancelled": [{ countCancelled: true }, "Treats cancelled appointments as occupying the room."],
    "touching-is-conflict": [
      { touchingConflicts: true },
      "Flags back-to-back visits that only touch as double bookings.",
    ],
    "includes-past": [{ includePast: true }, "Also reports double bookings before today."],
  }),
});
