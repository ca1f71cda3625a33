import { addDays, formatUsd, toCsv, weekdayName, type GenerateContext } from "../../envs/index.js";
import type { ClinicWorld, ProviderDraft } from "./generate.js";
import {
  CLINIC_CLOSE_MINUTES,
  CLINIC_OPEN_MINUTES,
  COLLECTIONS_THRESHOLD,
  NO_SHOW_CHARGE_CODE,
  NO_SHOW_FLAG_THRESHOLD,
  NO_SHOW_REVIEW_DAYS,
  PLANS,
  SELF_PAY_DISCOUNT_PERCENT,
  SPECIALTIES,
  VISIT_RULES,
  VISIT_TYPES,
  WEEKDAY_NAMES,
  formatClock,
  splitStartTime,
  weekdayOf,
} from "./rules.js";

export const SCHEDULING_RULES_PATH = "policies/scheduling-rules.md";
export const NO_SHOW_POLICY_PATH = "policies/no-show-policy.md";
export const COVERAGE_TABLE_PATH = "billing/insurance-coverage.csv";
export const BILLING_POLICY_PATH = "billing/patient-billing-policy.md";
export const ROSTER_PATH = "staff/provider-roster.csv";

/** "Tuesday 2025-06-03", as the clinic's logs and memos head a day. */
function dayHeading(isoDate: string): string {
  return `${weekdayName(isoDate)} ${isoDate}`;
}

/** How staff write a provider's name: physicians as "Dr. Last", advanced practitioners by name and credential. */
function providerLabel(provider: ProviderDraft, full = false): string {
  const physician = provider.credential === "MD" || provider.credential === "DO";
  if (physician)
    return full
      ? `Dr. ${provider.firstName} ${provider.lastName}, ${provider.credential}`
      : `Dr. ${provider.lastName}`;
  return `${provider.firstName} ${provider.lastName}, ${provider.credential}`;
}

/** Writes the clinic's fixed documents and the scaled logs, exports and notes. */
export function writeClinicDocuments(context: GenerateContext, world: ClinicWorld): void {
  const director = `${context.faker.person.firstName()} ${context.faker.person.lastName()}`;
  const manager = `${context.faker.person.firstName()} ${context.faker.person.lastName()}`;
  context.writeFile(SCHEDULING_RULES_PATH, schedulingRules(director));
  context.writeFile(NO_SHOW_POLICY_PATH, noShowPolicy(world, manager));
  context.writeFile(COVERAGE_TABLE_PATH, coverageTable());
  context.writeFile(BILLING_POLICY_PATH, billingPolicy(manager));
  context.writeFile(ROSTER_PATH, roster(world));
  const leaveMemoDate = addDays(world.referenceDate, -2);
  context.writeFile(
    `memos/${leaveMemoDate}-provider-leave-coverage.md`,
    leaveMemo(world, director, leaveMemoDate),
  );
  context.writeFile(`memos/${world.closureDate}-early-closure.md`, closureMemo(world, manager));
  const deskStaff = Array.from({ length: 4 }, () => context.faker.person.firstName());
  for (const date of world.logDates)
    context.writeFile(`front-desk/daily-log-${date}.txt`, frontDeskLog(world, date, deskStaff));
  for (const date of world.exportDates)
    context.writeFile(`exports/schedule-${date}.csv`, scheduleExport(world, date));
  writeNotes(context, world, director, manager);
}

