import {
  allRows,
  defineTask,
  parseAnswerList,
  REFERENCE_DATE,
  type Check,
  type GenerateContext,
  type VerifyContext,
} from "../../../envs/index.js";
import { clinicDomain } from "../domain.js";
import {
  CLINIC_CLOSE_MINUTES,
  CLINIC_OPEN_MINUTES,
  VISIT_RULES,
  formatStartTime,
  splitStartTime,
  weekdayOf,
} from "../rules.js";
import type { VisitType } from "../rules.js";
import { readRoster } from "../workspace-facts.js";
import { checkListedItems } from "./answer-lists.js";
import { PROVIDER_QUERY, providerFree, roomFree, type ProviderRow } from "./bookings.js";
import { clinicNearMisses, PYTHON_PAGING_CELL, PYTHON_RULES_CELL } from "./python-helpers.js";

interface BookingRow {
  id: number;
  provider_id: number;
  room_id: number | null;
  room_type: string | null;
  visit_type: string;
  start_time: string;
  status: string;
  credential: string;
  specialty: string;
}

const BOOKING_QUERY = `SELECT a.id, a.provider_id, a.room_id, r.room_type, a.visit_type, a.start_time, a.status,
       p.credential, s.code AS specialty
  FROM appointments a
  JOIN providers p ON p.id = a.provider_id
  JOIN specialties s ON s.id = p.specialty_id
  LEFT JOIN rooms r ON r.id = a.room_id`;

/** The rules of sections 1-3 an upcoming scheduled appointment breaks (empty when it is fine). */
export function bookingViolations(row: BookingRow, clinicDays: Set<number> | undefined): string[] {
  const rule = VISIT_RULES[row.visit_type as VisitType];
  const { date, minutes } = splitStartTime(row.start_time);
  const violations: string[] = [];
  if (minutes < CLINIC_OPEN_MINUTES || minutes + rule.lengthMinutes > CLINIC_CLOSE_MINUTES)
    violations.push("outside clinic hours");
  if (!clinicDays?.has(weekdayOf(date))) violations.push("provider has no clinic that day");
  if ((rule.roomType ?? null) !== (row.room_type ?? null)) violations.push("wrong room type");
  if (rule.physicianOnly && row.credential !== "MD" && row.credential !== "DO")
    violations.push("credential may not perform the visit");
  return violations;
}

/**
 * Plants booking errors among upcoming appointments (a provider booked on a day off, a visit in the wrong
 * kind of room, a procedure with a nurse practitioner or physician assistant, a visit running past closing)
 * and look-alikes that are fine or out of scope (a visit ending exactly at closing, a cancelled bad booking).
 */
