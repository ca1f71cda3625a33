import {
  allRows,
  check,
  checkNone,
  checkOtherTablesUnchanged,
  defineTask,
  diffTable,
  keysChangedBeyond,
  type Check,
  type VerifyContext,
} from "../../../envs/index.js";
import { clinicDomain } from "../domain.js";
import { VISIT_RULES, intervalsOverlap, providerInterval, weekdayOf } from "../rules.js";
import type { VisitType } from "../rules.js";
import { readLeaveMemo, readRoster } from "../workspace-facts.js";
import { PROVIDER_QUERY, type AppointmentRow, type ProviderRow } from "./bookings.js";
import { clinicNearMisses, PYTHON_PAGING_CELL, PYTHON_RULES_CELL } from "./python-helpers.js";

function verify({ initial, final }: VerifyContext): Check[] {
  const roster = readRoster(initial);
  const leaves = readLeaveMemo(initial).filter((leave) => leave.approved);
  const onLeave = (providerId: number, date: string): boolean =>
    leaves.some((leave) => leave.providerId === providerId && date >= leave.from && date <= leave.to);
  const providers = new Map(
    allRows<ProviderRow>(initial.db, PROVIDER_QUERY).map((provider) => [provider.id, provider]),
  );
  const before = allRows<AppointmentRow>(initial.db, "SELECT * FROM appointments ORDER BY id");
  const after = new Map(
    allRows<AppointmentRow>(final.db, "SELECT * FROM appointments ORDER BY id").map((row) => [row.id, row]),
  );
  const expected = before.filter(
    (appointment) =>
      appointment.status === "scheduled" &&
      onLeave(appointment.provider_id, appointment.start_time.slice(0, 10)),
  );
  if (expected.length === 0) throw new Error("generation produced no appointment to reassign");
  const expectedIds = new Set(expected.map((appointment) => appointment.id));
  const diff = diffTable(initial.db, final.db, "appointments", "id");
  const created = diff.added.length + diff.removed.length;
  const unexpected = diff.changed
    .filter((change) => !expectedIds.has(Number(change.key)))
    .map((change) => change.key);
  const otherFieldChanges = keysChangedBeyond(diff.changed, ["provider_id"]);
  const notMoved = expected
    .filter((appointment) => after.get(appointment.id)?.provider_id === appointment.provider_id)
    .map((appointment) => appointment.id);
  const { ineligible, doubleBooked } = coverProblems(expected, after, providers, (cover, date) => [
    !roster.get(cover.id)?.clinicDays.has(weekdayOf(date)) && `no clinic on ${date}`,
    onLeave(cover.id, date) && `on leave on ${date}`,
  ]);
  const first = (ids: readonly unknown[], count: number): string => ids.slice(0, count).join(", ");
  return [
    check(
      "appointments-kept",
      created === 0,
      created === 0
        ? "no appointment was created or deleted"
        : `expected no created or deleted appointments, found ${diff.added.length} created and ${diff.removed.length} deleted`,
    ),
    checkNone(
      "only-leave-appointments-changed",
      unexpected,
      "only scheduled appointments of providers on approved leave changed",
      (keys) => `appointments that should not change were modified: ${first(keys, 15)}`,
    ),
    checkNone(
      "only-provider-changed",
      otherFieldChanges,
      "changed appointments kept their date, time, room, visit type and status",
      (keys) => `appointments changed more than their provider: ${first(keys, 15)}`,
    ),
    checkNone(
      "all-leave-appointments-reassigned",
      notMoved,
      `all ${expected.length} affected appointments have a new provider`,
      (ids) =>
        `${ids.length} of ${expected.length} affected appointments still sit with the provider on leave: ${first(ids, 15)}`,
    ),
    checkNone(
      "covering-providers-eligible",
      ineligible,
      "every covering provider has the specialty, a clinic day, no leave and the credential the visit needs",
      (found) => `ineligible covering providers: ${first(found, 10)}`,
    ),
    checkNone(
      "covering-providers-free",
      doubleBooked,
      "no covering provider is double-booked",
      (found) => `covering providers double-booked: ${first(found, 10)}`,
    ),
    checkOtherTablesUnchanged(initial.db, final.db, ["appointments"]),
  ];
}