function schedulingRules(director: string): string {
  const specialtyList = (visitType: string): string =>
    SPECIALTIES.filter((specialty) => specialty.visitMix.some(([type]) => type === visitType))
      .map((specialty) => specialty.name)
      .join(", ");
  const rows = VISIT_TYPES.map((visitType) => {
    const rule = VISIT_RULES[visitType];
    return `| \`${visitType}\` | ${rule.label} | ${rule.lengthMinutes} min | ${rule.roomType ?? "none (video)"} | ${
      rule.turnoverMinutes > 0 ? `${rule.turnoverMinutes} min` : "-"
    } | ${rule.physicianOnly ? "MD or DO only" : "MD, DO, NP or PA"} | ${specialtyList(visitType)} |`;
  });
  return `# Lakeside Community Clinic — Scheduling Rules

Owner: ${director}, Medical Director. Applies to all scheduling staff. Last revised for the current quarter.

## 1. Clinic hours

Providers see patients from ${formatClock(CLINIC_OPEN_MINUTES)} and the last visit must end by ${formatClock(
    CLINIC_CLOSE_MINUTES,
  )}, Monday to Friday. Each provider holds clinic only on the weekdays listed for them in
\`staff/provider-roster.csv\` (their "clinic days"); on other weekdays they are not in the building and must not be
booked.

## 2. Visit types

The appointment book stores only a visit's start time and visit type; its length and room needs come from this
table.

| Visit type | Description | Length | Room type | Room turnover after the visit | Who may perform | Offered by |
|---|---|---|---|---|---|---|
${rows.join("\n")}

## 3. Rooms

- A visit must be booked in a room of the type listed above. Telehealth visits have no room.
- A room is occupied from the visit's start time until the end of the visit **plus its turnover time** (procedure
  rooms are cleaned for 15 minutes after each procedure).
- Two appointments double-book a room when their occupied periods in that room overlap. A visit may start exactly
  when the previous occupancy ends (for example a follow-up at 10:20 after a follow-up at 10:00 is fine).
- Cancelled appointments do not occupy a room.

## 4. Provider availability and coverage

- A provider cannot see two patients at once: a provider's non-cancelled appointments must not overlap in time
  (the room turnover does not apply to providers).
- When a provider is on approved leave (see the leave memos in \`memos/\`), every **scheduled** appointment they hold
  on a leave day, first and last day included, is moved to a covering provider. The covering provider must:
  1. have the same specialty as the provider on leave;
  2. hold clinic on that weekday according to the roster;
  3. not be on approved leave that day themselves;
  4. be allowed to perform the visit type (procedures need an MD or DO);
  5. have no other non-cancelled appointment overlapping the visit.
- Keep the appointment's date, start time, room and visit type; only the provider changes. Cancelled, completed or
  no-show appointments are never reassigned.
- Any covering provider who meets all five conditions is acceptable.

## 5. Double bookings

Report suspected double bookings to the practice manager with the appointment numbers involved. Do not cancel
either appointment yourself.
`;
}

function noShowPolicy(world: ClinicWorld, manager: string): string {
  const start = addDays(world.referenceDate, -NO_SHOW_REVIEW_DAYS);
  const end = addDays(world.referenceDate, -1);
  const feeRows = VISIT_TYPES.map(
    (visitType) => `| \`${visitType}\` | ${formatUsd(VISIT_RULES[visitType].noShowFee)} |`,
  ).join("\n");
  return `# Missed Appointment (No-Show) Policy

Owner: ${manager}, Practice Manager.

A no-show is an appointment whose status is \`no_show\`: the patient neither arrived nor cancelled.

## Review period

The policy is applied in four-week cycles. **The current cycle covers appointments dated ${start} through ${end}
(both days included).** No-shows outside the cycle are not counted and are not charged in this cycle.

## Counted no-shows

Every no-show in the review period counts, except:

1. **Clinic closures.** When the clinic closes early or does not open, no-shows for appointments that fell inside the
   closure are excused. Closure notices are posted in \`memos/\` and state the exact time the closure began.
2. **Excused by a supervisor.** A no-show that the front-desk daily log (\`front-desk/\`) records as \`EXCUSED\` is
   excused (for example a patient who was hospitalised).

Excused no-shows are neither charged nor counted.

## Fees

The patient's **first** counted no-show in the review period (the earliest by appointment start time) receives a
courtesy reminder letter and no fee. Each later counted no-show in the period is charged the missed appointment fee
for its visit type:

| Visit type | Missed appointment fee |
|---|---|
${feeRows}

Post each fee on the missed appointment as a charge with code \`${NO_SHOW_CHARGE_CODE}\` and category \`admin_fee\`,
one charge per missed appointment.

**Medicaid.** Patients whose insurance plan is a Medicaid plan (plan type \`medicaid\`) are never charged no-show
fees (state Medicaid rules prohibit it). Their no-shows still count towards the scheduling flag below.

## Scheduling flag

Patients with ${NO_SHOW_FLAG_THRESHOLD} or more counted no-shows in the review period are set to scheduling status
\`prepay_required\` (they must pay their expected share before future visits are confirmed). Patients whose
status is already \`restricted\` keep that stricter status. Nobody's status is lowered by this review.
`;
}

function coverageTable(): string {
  const lines = ["plan_code,payer,plan_name,category,covered,copay,coinsurance_percent"];
  for (const plan of PLANS) {
    for (const category of ["office_visit", "procedure", "imaging", "lab"] as const) {
      const terms = plan.coverage[category];
      lines.push(
        [
          plan.code,
          plan.payer,
          `"${plan.name}"`,
          category,
          terms ? "yes" : "no",
          terms ? terms.copay.toFixed(2) : "",
          terms ? String(terms.coinsurancePercent) : "",
        ].join(","),
      );
    }
  }
  return `${lines.join("\n")}\n`;
}

