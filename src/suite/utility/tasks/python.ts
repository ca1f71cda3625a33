import {
  PYTHON_MARKDOWN_HELPERS,
  PYTHON_WORKSPACE_HELPERS,
  pythonClientHelpers,
} from "../../../envs/index.js";

/**
 * The first cell of every utility oracle: `call` retries what the utility's systems do to careful clients
 * (a 503 raised as a tool error; an error or partial body returned as an ordinary result), `fetch` pages
 * through a listing with it, and readers for the policies, the SCADA journal and the handheld dumps.
 */
export const UTILITY_PY = String.raw`import json, re
from datetime import datetime, timedelta, timezone
${PYTHON_WORKSPACE_HELPERS}${PYTHON_MARKDOWN_HELPERS}
NOW = datetime(2025, 6, 30, 8, 0, tzinfo=timezone.utc)

${pythonClientHelpers({ errorStatuses: ["error", "partial"] })}
def utc(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00"))

def iso(moment):
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")

TRIP = re.compile(r"^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3})\s+\S+\s+(FDR-\d{3})\.CB\.TRIP\s+(RAISE|CLEAR)\b")

def interruptions(first_raise=True, per_file=False):
    found, open_ = [], {}
    for path in workspace_files("scada"):
        if per_file:
            open_ = {}
        for line in read_text(path).splitlines():
            m = TRIP.match(line)
            if not m:
                continue
            at = datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S.%f")
            feeder = m.group(2)
            if m.group(3) == "RAISE" and (feeder not in open_ or not first_raise):
                open_[feeder] = at
            elif m.group(3) == "CLEAR" and feeder in open_:
                found.append((feeder, (at - open_.pop(feeder)).total_seconds() / 60))
    return found

def thresholds():
    rows = {r[0]: float(r[1]) for r in md_table(read_text("policies/outage-reporting.md"), "Thresholds")}
    return rows["momentary interruption under"], rows["critical-care follow-up at"]

WO_REF = re.compile(r"\bw/?o\s*[-#]?\s*0*(\d+)", re.I)
METER_REF = re.compile(r"\b(?:mtr|meter|m)\s*[#-]?\s*0*(\d+)\b", re.I)
READING = re.compile(r"\b(?:rdg|read|rd)\s*[:=]?\s*(\d[\d,]*)", re.I)

def handheld_entries():
    entries = []
    for path in workspace_files("handheld"):
        text = read_text(path)
        month, day, year = re.search(r"date (\d{2})/(\d{2})/(\d{4})", text).groups()
        offset = int(re.search(r"UTC([+-]\d+)", text).group(1))
        for line in text.splitlines():
            wo, time = WO_REF.search(line), re.match(r"(\d{2}):?(\d{2}) ", line)
            if not wo or not time:
                continue
            local = datetime(int(year), int(month), int(day), int(time.group(1)), int(time.group(2)), tzinfo=timezone.utc)
            entries.append({"line": line, "day": f"{year}-{month}-{day}", "wo": "WO-%05d" % int(wo.group(1)),
                            "local": local, "offset": offset, "rest": line[wo.end():]})
    return entries
print("helpers ready")
`;