/**
 * What is wrong with the covering providers chosen for the affected appointments: a cover of another
 * specialty or credential, or one `scheduleProblems` names (roster, leave), and covers double-booked.
 */
function coverProblems(
  expected: AppointmentRow[],
  after: Map<number, AppointmentRow>,
  providers: Map<number, ProviderRow>,
  scheduleProblems: (cover: ProviderRow, date: string) => Array<string | false>,
): { ineligible: string[]; doubleBooked: string[] } {
  const ineligible: string[] = [];
  const doubleBooked: string[] = [];
  const finalRows = [...after.values()];
  for (const appointment of expected) {
    const moved = after.get(appointment.id);
    if (!moved || moved.provider_id === appointment.provider_id) continue;
    const date = appointment.start_time.slice(0, 10);
    const owner = providers.get(appointment.provider_id)!;
    const cover = providers.get(moved.provider_id);
    const reasons: Array<string | false> = cover
      ? [
          cover.specialty !== owner.specialty && `specialty ${cover.specialty} instead of ${owner.specialty}`,
          ...scheduleProblems(cover, date),
          VISIT_RULES[appointment.visit_type as VisitType].physicianOnly &&
            !["MD", "DO"].includes(cover.credential) &&
            `${cover.credential} may not perform ${appointment.visit_type}`,
        ]
      : ["unknown provider"];
    const named = reasons.filter((reason): reason is string => reason !== false);
    if (named.length > 0)
      ineligible.push(`#${appointment.id} -> provider ${moved.provider_id} (${named.join("; ")})`);
    const interval = providerInterval(moved.visit_type, moved.start_time);
    const clash = finalRows.find(
      (other) =>
        other.id !== moved.id &&
        other.provider_id === moved.provider_id &&
        other.status !== "cancelled" &&
        intervalsOverlap(providerInterval(other.visit_type, other.start_time), interval),
    );
    if (clash) doubleBooked.push(`#${moved.id} overlaps #${clash.id} for provider ${moved.provider_id}`);
  }
  return { ineligible, doubleBooked };
}

interface Variant {
  ignoreClinicDays?: boolean;
  exclusiveEnd?: boolean;
  includeWithdrawn?: boolean;
}

