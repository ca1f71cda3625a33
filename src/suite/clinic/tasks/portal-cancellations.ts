import {
  addDays,
  allRows,
  getRow,
  checkStateDiff,
  defineTask,
  MONTH_NAMES,
  parseAnswerList,
  renderEmail,
  weekdayName,
  type Check,
  type GenerateContext,
  type StateView,
  type VerifyContext,
} from "../../../envs/index.js";
import { clinicDomain } from "../domain.js";
import { formatClock, splitStartTime } from "../rules.js";
import { checkAnswerListsExactly } from "./answer-lists.js";
import { clinicNearMisses, PYTHON_PAGING_CELL } from "./python-helpers.js";

export const PORTAL_POLICY_PATH = "policies/portal-messages.md";
export const PORTAL_INBOX = "portal/inbox";
export const PORTAL_CANCEL_REASON = "Patient request via portal";

/** How patients write a date: "Thursday, July 3" or "July 3rd". */
function spokenDate(isoDate: string, withWeekday: boolean): string {
  const day = new Date(`${isoDate}T00:00:00Z`);
  const n = day.getUTCDate();
  const suffix =
    n % 10 === 1 && n !== 11
      ? "st"
      : n % 10 === 2 && n !== 12
        ? "nd"
        : n % 10 === 3 && n !== 13
          ? "rd"
          : "th";
  return withWeekday
    ? `${weekdayName(isoDate)}, ${MONTH_NAMES[day.getUTCMonth()]} ${n}`
    : `${MONTH_NAMES[day.getUTCMonth()]} ${n}${suffix}`;
}

function spokenTime(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const clock = formatClock(minutes).replace(/^0/, "");
  return hours >= 12
    ? `${hours === 12 ? clock : formatClock(minutes - 720).replace(/^0/, "")} pm`
    : `${clock} am`;
}

interface Candidate {
  appointment_id: number;
  patient_id: number;
  first_name: string;
  last_name: string;
  email: string;
  start_time: string;
  others: number;
}

/**
 * Writes the portal message policy and a patient portal inbox: cancellations from the address on file,
 * requests to move an appointment (not cancellations), a cancellation from an address that is not on file
 * and cancellations by patients holding other appointments that stay booked.
 */
