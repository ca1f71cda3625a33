import { readdirSync } from "node:fs";
import { join } from "node:path";
import {
  addDays,
  allRows,
  answerObjectEntries,
  cachedStatement,
  check,
  checkStateDiff,
  defineTask,
  longDate,
  writeEmailsBySent,
  type Check,
  type GenerateContext,
  type StateView,
  type VerifyContext,
  variantNearMisses,
} from "../../../envs/index.js";
import { airlineDomain } from "../domain.js";
import { AIRLINE_HELPERS } from "./python.js";
import { TODAY, TODAY_TEXT, ORACLE_OPTIONS } from "./shared.js";

/** How an email's body reads as an aircraft status taking effect now (null: nothing changes now). */
const READINGS: Array<{ pattern: RegExp; status: string | null }> = [
  { pattern: /is planned into the hangar/, status: null },
  { pattern: /disregard my earlier message|stays in service/, status: "active" },
  { pattern: /released to service/, status: "active" },
  { pattern: /grounded it effective immediately|is AOG:/, status: "grounded" },
  { pattern: /into the hangar this morning|stays in the hangar/, status: "maintenance" },
];

interface Email {
  sent: string;
  from: string;
  tail: string | null;
  status: string | null;
}

function readEmail(text: string): Email {
  const header = (name: string): string => new RegExp(`^${name}: (.*)$`, "m").exec(text)?.[1]?.trim() ?? "";
  const reading = READINGS.find((item) => item.pattern.test(text));
  return {
    sent: header("Sent"),
    from: header("From"),
    tail: /\b(N\d{3}RA)\b/.exec(header("Subject"))?.[1] ?? null,
    status: reading ? reading.status : null,
  };
}

/** The status each aircraft must have now by the latest email about it, where it differs from the system. */
export function expectedStatusChanges(state: StateView): Map<string, string> {
  const emails = state
    .listFiles()
    .filter((path) => path.startsWith("emails/"))
    .map((path) => readEmail(state.readFile(path) ?? ""))
    .filter((email) => email.tail !== null)
    .sort((x, y) => x.sent.localeCompare(y.sent));
  const latest = new Map<string, string | null>();
  for (const email of emails) {
    const tail = email.tail as string;
    if (email.status !== null || !latest.has(tail)) latest.set(tail, email.status);
  }
  const current = new Map(
    allRows<{ tail: string; status: string }>(state.db, "SELECT tail, status FROM aircraft").map((row) => [
      row.tail,
      row.status,
    ]),
  );
  const changes = new Map<string, string>();
  for (const [tail, status] of [...latest].sort((x, y) => x[0].localeCompare(y[0])))
    if (status !== null && current.has(tail) && current.get(tail) !== status) changes.set(tail, status);
  return changes;
}

/**
 * Engineering's emails of the last days: a return to service, an aircraft taken into the hangar, a check
 * planned for next week (nothing to do yet), and an AOG report corrected a few hours later; at larger
 * scales more of each.
 */
function prepare(context: GenerateContext): void {
  const { db, random, factors } = context;
  const mentioned = new Set(
    readdirSync(join(context.workspaceDir, "emails"))
      .sort()
      .flatMap((name) =>
        [...(context.readFile(`emails/${name}`) ?? "").matchAll(/\bN\d{3}RA\b/g)].map((match) => match[0]),
      ),
  );
  const fleet = allRows<{ tail: string; status: string }>(
    db,
    "SELECT tail, status FROM aircraft ORDER BY tail",
  ).filter((plane) => !mentioned.has(plane.tail));
  const pool = random.shuffle(fleet);
  const take = (status: string): string | null => {
    const index = pool.findIndex((plane) => plane.status === status);
    const fallback = index >= 0 ? index : pool.findIndex((plane) => plane.status !== "grounded");
    if (fallback < 0) return null;
    const [plane] = pool.splice(fallback, 1);
    if (!plane) return null;
    if (plane.status !== status)
      cachedStatement(db, "UPDATE aircraft SET status = ? WHERE tail = ?").run(status, plane.tail);
    return plane.tail;
  };
  const emails: Array<{ sent: string; subject: string; body: string }> = [];
  const day = (offset: number, time: string): string => `${addDays(TODAY, offset)} ${time}`;
  for (let round = 0; round < factors.files; round += 1) {
    const back = take("maintenance");
    if (back)
      emails.push({
        sent: day(-1 - round, "07:20"),
        subject: `${back} released to service`,
        body: `Work on ${back} is complete and signed off. The aircraft is serviceable and released to service; ops can plan it again from now.`,
      });
    const hangar = take("active");
    if (hangar)
      emails.push({
        sent: day(-round, "06:50"),
        subject: `${hangar} unserviceable`,
        body: `We have taken ${hangar} into the hangar this morning for an unscheduled borescope inspection after a high EGT reading. It is unavailable until further notice.`,
      });
    const planned = take("active");
    if (planned)
      emails.push({
        sent: day(-1 - round, "15:40"),
        subject: `${planned} A-check next week`,
        body: `${planned} is planned into the hangar for its A-check on ${longDate(addDays(TODAY, 5 + round))}. Keep it flying until then; we will confirm the slot the day before.`,
      });
    const corrected = take("active");
    if (corrected) {
      emails.push({
        sent: day(-1 - round, "09:05"),
        subject: `${corrected} AOG at BOS`,
        body: `${corrected} is AOG: hydraulic fluid found on the nose gear during the walkaround. Parts are being sourced.`,
      });
      emails.push({
        sent: day(-1 - round, "13:30"),
        subject: `Re: ${corrected} AOG at BOS`,
        body: `Correction: the fluid on ${corrected} came from a loose fitting, tightened and leak-checked on the spot. The aircraft stays in service - please disregard my earlier message.`,
      });
    }
    if (round > 0) {
      const grounded = take("active");
      if (grounded)
        emails.push({
          sent: day(-round, "05:55"),
          subject: `${grounded} AOG at BOS`,
          body: `${grounded} is AOG: cracked windshield found on the walkaround. Replacement on order, no estimate yet.`,
        });
    }
  }
  const from = "engineering@regionalair.example";
  writeEmailsBySent(
    context,
    "emails/engineering-",
    emails.map(({ sent, subject, body }) => ({
      headers: { From: from, Sent: sent, Subject: subject },
      body,
    })),
  );
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const expected = expectedStatusChanges(initial);
  const entries = answerObjectEntries(answer, "changed");
  const given =
    entries &&
    new Map(
      entries.map(([tail, status]) => [tail.trim().toUpperCase(), String(status).trim().toLowerCase()]),
    );
  const answerOk =
    given !== null &&
    given.size === expected.size &&
    [...expected].every(([tail, status]) => given.get(tail) === status);
  return [
    ...checkStateDiff(initial.db, final.db, [
      {
        table: "aircraft",
        key: "tail",
        changed: new Map([...expected].map(([tail, status]) => [tail, { status }])),
      },
    ]),
    check(
      "answer-changes",
      answerOk,
      answerOk
        ? "answer lists the status changes"
        : `expected {"changed": ${JSON.stringify(Object.fromEntries(expected))}}, found '${answer.slice(0, 200)}'`,
    ),
  ];
}

