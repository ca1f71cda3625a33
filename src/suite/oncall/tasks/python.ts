import {
  PYTHON_MARKDOWN_HELPERS,
  PYTHON_WORKSPACE_HELPERS,
  pythonClientHelpers,
} from "../../../envs/index.js";

/**
 * The first cell of every oncall oracle: `call` retries what real APIs do to careful clients (429/503
 * raised as tool errors; error or partial bodies returned as ordinary results), `fetch` pages through a
 * listing with it, `log_pages` yields a day's log pages (`retry=False`: as they come, a partial page
 * ending the day) and `log_lines` joins them, and the time helpers read the formats people and
 * systems print.
 */
export const ONCALL_PY = String.raw`import csv, io, json, math, re
from datetime import datetime, timedelta, timezone
${PYTHON_WORKSPACE_HELPERS}${PYTHON_MARKDOWN_HELPERS}
${pythonClientHelpers({ attempts: 6, retryOn: ["503", "429"], errorStatuses: ["error", "partial"] })}
def log_pages(service, date, retry=True):
    page = 1
    while True:
        args = dict(service=service, date=date, page=page)
        result = call("fetch_logs", **args) if retry else tools.fetch_logs(**args)
        yield result.get("lines", [])
        if not result.get("has_more"):
            return
        page += 1

def log_lines(service, date, retry=True):
    return [line for lines in log_pages(service, date, retry) for line in lines]

OFFSETS = {"UTC": 0, "PDT": -420, "CEST": 120, "IST": 330}

def utc(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(timezone.utc)

def wall(day, hhmm, zone):
    return datetime.fromisoformat(f"{day}T{hhmm}:00+00:00") - timedelta(minutes=OFFSETS[zone])

def policy_table(path, heading):
    return {row[0]: row[1] for row in md_table(read_text(path), heading)}

def engineer_ids():
    return {e["handle"]: e["engineer_id"] for e in fetch("list_engineers", "engineers")}

def load_schedule(use_overrides=True, keep_cancelled=False, midnight=False):
    text = read_text("oncall/schedule.md")
    rotation = {}
    for m in re.finditer(r"^\| (\d{4}-\d{2}-\d{2}) \| (\w+) \| @([\w.-]+) \| @([\w.-]+) \|$", text, re.M):
        rotation[(m.group(1), m.group(2))] = {"primary": m.group(3), "secondary": m.group(4)}
    overrides = []
    for m in re.finditer(r"^- (~~)?(\S+ \S+) → (\S+ \S+) UTC · (\w+) · (primary|secondary): @([\w.-]+)", text, re.M):
        if not use_overrides or (m.group(1) and not keep_cancelled):
            continue
        overrides.append((utc(m.group(2).replace(" ", "T") + ":00Z"), utc(m.group(3).replace(" ", "T") + ":00Z"), m.group(4), m.group(5), m.group(6)))
    handover = timedelta(hours=0 if midnight else 9)
    def on_call(team, role, at):
        for start, end, o_team, o_role, handle in overrides:
            if o_team == team and o_role == role and start <= at < end:
                return handle
        shifted = at - handover
        monday = (shifted - timedelta(days=shifted.weekday())).date().isoformat()
        return rotation[(monday, team)][role]
    return on_call
print("helpers ready")
`;