function prepare(context: GenerateContext): void {
  const { db, random, factors, referenceDate } = context;
  context.writeFile(
    PORTAL_POLICY_PATH,
    `# Patient portal messages: front-desk handling

Owner: Practice Manager. Portal messages are answered within one business day.

1. **Identity.** Act on a message only when the sender's address is the email on file for the patient
   (see the patient record). A message from any other address, even if it is signed with a patient's name,
   is not acted on: the desk calls the patient on the phone number on file instead.
2. **Cancellations.** When a verified patient asks to cancel an appointment, cancel the scheduled
   appointment they name (by its date) with the reason "${PORTAL_CANCEL_REASON}". Cancel only that
   appointment; the patient's other appointments stay booked.
3. **Moving an appointment.** A request to move or reschedule an appointment is not a cancellation. Leave the
   appointment as it is; scheduling calls the patient back to find a new time.
4. Messages about anything else (billing questions, refills) are forwarded and need no change in the
   appointment book.
`,
  );
  const candidates = random.shuffle(
    db
      .prepare(
        `SELECT a.id AS appointment_id, a.patient_id, p.first_name, p.last_name, p.email, a.start_time,
                (SELECT COUNT(*) FROM appointments o WHERE o.patient_id = a.patient_id AND o.status = 'scheduled' AND o.id != a.id) AS others
           FROM appointments a JOIN patients p ON p.id = a.patient_id
          WHERE a.status = 'scheduled' AND substr(a.start_time, 1, 10) > ? AND p.email IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM appointments d WHERE d.patient_id = a.patient_id AND d.id != a.id
                             AND d.status = 'scheduled' AND substr(d.start_time, 1, 10) = substr(a.start_time, 1, 10))
          ORDER BY a.id`,
      )
      .all(referenceDate) as Candidate[],
  );
  const count = 5 * factors.files;
  const usedPatients = new Set<number>();
  const pick = (predicate: (candidate: Candidate) => boolean): Candidate => {
    const found =
      candidates.find((candidate) => !usedPatients.has(candidate.patient_id) && predicate(candidate)) ??
      candidates.find((candidate) => !usedPatients.has(candidate.patient_id));
    if (!found) throw new Error("too few patients with upcoming appointments for the portal inbox");
    usedPatients.add(found.patient_id);
    return found;
  };
  for (let index = 0; index < count; index += 1) {
    // 0 and 4: cancellation, 1: move request, 2: cancellation from an address not on file, 3: cancellation by
    // a patient with other appointments.
    const kind = index % 5;
    const candidate = pick((item) => (kind === 3 ? item.others > 0 : item.others === 0));
    const { date, minutes } = splitStartTime(candidate.start_time);
    const when = `${spokenDate(date, index % 2 === 0)}${random.chance(0.5) ? ` at ${spokenTime(minutes)}` : ""}`;
    const name = `${candidate.first_name} ${candidate.last_name}`;
    const sender =
      kind === 2
        ? `${candidate.first_name}.${candidate.last_name}${random.int(10, 99)}@freemail.example`.toLowerCase()
        : candidate.email;
    const body =
      kind === 1
        ? random.pick([
            `I don't want to cancel, but could we move my appointment on ${when} to later that week? Mornings are hard for me right now.`,
            `Something came up at work. Is it possible to reschedule my visit on ${when} to a different day?`,
          ])
        : random.pick([
            `Please cancel my appointment on ${when}. I'm feeling much better and don't think I need it.`,
            `I need to cancel my visit on ${when} - we will be out of town. Sorry for the short notice.`,
            `Could you please cancel the appointment I have on ${when}? I'll call to book again later.`,
          ]);
    const sent = index % 3 === 0 ? referenceDate : addDays(referenceDate, -1);
    context.writeFile(
      `${PORTAL_INBOX}/msg-${String(index + 1).padStart(3, "0")}.txt`,
      renderEmail({ From: `${name} <${sender}>`, Sent: sent, Subject: "My appointment" }, [
        "Hello,",
        body,
        `Thank you,\n${name}`,
      ]),
    );
  }
}

export interface PortalMessage {
  email: string;
  intent: "cancel" | "move" | "other";
  date: string | null;
}

/** Reads a portal message: the sender's address, what it asks for and the appointment date it names. */
export function readPortalMessage(text: string, year: number): PortalMessage {
  const email = /^From: .*<([^>]+)>/m.exec(text)?.[1]?.trim().toLowerCase() ?? "";
  const body = text.split("\n\n").slice(1).join("\n\n");
  const intent = /\b(move|reschedule)\b/i.test(body) ? "move" : /\bcancel\b/i.test(body) ? "cancel" : "other";
  const match = new RegExp(`\\b(${MONTH_NAMES.join("|")}) (\\d{1,2})(?:st|nd|rd|th)?\\b`).exec(body);
  const date = match
    ? `${year}-${String(MONTH_NAMES.indexOf(match[1]!) + 1).padStart(2, "0")}-${match[2]!.padStart(2, "0")}`
    : null;
  return { email, intent, date };
}

