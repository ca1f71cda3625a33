import { PYTHON_WORKSPACE_HELPERS, pythonClientHelpers, REFERENCE_DATE } from "../../../envs/index.js";

/**
 * The first cell of every pharmacy oracle: `call` retries what real APIs do to careful clients (a 503
 * raised as a tool error, an error body returned as an ordinary result), `fetch` pages through a listing
 * with it, `workspace_files` / `read_text` read the shared drive, and readers for the recall notices,
 * par sheets and count sheets.
 */
export const PHARMACY_PY = String.raw`import csv, io, json, math, re
from datetime import date, datetime, timedelta
${PYTHON_WORKSPACE_HELPERS}
today = "${REFERENCE_DATE}"

${pythonClientHelpers()}
def add_days(day, days):
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()

def read_csv(path):
    return list(csv.DictReader(io.StringIO(read_text(path))))

def policy_number(path, pattern):
    return int(re.search(pattern, read_text(path)).group(1))

def usable(row):
    return row["status"] == "available" and row["expiry_date"] >= today
print("helpers ready")
`;

/**
 * Reads the recall notices (and, unless told not to, the update e-mails) into `recalls`: notice id ->
 * class, NDC and lot numbers. `matchNdc` false matches lots by number alone, the near-misses' mistake.
 */
export function recallsPy(options: { updates?: boolean; matchNdc?: boolean } = {}): string {
  return String.raw`
recalls = {}
for path in workspace_files("recalls"):
    text = read_text(path)
    notice = re.search(r"^Notice (RCL-[\d-]+)", text, re.M).group(1)
    recalls[notice] = {
        "class": re.search(r"CLASS (II|I)\b", text).group(1),
        "ndc": re.search(r"^NDC: ([\d-]+)$", text, re.M).group(1),
        "lots": re.search(r"^Affected lot numbers: (.+)$", text, re.M).group(1).split(", "),
    }
if ${options.updates === false ? "False" : "True"}:
    for path in workspace_files("inbox"):
        text = read_text(path)
        notice = re.search(r"^Subject:.*?(RCL-[\d-]+)", text, re.M)
        lot = re.search(r"\b[Ll]ot(?: number)?:? ([A-Z]{2}\d{5})\b", text)
        if notice and lot and notice.group(1) in recalls:
            recalls[notice.group(1)]["lots"].append(lot.group(1))

def recalled_lots(classes=("I", "II")):
    found = {}
    for notice in recalls.values():
        if notice["class"] not in classes:
            continue
        for number in notice["lots"]:
            for lot in fetch("list_lots", "lots", lot_number=number):
                if ${options.matchNdc === false ? "True" : 'lot["ndc"] == notice["ndc"]'}:
                    found[lot["lot_id"]] = lot
    return found
print({k: v["class"] for k, v in recalls.items()})
`;
}