function programCells(variant: Variant): string[] {
  const leaveStatus = variant.includeWithdrawn ? "True" : 'status.strip().startswith("Approved")';
  const endTest = variant.exclusiveEnd ? "start <= day < end" : "start <= day <= end";
  const dayTest = variant.ignoreClinicDays ? "False" : "weekday not in clinic_days[candidate_id]";
  const fallback = variant.includeWithdrawn
    ? "chosen = next(cid for cid in sorted(busy) if cid != owner['id'] and providers[cid]['specialty_code'] == owner['specialty_code'])"
    : "raise RuntimeError(f\"no eligible cover for appointment {appointment['id']}\")";
  return [
    PYTHON_PAGING_CELL,
    PYTHON_RULES_CELL,
    String.raw`
memo_path = next(path for path in files if path.startswith("memos/") and "leave" in path)
memo = tools.read_file(path=memo_path)["content"]
roster_csv = tools.read_file(path="staff/provider-roster.csv")["content"]
print(memo)
`,
    String.raw`
physician_only = {m.group(1) for m in re.finditer(r"^\| \x60(\w+)\x60 \|.*MD or DO only", rules, re.M)}
clinic_days = {int(row["provider_id"]): set(row["clinic_days"].split()) for row in csv.DictReader(io.StringIO(roster_csv))}
leaves = []
for m in re.finditer(r"^\| [^|]+\| (\d+) \| [^|]+\| (\S+) \| (\S+) \| ([^|]+)\|", memo, re.M):
    status = m.group(4)
    if ${leaveStatus}:
        leaves.append((int(m.group(1)), m.group(2), m.group(3)))
print("leaves:", leaves, "physician only:", physician_only)

def on_leave(provider_id, day):
    return any(provider_id == pid and ${endTest} for pid, start, end in leaves)

providers = {p["id"]: p for p in fetch_all("list_providers", "providers")}
affected = []
for pid, start, end in leaves:
    for appointment in fetch_all("list_appointments", "appointments", provider_id=pid, status="scheduled", date_from=start, date_to=end):
        if on_leave(pid, appointment["start_time"][:10]):
            affected.append(appointment)
affected.sort(key=lambda appointment: (appointment["start_time"], appointment["id"]))
window_start = min(start for _, start, _ in leaves)
window_end = max(end for _, _, end in leaves)
specialties = {providers[pid]["specialty_code"] for pid, _, _ in leaves}
busy = {}
for provider in providers.values():
    if provider["specialty_code"] in specialties:
        booked = fetch_all("list_appointments", "appointments", provider_id=provider["id"], date_from=window_start, date_to=window_end)
        busy[provider["id"]] = [item for item in booked if item["status"] != "cancelled"]
print(len(affected), "appointments to move")
`,
    String.raw`
day_names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

def interval(appointment):
    start = to_minutes(appointment["start_time"])
    return appointment["start_time"][:10], start, start + visit_lengths[appointment["visit_type"]]

def overlaps(first, second):
    return first[0] == second[0] and first[1] < second[2] and second[1] < first[2]

moves = []
for appointment in affected:
    owner = providers[appointment["provider_id"]]
    day = appointment["start_time"][:10]
    weekday = day_names[date.fromisoformat(day).weekday()]
    slot = interval(appointment)
    chosen = None
    for candidate_id in sorted(busy):
        candidate = providers[candidate_id]
        if candidate_id == owner["id"] or candidate["specialty_code"] != owner["specialty_code"]:
            continue
        if ${dayTest} or on_leave(candidate_id, day):
            continue
        if appointment["visit_type"] in physician_only and candidate["credential"] not in ("MD", "DO"):
            continue
        if any(overlaps(slot, interval(other)) for other in busy[candidate_id]):
            continue
        chosen = candidate_id
        break
    if chosen is None:
        ${fallback}
    tools.reassign_appointment(appointment_id=appointment["id"], provider_id=chosen)
    busy[chosen].append(appointment)
    moves.append((appointment["id"], chosen))
print(len(moves), "appointments reassigned:", moves)
`,
    `print("done")`,
  ];
}

export const reassignLeaveAppointmentsTask = defineTask({
  id: "clinic.reassign-leave-appointments",
  domain: clinicDomain,
  summary:
    "Move every scheduled appointment of providers on approved leave to eligible covering colleagues (specialty, clinic days, leave, credential, no double booking).",
  instruction:
    "The medical director's latest memo in the workspace lists provider leave for next week. Please handle the coverage: every scheduled appointment that falls on an approved leave day has to be moved to a covering provider, following the clinic's scheduling rules. Don't change anything else in the appointment book. Reply 'done' when finished.",
  tools: [
    "list_providers",
    "list_appointments",
    "get_appointment",
    "reassign_appointment",
    "cancel_appointment",
  ],
  verify,
  oracle: programCells({}),
  nearMisses: clinicNearMisses(programCells, {
    "ignores-clinic-days": [
      { ignoreClinicDays: true },
      "Picks the first free colleague of the same specialty without checking the roster's clinic days.",
    ],
    "last-leave-day-excluded": [
      { exclusiveEnd: true },
      "Treats the memo's last day out as the day the provider is back, leaving that day's patients.",
    ],
    "includes-withdrawn-leave": [
      { includeWithdrawn: true },
      "Also moves the schedule of the provider whose leave request was withdrawn.",
    ],
  }),
});