function prepare(context: GenerateContext): void {
  const { db, random, referenceDate } = context;
  const rows = allRows<BookingRow>(db, `${BOOKING_QUERY} ORDER BY a.id`);
  const rooms = allRows<{ id: number; room_type: string }>(db, "SELECT id, room_type FROM rooms ORDER BY id");
  const providers = allRows<ProviderRow>(db, PROVIDER_QUERY);
  // The roster is a workspace document; seven weeks of bookings reveal the same weekdays.
  const worksOn = (providerId: number, date: string): boolean =>
    rows.some((row) => row.provider_id === providerId && weekdayOf(row.start_time) === weekdayOf(date));
  const update = db.prepare(
    "UPDATE appointments SET provider_id = ?, room_id = ?, visit_type = ?, start_time = ?, status = ? WHERE id = ?",
  );
  const apply = (row: BookingRow, changes: Partial<BookingRow>): void => {
    Object.assign(row, changes);
    if (changes.room_id !== undefined)
      row.room_type = rooms.find((room) => room.id === row.room_id)?.room_type ?? null;
    if (changes.provider_id !== undefined)
      row.credential = providers.find((item) => item.id === row.provider_id)!.credential;
    update.run(row.provider_id, row.room_id, row.visit_type, row.start_time, row.status, row.id);
    used.add(row.id);
  };
  const used = new Set<number>();
  const upcoming = (filter: (row: BookingRow) => boolean): BookingRow[] =>
    random.shuffle(
      rows.filter(
        (row) =>
          !used.has(row.id) &&
          row.status === "scheduled" &&
          row.start_time.slice(0, 10) >= referenceDate &&
          filter(row),
      ),
    );
  const isExam = (row: BookingRow): boolean => VISIT_RULES[row.visit_type as VisitType].roomType === "exam";

  const isPractitioner = (credential: string): boolean => credential === "NP" || credential === "PA";
  const freeRoom = (roomType: string, row: BookingRow, visitType = row.visit_type) =>
    rooms.find(
      (item) => item.room_type === roomType && roomFree(rows, item.id, visitType, row.start_time, row.id),
    );
  /** Applies the change `changeFor` finds for the first candidate that has one; whether there was one. */
  const plantFirst = (
    candidates: BookingRow[],
    changeFor: (row: BookingRow) => Partial<BookingRow> | undefined,
  ): boolean => {
    for (const row of candidates) {
      const changes = changeFor(row);
      if (changes) {
        apply(row, changes);
        return true;
      }
    }
    return false;
  };

  const rounds = Math.max(1, Math.round(context.factors.rows / 2));
  for (let round = 0; round < rounds; round += 1) {
    // Booked with a same-specialty colleague who holds no clinic that weekday.
    plantFirst(upcoming(isExam), (row) => {
      const colleague = random
        .shuffle(providers)
        .find(
          (provider) =>
            provider.specialty === row.specialty &&
            provider.id !== row.provider_id &&
            !worksOn(provider.id, row.start_time.slice(0, 10)),
        );
      return colleague && { provider_id: colleague.id };
    });
    // An exam-room visit put in a free procedure room.
    plantFirst(upcoming(isExam), (row) => {
      const room = freeRoom("procedure", row);
      return room && { room_id: room.id };
    });
    // A procedure with a nurse practitioner or physician assistant who is in clinic and free.
    const procedures = upcoming((item) => item.visit_type === "procedure");
    const credentialPlanted = plantFirst(procedures, (row) => {
      const practitioner = providers.find(
        (provider) =>
          provider.specialty === row.specialty &&
          isPractitioner(provider.credential) &&
          worksOn(provider.id, row.start_time.slice(0, 10)) &&
          providerFree(rows, provider.id, row.visit_type, row.start_time, row.id),
      );
      return practitioner && { provider_id: practitioner.id };
    });
    // Otherwise an NP or PA's exam visit rebooked as a procedure in a free procedure room.
    if (!credentialPlanted)
      plantFirst(
        upcoming((item) => isExam(item) && isPractitioner(item.credential)),
        (row) => {
          const startMinutes = splitStartTime(row.start_time).minutes;
          const fits =
            startMinutes + VISIT_RULES.procedure.lengthMinutes <= CLINIC_CLOSE_MINUTES &&
            providerFree(rows, row.provider_id, "procedure", row.start_time, row.id);
          const room = fits ? freeRoom("procedure", row, "procedure") : undefined;
          return room && { visit_type: "procedure", room_id: room.id };
        },
      );
    // Running past closing, and a look-alike that ends exactly at closing.
    for (const closing of [10, 0])
      plantFirst(
        upcoming((item) => item.visit_type === "follow_up" && item.room_id !== null),
        (row) => {
          const startTime = formatStartTime(row.start_time.slice(0, 10), CLINIC_CLOSE_MINUTES - 20 + closing);
          const free =
            providerFree(rows, row.provider_id, row.visit_type, startTime, row.id) &&
            roomFree(rows, row.room_id!, row.visit_type, startTime, row.id);
          return free ? { start_time: startTime } : undefined;
        },
      );
    // A bad booking that was cancelled anyway.
    plantFirst(upcoming(isExam), (row) => {
      const room = freeRoom("imaging", row);
      return room && { room_id: room.id, status: "cancelled" };
    });
  }
}

function expectedViolations(state: VerifyContext["initial"]): Map<number, string[]> {
  const roster = readRoster(state);
  const upcoming = `${BOOKING_QUERY} WHERE a.status = 'scheduled' AND substr(a.start_time, 1, 10) >= ? ORDER BY a.id`;
  const rows = allRows<BookingRow>(state.db, upcoming, REFERENCE_DATE);
  const result = new Map<number, string[]>();
  for (const row of rows) {
    const violations = bookingViolations(row, roster.get(row.provider_id)?.clinicDays);
    if (violations.length > 0) result.set(row.id, violations);
  }
  return result;
}

