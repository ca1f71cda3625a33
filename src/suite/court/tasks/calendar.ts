import {
  REFERENCE_DATE,
  checkAnswerCount,
  checkStateDiff,
  defineTask,
  flagNearMisses,
} from "../../../envs/index.js";
import { HEARING_TIME } from "../rules.js";
import { courtDomain } from "../domain.js";
import { checkCaseList } from "./deadlines.js";
import { TODAY_TEXT, motionHearings, staleCases } from "./facts.js";
import { withNear } from "./python.js";

const staleBody =
  withNear(`days = int(re.search(r"more than (\\d+) days before today", read_text(LOCAL)).group(1))
latest = {}
for e in fetch("list_docket_entries", "entries"):
    latest[e["case_id"]] = max(latest.get(e["case_id"], ""), e["entry_date"])
division = {} if "small-claims" in NEAR else {"division": "civil"}
cutoff = add_days(TODAY, -days)
upcoming = set() if "ignore-hearings" in NEAR else {h["case_id"] for h in fetch("list_hearings", "hearings", on_or_after=TODAY) if h["status"] == "set"}
stale = []
for c in fetch("list_cases", "cases", **({} if "includes-closed" in NEAR else {"status": "open"}), **division):
    last = c["filed_on"] if "filed-on" in NEAR else latest.get(c["case_id"], c["filed_on"])
    if last < cutoff and c["case_id"] not in upcoming:
        stale.append(c["case_id"])
print(json.dumps(sorted(stale)))`);

export const dismissalReviewTask = defineTask({
  id: "court.dismissal-review",
  domain: courtDomain,
  summary:
    "Open civil cases with no docket activity for more than the local rules' period: the whole docket, paginated, with 503s.",
  instruction: `${TODAY_TEXT} Build the order-to-show-cause list: which cases does our local rule on dismissal review put on it today? Reply with only a JSON list of case numbers, e.g. ["CV-2024-00042"].`,
  tools: ["list_cases", "list_docket_entries", "list_hearings"],
  verify: ({ initial, answer }) => [checkCaseList(answer, staleCases(initial))],
  oracle: staleBody([]),
  nearMisses: flagNearMisses(staleBody, [
    ["first-page-only", "Reads only the first page of the docket.", "first-page"],
    [
      "filing-date",
      "Measures inactivity from the date the case was filed, not its latest docket entry.",
      "filed-on",
    ],
    ["includes-small-claims", "Puts small claims cases on the list too.", "small-claims"],
    [
      "ignores-upcoming-hearings",
      "Lists quiet cases that have a hearing set for a later date.",
      "ignore-hearings",
    ],
    ["includes-closed", "Also lists quiet cases that are closed (default entered, judgment, dismissed)."],
  ]),
});

const motionBody = withNear(`hol = holidays()
cal = read_text(CALENDAR)
notice = int(re.search(r"at least (\\d+) court days after the motion was filed", cal).group(1))
weekday = {row[0]: WEEKDAYS.index(row[3]) for row in md_table(cal, "Courtrooms") if row[3] in WEEKDAYS}
cases = {c["case_id"]: c for c in fetch("list_cases", "cases", status="open")}
heard = {h["filing_id"] for h in fetch("list_hearings", "hearings") if h["filing_id"]}
scheduled = 0
for f in fetch("list_filings", "filings", filing_type="motion"):
    if f["case_id"] not in cases or f["filing_id"] in heard:
        continue
    room = cases[f["case_id"]]["courtroom_id"]
    day = add_court_days(f["filed_on"], notice, hol)
    while not ((court_day(day, hol) or "holiday-motion-day" in NEAR) and ("next-court-day" in NEAR or date.fromisoformat(day).weekday() == weekday[room])):
        day = add_days(day, 1)
    call("schedule_hearing", filing_id=f["filing_id"], hearing_date=day)
    scheduled += 1
print(scheduled)`);

export const motionHearingsTask = defineTask({
  id: "court.motion-hearings",
  domain: courtDomain,
  summary:
    "Set every unheard motion in an open case on its courtroom's law-and-motion day after the notice period in court days (state diff on hearings and docket).",
  instruction:
    "Calendar the motions: every motion in an open case that has no hearing yet needs one, on the date our law and motion calendar rules give. Reply with only the number of hearings you set.",
  tools: ["list_cases", "list_filings", "list_hearings", "schedule_hearing"],
  verify: ({ initial, final, answer }) => {
    const expected = motionHearings(initial);
    if (expected.length === 0) throw new Error("generation produced no motion to calendar");
    return [
      ...checkStateDiff(initial.db, final.db, [
        {
          table: "hearings",
          key: "hearing_id",
          added: expected.map((m) => ({
            case_id: m.case_id,
            courtroom_id: m.courtroom_id,
            hearing_date: m.date,
            hearing_time: HEARING_TIME,
            hearing_type: "motion",
            filing_id: m.filing_id,
            status: "set",
          })),
        },
        {
          table: "docket_entries",
          key: "entry_id",
          added: expected.map((m) => ({
            case_id: m.case_id,
            entry_type: "hearing_set",
            entry_date: REFERENCE_DATE,
            filing_id: m.filing_id,
          })),
        },
      ]),
      checkAnswerCount(answer, expected.length),
    ];
  },
  oracle: motionBody([]),
  nearMisses: flagNearMisses(motionBody, [
    ["calendar-days", "Counts the notice period in calendar days."],
    ["ignores-holidays", "Counts court days without skipping the listed court holidays.", "no-holidays"],
    [
      "next-court-day",
      "Sets the hearing on the first court day after the notice period, whatever the courtroom's motion day.",
    ],
    [
      "holiday-motion-day",
      "Sets the hearing on the courtroom's motion day even when that day is a court holiday.",
    ],
  ]),
});