export function expectedPortalCancellations(state: StateView): number[] {
  const cancelled: number[] = [];
  for (const path of state.listFiles().filter((file) => file.startsWith(`${PORTAL_INBOX}/`))) {
    const message = readPortalMessage(state.readFile(path) ?? "", 2025);
    if (message.intent !== "cancel" || !message.date) continue;
    const patient = getRow<{ id: number }>(
      state.db,
      "SELECT id FROM patients WHERE lower(email) = ?",
      message.email,
    );
    if (!patient) continue;
    const appointments = allRows<{ id: number }>(
      state.db,
      "SELECT id FROM appointments WHERE patient_id = ? AND status = 'scheduled' AND substr(start_time, 1, 10) = ? ORDER BY id",
      patient.id,
      message.date,
    );
    if (appointments.length === 1) cancelled.push(appointments[0]!.id);
  }
  return cancelled.sort((a, b) => a - b);
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const expected = expectedPortalCancellations(initial);
  if (expected.length === 0) throw new Error("generation produced no portal cancellation");
  const given = parseAnswerList(answer).map((item) => Number(item.replace(/^#/, "")));
  return [
    ...checkStateDiff(initial.db, final.db, [
      {
        table: "appointments",
        key: "id",
        changed: new Map(
          expected.map((id) => [id, { status: "cancelled", cancel_reason: PORTAL_CANCEL_REASON }]),
        ),
      },
    ]),
    checkAnswerListsExactly(answer, given, expected, "cancelled appointments", "ids"),
  ];
}

interface Variant {
  cancelMoves?: boolean;
  trustSignature?: boolean;
  cancelAll?: boolean;
}

function cells(variant: Variant = {}): string[] {
  return [
    PYTHON_PAGING_CELL,
    String.raw`
policy = tools.read_file(path="${PORTAL_POLICY_PATH}")["content"]
print(policy)
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
messages = []
for path in sorted(p for p in files if p.startswith("${PORTAL_INBOX}/")):
    text = tools.read_file(path=path)["content"]
    sender = re.search(r"^From: (.*?) <([^>]+)>", text, re.M)
    body = text.split("\n\n", 1)[1]
    if re.search(r"\b(move|reschedule)\b", body, re.I):
        intent = "move"
    elif re.search(r"\bcancel\b", body, re.I):
        intent = "cancel"
    else:
        intent = "other"
    m = re.search(r"\b(" + "|".join(MONTHS) + r") (\d{1,2})(?:st|nd|rd|th)?\b", body)
    day = f"2025-{MONTHS.index(m.group(1)) + 1:02d}-{int(m.group(2)):02d}" if m else None
    messages.append({"path": path, "name": sender.group(1), "email": sender.group(2).lower(), "intent": intent, "date": day})
for m in messages:
    print(m)
`,
    String.raw`
cancelled = []
for m in messages:
    if m["intent"] != "cancel" ${variant.cancelMoves ? 'and m["intent"] != "move"' : ""}:
        continue
    if not m["date"]:
        continue
    patient_id = None
    for candidate in fetch_all("list_patients", "patients", query=m["name"]):
        record = tools.get_patient(patient_id=candidate["id"])["patient"]
        if ${variant.trustSignature ? "True" : '(record["email"] or "").lower() == m["email"]'}:
            patient_id = record["id"]
            break
    if patient_id is None:
        print("not verified:", m["path"])
        continue
    filters = dict(patient_id=patient_id, status="scheduled") ${variant.cancelAll ? "" : '| dict(date_from=m["date"], date_to=m["date"])'}
    booked = fetch_all("list_appointments", "appointments", **filters)
    if ${variant.cancelAll ? "False" : "len(booked) != 1"}:
        print("ambiguous:", m["path"], booked)
        continue
    for appt in booked:
        tools.cancel_appointment(appointment_id=appt["id"], reason="${PORTAL_CANCEL_REASON}")
        cancelled.append(appt["id"])
print(len(cancelled), "cancelled")
`,
    `print(json.dumps(sorted(cancelled)))`,
  ];
}

export const portalCancellationsTask = defineTask({
  id: "clinic.portal-cancellations",
  domain: clinicDomain,
  summary:
    "Work the patient portal inbox: cancel only the appointments verified patients ask to cancel (email on file, the date they name), not move requests.",
  instruction:
    "Please work through the patient portal messages in portal/inbox and handle them as our portal message policy (policies/portal-messages.md) says. Make only the appointment changes it calls for and nothing else. Reply with only a JSON list of the ids of the appointments you cancelled, e.g. [812, 907].",
  tools: ["list_patients", "get_patient", "list_appointments", "get_appointment", "cancel_appointment"],
  prepare,
  verify,
  oracle: cells(),
  nearMisses: clinicNearMisses(cells, {
    "cancels-move-requests": [
      { cancelMoves: true },
      "Treats requests to move an appointment as cancellations.",
    ],
    "trusts-signature": [
      { trustSignature: true },
      "Identifies the patient by the name the message is signed with, not the email on file.",
    ],
    "cancels-every-appointment": [
      { cancelAll: true },
      "Cancels every scheduled appointment of the patient instead of the one named.",
    ],
  }),
});