function verify({ initial, answer }: VerifyContext): Check[] {
  const expected = expectedViolations(initial);
  if (expected.size === 0) throw new Error("generation produced no booking violation");
  const given = new Set(parseAnswerList(answer).map((item) => Number(String(item).replace(/^#/, ""))));
  const difference = {
    missing: [...expected.entries()]
      .filter(([id]) => !given.has(id))
      .map(([id, why]) => `#${id} (${why.join(", ")})`),
    extra: [...given].filter((id) => !expected.has(id)),
    summary: `expected ${expected.size} appointments`,
    extraLabel: "not violations",
    extraLimit: 15,
  };
  const success = `all ${expected.size} appointments breaking the booking rules were listed`;
  return [checkListedItems("violating-appointments", difference, success)];
}

interface Variant {
  ignoreClinicDays?: boolean;
  closingInclusive?: boolean;
  includeCancelled?: boolean;
  ignoreCredentials?: boolean;
}

function programCells(variant: Variant): string[] {
  return [
    PYTHON_PAGING_CELL,
    PYTHON_RULES_CELL,
    String.raw`
room_rule = {}
physician_only = set()
for m in re.finditer(r"^\| \x60(\w+)\x60 \| [^|]+\| \d+ min \| ([^|]+)\| [^|]+\| ([^|]+)\|", rules, re.M):
    room_rule[m.group(1)] = None if m.group(2).strip().startswith("none") else m.group(2).strip()
    if "only" in m.group(3):
        physician_only.add(m.group(1))
hours = re.search(r"from (\d{2}):(\d{2}) and the last visit must end by (\d{2}):(\d{2})", rules).groups()
open_at, close_at = int(hours[0]) * 60 + int(hours[1]), int(hours[2]) * 60 + int(hours[3])
roster_csv = tools.read_file(path="staff/provider-roster.csv")["content"]
clinic_days = {int(row["provider_id"]): set(row["clinic_days"].split()) for row in csv.DictReader(io.StringIO(roster_csv))}
providers = {p["id"]: p for p in fetch_all("list_providers", "providers")}
rooms = {r["id"]: r for r in fetch_all("list_rooms", "rooms")}
upcoming = fetch_all("list_appointments", "appointments", date_from="${REFERENCE_DATE}"${variant.includeCancelled ? "" : ', status="scheduled"'})
print(room_rule, physician_only, open_at, close_at, len(upcoming), "upcoming")
`,
    String.raw`
day_names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
flagged = {}
for appointment in upcoming:
    problems = []
    start = to_minutes(appointment["start_time"])
    end = start + visit_lengths[appointment["visit_type"]]
    if start < open_at or end ${variant.closingInclusive ? ">=" : ">"} close_at:
        problems.append("hours")
    weekday = day_names[date.fromisoformat(appointment["start_time"][:10]).weekday()]
    if ${variant.ignoreClinicDays ? "False" : 'weekday not in clinic_days[appointment["provider_id"]]'}:
        problems.append("clinic day")
    room_type = rooms[appointment["room_id"]]["room_type"] if appointment["room_id"] else None
    if room_type != room_rule[appointment["visit_type"]]:
        problems.append("room")
    if ${variant.ignoreCredentials ? "False" : 'appointment["visit_type"] in physician_only and providers[appointment["provider_id"]]["credential"] not in ("MD", "DO")'}:
        problems.append("credential")
    if problems:
        flagged[appointment["id"]] = problems
print(flagged)
`,
    String.raw`
# Look at each flagged booking in full before reporting it.
for appointment_id in sorted(flagged):
    record = tools.get_appointment(appointment_id=appointment_id)["appointment"]
    print(appointment_id, record["provider_name"], record["room_code"], record["start_time"], record["visit_type"], flagged[appointment_id])
`,
    "print(json.dumps(sorted(flagged)))",
  ];
}

export const scheduleAuditTask = defineTask({
  id: "clinic.schedule-audit",
  domain: clinicDomain,
  summary:
    "Audit upcoming scheduled appointments against clinic hours, providers' clinic days, required room types and credential rules from the workspace documents.",
  instruction: `Before the schedules are printed, please audit every appointment dated today (${REFERENCE_DATE}) or later that is still scheduled against the booking rules in the clinic's scheduling rules: clinic hours, the provider's clinic days, the room type the visit needs, and who may perform the visit. Next week's leave coverage is being handled separately, so leave it out of the audit. Reply with only a JSON list of the ids of the appointments that break at least one of these rules, in ascending order.`,
  tools: ["list_appointments", "get_appointment", "list_providers", "list_rooms"],
  prepare,
  verify,
  oracle: programCells({}),
  nearMisses: clinicNearMisses(programCells, {
    "ignores-clinic-days": [
      { ignoreClinicDays: true },
      "Does not check bookings against the roster's clinic days.",
    ],
    "closing-time-inclusive": [{ closingInclusive: true }, "Flags visits that end exactly at closing time."],
    "includes-cancelled": [{ includeCancelled: true }, "Also reports cancelled bookings."],
    "ignores-credentials": [{ ignoreCredentials: true }, "Does not check who may perform procedures."],
  }),
});
