import { checkAnswerAmounts, checkAnswerIdLists, defineTask, flagNearMisses } from "../../../envs/index.js";
import { constructionDomain } from "../domain.js";
import { TODAY_TEXT, overdueRfis, overdueSubmittals, weatherDayCounts } from "./facts.js";
import { taskCells } from "./python.js";

const rfiCells =
  taskCells(`days = {priority: int(n) for priority, n in md_table(CONDITIONS, "RFI response times")}
counts = {p["project_id"]: 0 for p in fetch("list_projects", "projects")}
for item in fetch("list_rfis", "rfis", status="open"):
    rfi = call("get_rfi", rfi_id=item["rfi_id"])
    period = days["standard"] if "one-period" in NEAR else days[rfi["priority"]]
    due = add_working_days(rfi["sent_on"], period)
    if TODAY > due or ("inclusive" in NEAR and TODAY == due):
        counts[rfi["project_id"]] += 1
print(json.dumps(counts))`);

export const overdueRfisTask = defineTask({
  id: "construction.overdue-rfis",
  domain: constructionDomain,
  summary:
    "Open RFIs past their response due date in working days (priority periods, holidays), per project.",
  instruction: `${TODAY_TEXT} For the weekly owner-architect-contractor meeting, count the open RFIs on each project that are overdue for the architect's answer under the response times in our general conditions. Reply with only a JSON object mapping every project id to the count, e.g. {"PRJ-01": 3}.`,
  tools: ["list_projects", "list_rfis", "get_rfi"],
  verify: ({ initial, answer }) => [checkAnswerAmounts("answer", answer, overdueRfis(initial), 0)],
  oracle: rfiCells([]),
  nearMisses: flagNearMisses(rfiCells, [
    ["calendar-days", "Counts calendar days instead of working days.", "calendar-days"],
    ["no-holidays", "Counts holidays as working days.", "no-holidays"],
    ["due-today", "Counts an RFI due today as overdue.", "inclusive"],
    ["one-period", "Gives urgent RFIs the standard response time.", "one-period"],
  ]),
});

const submittalCells =
  taskCells(`days = {kind: int(n) for kind, n in md_table(CONDITIONS, "Submittal review periods")}
late = []
for item in fetch("list_submittals", "submittals", status="under_review"):
    revisions = call("get_submittal", submittal_id=item["submittal_id"])["revisions"]
    sent = revisions[0 if "first-submission" in NEAR else -1]["submitted_on"]
    period = max(days.values()) if "one-period" in NEAR else days[item["type"]]
    due = add_working_days(sent, period)
    if TODAY > due or ("inclusive" in NEAR and TODAY == due):
        late.append(item["submittal_id"])
print(json.dumps({"submittals": late}))`);

export const overdueSubmittalsTask = defineTask({
  id: "construction.overdue-submittals",
  domain: constructionDomain,
  summary: "Submittals under review past the type's review period in working days from the latest revision.",
  instruction: `${TODAY_TEXT} Which submittals is the architect late in returning? Use the review periods in our general conditions. Reply with only JSON: {"submittals": [ids]}.`,
  tools: ["list_projects", "list_submittals", "get_submittal"],
  verify: ({ initial, answer }) => [
    checkAnswerIdLists(answer, new Map([["submittals", overdueSubmittals(initial)]])),
  ],
  oracle: submittalCells([]),
  nearMisses: flagNearMisses(submittalCells, [
    ["first-submission", "Counts from the first submission, not the latest revision.", "first-submission"],
    ["one-period", "Uses the shop-drawing period for every type.", "one-period"],
    ["calendar-days", "Counts calendar days instead of working days.", "calendar-days"],
    [
      "due-today",
      "Counts a submittal due today (SBM-0004 once Juneteenth is skipped) as overdue.",
      "inclusive",
    ],
  ]),
});

const weatherCells = taskCells(`counts = {p["project_id"]: 0 for p in fetch("list_projects", "projects")}
entry = re.compile(r"^Date: \\w{3} (\\d{4}-\\d\\d-\\d\\d)\\nWeather: ([^\\n]*)\\n(?:[^\\n]+\\n)*?Delays: ([^\\n]*)$", re.M)
stop = re.compile(r"work stopped" if "stopped-only" in NEAR else r"work stopped|work suspended|suspended|sent home|shut down", re.I)
files = sorted(f["path"] for f in fetch("list_files", "files", path="daily-logs"))
if "latest-week" in NEAR:
    files = list({path.rsplit("/", 1)[0]: path for path in files}.values())
for path in files:
    text = read_text(path)
    project = re.search(r"PRJ-\\d\\d", text).group(0)
    for day, weather, delays in entry.findall(text):
        if "any-weather" in NEAR:
            stopped = re.match(r"(rain|heavy rain|thunderstorms|high wind)", weather, re.I)
        else:
            stopped = stop.search(delays)
        if not stopped:
            continue
        if "weekends" not in NEAR and (date.fromisoformat(day).weekday() >= 5 or day in HOLIDAYS):
            continue
        counts[project] += 1
print(json.dumps(counts))`);

export const weatherDaysTask = defineTask({
  id: "construction.weather-days",
  domain: constructionDomain,
  summary:
    "Weather days per project from the superintendents' weekly daily-log files (working days with work stopped for weather).",
  instruction:
    'We are preparing time-extension requests. Count the weather days, as our general conditions define them, recorded in all the daily logs on file for each project. Reply with only a JSON object mapping every project id to its count, e.g. {"PRJ-01": 4}.',
  tools: ["list_projects"],
  verify: ({ initial, answer }) => [checkAnswerAmounts("answer", answer, weatherDayCounts(initial), 0)],
  oracle: weatherCells([]),
  nearMisses: flagNearMisses(weatherCells, [
    ["any-weather", "Counts every day of rain or wind, including days crews worked through.", "any-weather"],
    ["weekends", "Counts Saturday stoppages.", "weekends"],
    [
      "stopped-only",
      "Looks for 'work stopped' only, missing sites shut down and crews sent home.",
      "stopped-only",
    ],
    ["latest-week", "Reads only each project's latest log file.", "latest-week"],
  ]),
});