interface Options {
  plannedNow?: boolean;
  missesCorrection?: boolean;
  engineeringOnly?: boolean;
}

function cells(options: Options = {}): string[] {
  const readings = [
    ...(options.plannedNow ? [] : [[String.raw`is planned into the hangar`, "None"]]),
    ...(options.missesCorrection
      ? []
      : [[String.raw`disregard my earlier message|stays in service`, '"active"']]),
    [String.raw`released to service`, '"active"'],
    [String.raw`grounded it effective immediately|is AOG:`, '"grounded"'],
    [String.raw`into the hangar|stays in the hangar`, '"maintenance"'],
  ]
    .map(([pattern, status]) => `    (r"${pattern}", ${status}),`)
    .join("\n");
  return [
    AIRLINE_HELPERS,
    String.raw`
readings = [
${readings}
]
emails = []
for path in folder_paths("emails"):
    text = read_text(path)
    header = {key: value.strip() for key, value in re.findall(r"^(From|Sent|Subject): (.*)$", text, re.M)}
    ${options.engineeringOnly ? 'if not header.get("From", "").startswith("engineering@"):\n        continue' : ""}
    tail = re.search(r"\b(N\d{3}RA)\b", header.get("Subject", ""))
    if not tail:
        continue
    status = next((value for pattern, value in readings if re.search(pattern, text)), None)
    emails.append((header["Sent"], tail.group(1), status, path))
emails.sort()
for email in emails:
    print(email)
`,
    String.raw`
latest = {}
for sent, tail, status, path in emails:
    if status is not None or tail not in latest:
        latest[tail] = status
fleet = {plane["tail"]: plane["status"] for plane in fetch("list_aircraft", "aircraft")}
changed = {}
for tail, status in sorted(latest.items()):
    if status is not None and tail in fleet and fleet[tail] != status:
        call("set_aircraft_status", tail=tail, status=status)
        changed[tail] = status
print(json.dumps({"changed": changed}))
`,
  ];
}

export const fleetStatusEmailsTask = defineTask({
  id: "airline.fleet-status-emails",
  domain: airlineDomain,
  summary:
    "Bring aircraft statuses in the ops system in line with the emails from engineering and ops control: read each email, take the latest word per aircraft (a correction overrides an AOG report, a check planned for next week changes nothing yet) and set only the statuses that differ.",
  instruction: `Maintenance control here. ${TODAY_TEXT} The aircraft statuses in the ops system have fallen behind the emails from engineering and ops control (emails folder). Please set every aircraft's status to what the latest email about it says it is right now (active, maintenance or grounded); leave aircraft whose status is already right, and do not change any flights. Reply with only a JSON object {"changed": {"<tail>": "<new status>", ...}} listing every aircraft whose status you changed.`,
  tools: ["list_aircraft", "get_aircraft", "set_aircraft_status", "list_flights"],
  prepare,
  verify,
  oracle: cells(),
  nearMisses: variantNearMisses(cells, ORACLE_OPTIONS, {
    "planned-check-now": [
      { plannedNow: true },
      "Puts an aircraft into maintenance now for a check that is only planned for next week.",
    ],
    "misses-correction": [
      { missesCorrection: true },
      "Does not read the correction to an AOG report and leaves that aircraft grounded.",
    ],
    "engineering-only": [
      { engineeringOnly: true },
      "Reads only engineering's emails and misses the ops-control AOG email.",
    ],
  }),
});
