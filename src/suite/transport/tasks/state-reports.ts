import { addDays, allRows, checkAnswerCount, checkStateDiff } from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { INBOX } from "../documents.js";
import { defineTransportTask, nonEmpty } from "./common.js";

const FORWARD = "---------- Forwarded message ---------";
type Report = { route_id: string; driver_id: string; incident_date: string; category: string };

/** One incident mail read the way the office reads it: the original sender, the route, the day, the category. */
export function readIncidentMail(text: string, driverIds: Map<string, string>): Report | null {
  const mail = text.includes(FORWARD) ? text.split(FORWARD)[1]! : text;
  const sender = /^From: .+? <(.+?)>/m.exec(mail)![1]!;
  const sent = `2025-06-${/^Sent: \w+, (\d+) Jun 2025/m.exec(mail)![1]!.padStart(2, "0")}`;
  const body = mail.split("\n\n").slice(1).join("\n\n");
  const category = /evacuated/.test(body)
    ? "evacuation"
    : /was injured/.test(body)
      ? "injury"
      : /clipped|backed into|rear-ended/.test(body)
        ? "collision"
        : null;
  if (category === null) return null;
  const named = /on \w+day \((\d+) June\)/i.exec(body);
  const date = named
    ? `2025-06-${named[1]!.padStart(2, "0")}`
    : /yesterday/i.test(body)
      ? addDays(sent, -1)
      : sent;
  const route = /(?:route |Rt\. |the )(\d{3})\b/.exec(body)![1]!;
  return { route_id: `RT-${route}`, driver_id: driverIds.get(sender)!, incident_date: date, category };
}

/** The reports the inbox calls for: reportable incidents, once each, not already on file. */
export function expectedReports(state: StateView): Report[] {
  const driverIds = new Map(
    allRows<{ email: string; driver_id: string }>(state.db, "SELECT email, driver_id FROM drivers").map(
      (d) => [d.email, d.driver_id],
    ),
  );
  const key = (r: Report): string => `${r.route_id}|${r.incident_date}|${r.category}`;
  const filed = new Set(allRows<Report>(state.db, "SELECT * FROM state_reports").map(key));
  const reports = new Map<string, Report>();
  for (const path of state
    .listFiles()
    .filter((file) => file.startsWith(INBOX))
    .sort()) {
    const report = readIncidentMail(state.readFile(path)!, driverIds);
    if (report && !filed.has(key(report))) reports.set(key(report), report);
  }
  return nonEmpty([...reports.values()], "incident to report");
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const reports = expectedReports(initial);
  return [
    ...checkStateDiff(initial.db, final.db, [{ table: "state_reports", key: "report_id", added: reports }]),
    checkAnswerCount(answer, reports.length),
  ];
}

type Variant = { naiveInjury?: boolean; sentDate?: boolean; noDedupe?: boolean; byName?: boolean };

function cell(variant: Variant): string {
  return String.raw`
FORWARD = "---------- Forwarded message ---------"
drivers = {d[${variant.byName ? '"name"' : '"email"'}]: d["driver_id"] for d in fetch("list_drivers", "drivers")}
on_file = {(r["route_id"], r["incident_date"], r["category"]) for r in fetch("list_state_reports", "reports")}
filed = 0
for path in workspace_files("inbox/incidents"):
    text = read_text(path)
    mail = text.split(FORWARD)[1] if FORWARD in text else text
    sender = re.search(r"^From: ${variant.byName ? "(.+?) <" : ".+? <(.+?)>"}", mail, re.M).group(1)
    sent = "2025-06-%02d" % int(re.search(r"^Sent: \w+, (\d+) Jun 2025", mail, re.M).group(1))
    body = mail.split("\n\n", 1)[1]
    if "evacuated" in body:
        category = "evacuation"
    elif ${variant.naiveInjury ? '"injur" in body' : '"was injured" in body'}:
        category = "injury"
    elif re.search(r"clipped|backed into|rear-ended", body):
        category = "collision"
    else:
        continue
    named = re.search(r"on \w+day \((\d+) June\)", body, re.I)
    day = sent
    ${variant.sentDate ? "pass" : 'if named:\n        day = "2025-06-%02d" % int(named.group(1))\n    elif "yesterday" in body.lower():\n        day = (Date.fromisoformat(sent) - timedelta(days=1)).isoformat()'}
    route = "RT-" + re.search(r"(?:route |Rt\. |the )(\d{3})\b", body).group(1)
    key = (route, day, category)
    if key in on_file:
        continue
    call("file_state_report", route_id=route, driver_id=drivers[sender], incident_date=day, category=category)
    ${variant.noDedupe ? "" : "on_file.add(key)"}
    filed += 1
print(f"Filed {filed} reports")
`;
}

export const stateReportsTask = defineTransportTask<Variant>({
  id: "transport.state-reports",
  summary: "File the state incident reports the drivers' incident e-mails call for, once each.",
  instruction:
    "Go through the drivers' incident e-mails in inbox/incidents/ and file a state report (file_state_report) for every incident our transportation policy (policies/transportation-policy.md) says must be reported. Reply with the number of reports you filed, e.g. `Filed 3 reports`.",
  tools: ["list_drivers", "list_routes", "list_state_reports", "file_state_report"],
  verify,
  cells: cell,
  nearMisses: [
    ["injury-keyword", 'Reads "No injuries" in a collision report as an injury.', { naiveInjury: true }],
    ["sent-date", "Files incidents with the e-mail's sent date.", { sentDate: true }],
    ["files-forwarded-copy", "Files a forwarded copy of an incident again.", { noDedupe: true }],
    ["driver-by-name", "Finds the driver by the sender's name, which a spare shares.", { byName: true }],
  ],
});
