import { PYTHON_WORKSPACE_HELPERS, REFERENCE_DATE, addDays } from "../../../envs/index.js";

/**
 * Python every airline oracle starts with: what a careful agent writes first. `call` retries a 503 (the
 * schedule listing's transient failure) and an ops-feed answer whose body says `status: error` (the silent
 * failure of get_flight_status); `fetch_every` pages through a listing with those retries.
 */
export const AIRLINE_HELPERS = String.raw`
import json, re
from datetime import datetime, timedelta

${PYTHON_WORKSPACE_HELPERS}

def call(name, **kwargs):
    for attempt in range(6):
        try:
            result = tools[name](**kwargs)
        except ToolError as error:
            if "503" in str(error) and attempt < 5:
                continue
            raise
        if isinstance(result, dict) and result.get("status") == "error" and "error" in result:
            continue
        return result
    raise RuntimeError(name + " kept failing")

def fetch_every(tool, key, **filters):
    items, page = [], 1
    while True:
        result = call(tool, page=page, per_page=50, **filters)
        items.extend(result[key])
        if not result["has_more"]:
            return items
        page += 1

def table_rows(markdown, heading):
    lines = markdown.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("#") and heading in line)
    rows = []
    for line in lines[start + 1:]:
        if line.startswith("#"):
            break
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
        elif rows:
            break
    return [row for row in rows[1:] if not all(set(cell) <= set("-:") for cell in row)]

def csv_rows(text):
    import csv, io
    return list(csv.DictReader(io.StringIO(text)))

def minutes_between(earlier, later):
    return int((datetime.fromisoformat(later) - datetime.fromisoformat(earlier)).total_seconds() // 60)

TODAY = "${REFERENCE_DATE}"
YESTERDAY = "${addDays(REFERENCE_DATE, -1)}"
TOMORROW = "${addDays(REFERENCE_DATE, 1)}"
print("helpers ready")
`;

/** The oracle's reading of booking notes: the UMNR service named, not declined or replaced by an adult. */
export const PYTHON_IS_MINOR = String.raw`
def is_minor(note):
    if not note:
        return False
    named = re.search(r"\bUMNR\b|unaccompanied minor|UM service booked|minor travelling alone", note, re.I)
    return bool(named) and not re.search(r"declined|travelling with|next trip", note, re.I)
`;