function billingPolicy(manager: string): string {
  return `# Patient Billing Policy

Owner: ${manager}, Practice Manager. Applies to patient statements and account reviews.

## Patient share of a charge

Every charge line has a category (\`office_visit\`, \`procedure\`, \`imaging\`, \`lab\` or \`admin_fee\`) and a claim
status. The patient's share of one charge line is:

- **Insured patients, covered category** (see \`billing/insurance-coverage.csv\`, matched on the patient's plan code
  and the charge category): the copay, plus the coinsurance percentage of the rest of the amount.
  In other words \`share = copay + (amount - copay) x coinsurance_percent / 100\`. If the copay is larger than the
  amount, the share is the whole amount.
- **Insured patients, category not covered** by their plan (\`covered = no\`): the whole amount.
- **Self-pay patients** (no insurance plan on file): the whole amount less the ${SELF_PAY_DISCOUNT_PERCENT}% self-pay discount.
- **Administrative fees** (category \`admin_fee\`, such as missed appointment fees): always the whole amount. They are
  never sent to insurance and never discounted.

Round each line's share to the cent.

## What is on the patient's balance

- Only charges whose claim status is \`adjudicated\` or \`patient_only\` are billed to the patient. Charges with
  claim status \`pending\` are waiting for the insurer and are left out of the balance until the claim is processed.
- Payments with status \`posted\` reduce the balance. Payments with status \`reversed\` (returned checks, card
  chargebacks) do not count.
- Outstanding balance = sum of the patient shares of billed charges - sum of posted payments. It may be negative
  (a credit) when a copay was collected before the claim was processed.

## Collections review

Accounts whose outstanding balance is **greater than ${formatUsd(COLLECTIONS_THRESHOLD)}** go to the monthly collections
review. Accounts at exactly ${formatUsd(COLLECTIONS_THRESHOLD)} or less receive a normal statement.
`;
}

function roster(world: ClinicWorld): string {
  const specialtyName = new Map(SPECIALTIES.map((specialty) => [specialty.code, specialty.name]));
  const hours = `${formatClock(CLINIC_OPEN_MINUTES)}-${formatClock(CLINIC_CLOSE_MINUTES)}`;
  return toCsv(
    ["provider_id", "provider_name", "credential", "specialty", "clinic_days", "hours"],
    world.providers.map((provider) => [
      provider.id,
      `${provider.firstName} ${provider.lastName}`,
      provider.credential,
      specialtyName.get(provider.specialtyCode)!,
      provider.clinicDays.map((day) => WEEKDAY_NAMES[day]).join(" "),
      hours,
    ]),
  );
}

function leaveMemo(world: ClinicWorld, director: string, issuedOn: string): string {
  const specialtyName = new Map(SPECIALTIES.map((specialty) => [specialty.code, specialty.name]));
  const weekOf = world.leaves[0]!.from;
  const ordered = [...world.leaves].sort((a, b) =>
    a.from === b.from ? a.provider.lastName.localeCompare(b.provider.lastName) : a.from < b.from ? -1 : 1,
  );
  const rows = ordered.map((leave) => {
    const name = providerLabel(leave.provider, true);
    const status = leave.confirmed ? `Approved (${leave.reason.toLowerCase()})` : "WITHDRAWN";
    return `| ${name} | ${leave.provider.id} | ${specialtyName.get(leave.provider.specialtyCode)} | ${leave.from} | ${leave.to} | ${status} |`;
  });
  const withdrawn = world.leaves.find((leave) => !leave.confirmed)!;
  return `# Memo: provider leave and coverage, week of ${weekOf}

From: ${director}, Medical Director
To: Scheduling team, front desk, clinical staff
Date: ${issuedOn}

The leave requests below were reviewed at Monday's operations huddle.

| Provider | Provider ID | Specialty | First day out | Last day out | Status |
|---|---|---|---|---|---|
${rows.join("\n")}

${providerLabel(withdrawn.provider)} withdrew the leave request and will see patients as booked; nothing on that
schedule changes.

Scheduling team: for every approved leave, please move each scheduled appointment on a leave day (first and last day
included) to a covering colleague following section 4 of the Scheduling Rules (\`policies/scheduling-rules.md\`).
Patients are notified of the new provider automatically, so dates, times and rooms must stay as booked.
`;
}

