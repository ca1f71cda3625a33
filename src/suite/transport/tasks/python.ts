import {
  PYTHON_MARKDOWN_HELPERS,
  PYTHON_WORKSPACE_HELPERS,
  pythonClientHelpers,
} from "../../../envs/index.js";

/**
 * The first cell of every transport oracle: `call` retries what the office's systems do to careful clients
 * (503s raised as tool errors; error or partial bodies returned as ordinary results), `fetch` pages through
 * a listing with it, `avl_lines` joins a bus-day's export pages (through `call`, or `get` when a near-miss
 * trusts every body) and `parse_avl` reads one export line.
 */
export const TRANSPORT_PY = String.raw`import json, re
from collections import Counter, defaultdict
from datetime import date as Date, datetime, timedelta, timezone
${PYTHON_WORKSPACE_HELPERS}
${PYTHON_MARKDOWN_HELPERS}
${pythonClientHelpers({ attempts: 6, errorStatuses: ["error", "partial"] })}
def avl_lines(bus_id, day, get=call):
    lines, page = [], 1
    while True:
        result = get("fetch_avl", bus_id=bus_id, date=day, page=page)
        lines.extend(result["lines"])
        if not result["has_more"]:
            return lines
        page += 1

AVL = re.compile(r"^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:Z|[+-]\d{2}:\d{2})) (BUS-\d{3}) (GPS|DOOR_OPEN|DOOR_CLOSE|IGN_ON|IGN_OFF)((?: \S+)*)$")

def parse_avl(line):
    m = AVL.match(line)
    if not m:
        return None
    speed = re.search(r" spd=([\d.]+)(mph|kph)", m.group(4))
    mph = None
    if speed:
        mph = float(speed.group(1)) / 1.609344 if speed.group(2) == "kph" else float(speed.group(1))
    geo = re.search(r" geo=(\S+)", m.group(4))
    return {"at": datetime.fromisoformat(m.group(1).replace("Z", "+00:00")), "bus": m.group(2), "event": m.group(3), "mph": mph, "geo": geo.group(1) if geo else None}

WEEK = ["2025-06-23", "2025-06-24", "2025-06-25", "2025-06-26", "2025-06-27"]
LOCAL = timezone(timedelta(hours=-5))
POLICY = "policies/transportation-policy.md"
print("helpers ready")
`;
