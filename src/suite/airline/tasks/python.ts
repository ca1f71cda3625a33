import {
  pythonFileLister,
  PYTHON_MARKDOWN_HELPERS,
  PYTHON_WORKSPACE_HELPERS,
  REFERENCE_DATE,
  addDays,
  pythonClientHelpers,
} from "../../../envs/index.js";

/**
 * Python every airline oracle starts with: what a careful agent writes first. The kit's `call` retries a 503
 * (the schedule listing's transient failure) and an ops-feed answer whose body says `status: error` (the
 * silent failure of get_flight_status); its `fetch` pages through a listing with those retries. `md_table`
 * reads a policy table, `folder_paths` lists a workspace folder page by page.
 */
export const AIRLINE_HELPERS = String.raw`
import json, re
from datetime import datetime, timedelta

${PYTHON_WORKSPACE_HELPERS}

${pythonClientHelpers({ attempts: 6 })}
${PYTHON_MARKDOWN_HELPERS}
${pythonFileLister({ name: "folder_paths", folderParam: "folder" })}

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