function closureMemo(world: ClinicWorld, manager: string): string {
  return `# Early closure: ${dayHeading(world.closureDate)}

From: ${manager}, Practice Manager
Date: ${world.closureDate}
Closure date: ${world.closureDate}

Because of the ice storm warning issued by the county this morning, the clinic closed at 12:00 on
${dayHeading(world.closureDate)}. All staff were sent home at noon.

The front desk called as many afternoon patients as possible, but many could not be reached before the end-of-day
job ran, and their appointments were marked \`no_show\` automatically. Appointments that started at or after 12:00
that day fall inside the closure: they are excused under the no-show policy and must not be charged or counted.
Appointments before 12:00 went ahead normally and are handled as on any other day.

Patients who missed an afternoon appointment should be offered the first available slot.
`;
}

const DESK_NOISE = [
  "Phones forwarded back from the answering service.",
  "Supply delivery received (gloves, exam paper).",
  "Interpreter line requested for a Spanish-speaking patient.",
  "Card reader at window 2 restarted.",
  "Courier picked up lab specimens.",
  "Parking validation stamps restocked.",
  "Waiting room TV turned off after complaints about volume.",
  "Pharmacy called about a prior authorization; message sent to the nurse pool.",
  "Wheelchair returned to the entrance.",
  "Fax queue cleared.",
];

const EXCUSE_REASONS = [
  "patient was admitted to hospital",
  "patient was in the emergency department",
  "death in the family",
  "clinic gave the wrong appointment time",
  "car accident on the way in",
];

function frontDeskLog(world: ClinicWorld, date: string, deskStaff: string[]): string {
  const { random } = world;
  const patients = new Map(world.patients.map((patient) => [patient.id, patient]));
  const providers = new Map(world.providers.map((provider) => [provider.id, provider]));
  const entries: Array<[number, string]> = [];
  const staff = random.shuffle(deskStaff).slice(0, 2);
  entries.push([7 * 60 + random.int(40, 55), `Desk opened by ${staff[0]}.`]);
  const day = world.appointments.filter((appointment) => splitStartTime(appointment.startTime).date === date);
  for (const appointment of day) {
    const { minutes } = splitStartTime(appointment.startTime);
    const patient = patients.get(appointment.patientId)!;
    const provider = providers.get(appointment.providerId)!;
    const who = `appt #${appointment.id}, ${patient.mrn}, ${formatClock(minutes)} with ${providerLabel(provider)}`;
    if (appointment.status === "completed" && random.chance(0.4)) {
      entries.push([minutes - random.int(3, 15), `Checked in ${who}.`]);
    } else if (appointment.status === "no_show") {
      if (date === world.closureDate && minutes >= 12 * 60) continue;
      entries.push([minutes + random.int(15, 25), `No-show: ${who}. Left voicemail.`]);
      if (world.excusedAppointmentIds.has(appointment.id))
        entries.push([
          minutes + random.int(60, 180),
          `No-show EXCUSED by supervisor ${staff[1]}: ${who} (${random.pick(EXCUSE_REASONS)}).`,
        ]);
    } else if (appointment.status === "cancelled" && random.chance(0.3)) {
      entries.push([minutes - random.int(60, 120), `Cancellation taken for ${who}.`]);
    }
  }
  for (const noise of random.shuffle(DESK_NOISE).slice(0, random.int(2, 4)))
    entries.push([random.int(8 * 60, 16 * 60), noise]);
  if (date === world.closureDate)
    entries.push([12 * 60, "CLINIC CLOSED at 12:00 (ice storm). Calling afternoon patients."]);
  entries.push([17 * 60 + random.int(5, 25), `Desk closed by ${staff[1]}. Deposit bag to the safe.`]);
  entries.sort((a, b) => a[0] - b[0]);
  const lines = entries.map(([minutes, text]) => `${formatClock(Math.max(0, minutes))}  ${text}`);
  return `FRONT DESK DAILY LOG — Lakeside Community Clinic
Date: ${dayHeading(date)}
Staff on desk: ${staff.join(", ")}

${lines.join("\n")}
`;
}

function scheduleExport(world: ClinicWorld, date: string): string {
  const patients = new Map(world.patients.map((patient) => [patient.id, patient]));
  const providers = new Map(world.providers.map((provider) => [provider.id, provider]));
  const rooms = new Map(world.rooms.map((room) => [room.id, room]));
  const day = world.appointments
    .filter((appointment) => splitStartTime(appointment.startTime).date === date)
    .sort((a, b) => (a.startTime === b.startTime ? a.id - b.id : a.startTime < b.startTime ? -1 : 1));
  // Every full provider label holds a comma ("Dr. Ada Lee, MD"), so the provider column is always quoted.
  return toCsv(
    ["appointment_id", "start", "end", "provider", "room", "patient_mrn", "visit_type", "status"],
    day.map((appointment) => {
      const { minutes } = splitStartTime(appointment.startTime);
      return [
        appointment.id,
        formatClock(minutes),
        formatClock(minutes + VISIT_RULES[appointment.visitType].lengthMinutes),
        providerLabel(providers.get(appointment.providerId)!, true),
        appointment.roomId ? rooms.get(appointment.roomId)!.code : "VIRTUAL",
        patients.get(appointment.patientId)!.mrn,
        appointment.visitType,
        appointment.status,
      ];
    }),
  );
}

const MEETING_TOPICS = [
  "Flu vaccine clinic planning: walk-in hours on Saturdays in October, staffing sign-up sheet at the nurse station.",
  "Hand hygiene audit: compliance 91% last month, target 95%. Refresher video assigned to everyone.",
  "New phone tree goes live next month; option 3 will route to billing.",
  "Reminder to confirm the insurance card at every check-in, not only for new patients.",
  "Patient portal sign-ups are up 12%; keep handing out the flyer at checkout.",
  "The lab courier pickup moves to 15:30. Specimens after that go out the next morning.",
  "EHR upgrade scheduled for a Saturday night; downtime forms are in the blue binder.",
  "Interpreter services: book the in-person interpreter 48 hours ahead when possible.",
  "Fire drill next quarter; exits on floor 3 are through the imaging corridor.",
  "Parking garage level 2 restriping; staff park on level 4 during the work.",
  "Welcome to the two new medical assistants starting this month.",
  "Billing reminder: statements go out on the 5th; questions to the practice manager.",
];

/** Routine memos, one per line: file slug | title | body. */
const MEMO_TOPICS = `
ehr-downtime | Planned EHR downtime | The electronic health record will be unavailable from 22:00 Saturday to 04:00 Sunday for a vendor upgrade. No clinic hours are affected. Use the paper downtime forms for any after-hours documentation.
parking | Parking garage restriping | Level 2 of the garage is closed for restriping for two weekends. Patients may use the surface lot; staff please park on level 4.
supply-ordering | Supply ordering cutoff | Supply orders must reach materials management by Wednesday noon to arrive the following Monday. Urgent requests go through the charge nurse.
hand-hygiene | Hand hygiene audit results | Last month's observed compliance was 91%. Units below 90% will be re-audited. Thanks to everyone for the improvement.
flu-clinic | Flu vaccine clinic | Walk-in flu vaccine clinics run on Saturday mornings in October in the community room. They do not use exam rooms and are not booked in the appointment system.
phone-system | New phone tree | The new phone menu routes option 1 to scheduling, option 2 to the nurse line and option 3 to billing. Front-desk extensions are unchanged.
badge-access | Badge access update | Badge readers on the third floor were reprogrammed. Report any access problem to facilities.
interpreter | Interpreter services reminder | In-person interpreters need 48 hours' notice. Video interpreting is available at every check-in window.
`
  .trim()
  .split("\n")
  .map((line) => line.split(" | ") as [string, string, string]);

function writeNotes(context: GenerateContext, world: ClinicWorld, director: string, manager: string): void {
  const { random } = world;
  const memoTopics = random.shuffle(MEMO_TOPICS);
  let meeting = world.referenceDate;
  while (weekdayOf(meeting) !== 2) meeting = addDays(meeting, -1);
  for (let index = 0; index < world.noteCount; index += 1) {
    if (index % 2 === 0 || index / 2 >= memoTopics.length) {
      meeting = addDays(meeting, -7);
      const topics = random.shuffle(MEETING_TOPICS).slice(0, random.int(3, 5));
      const attendees = [
        director,
        manager,
        ...Array.from(
          { length: 3 },
          () => `${context.faker.person.firstName()} ${context.faker.person.lastName()}`,
        ),
      ];
      context.writeFile(
        `notes/staff-meeting-${meeting}.md`,
        `# Staff meeting notes — ${dayHeading(meeting)}

Attendees: ${attendees.join(", ")}
Note taker: ${attendees[2]}

${topics.map((topic, position) => `${position + 1}. ${topic}`).join("\n")}

Next meeting: ${addDays(meeting, 7)}.
`,
      );
    } else {
      const [slug, title, body] = memoTopics[Math.floor(index / 2)]!;
      const issued = addDays(world.referenceDate, -random.int(3, 60));
      context.writeFile(
        `memos/${issued}-${slug}.md`,
        `# ${title}

From: ${random.chance(0.5) ? director : manager}
Date: ${issued}

${body}
`,
      );
    }
  }
}
