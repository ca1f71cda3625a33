import { PYTHON_WORKSPACE_HELPERS, pythonClientHelpers } from "../../../envs/index.js";

/**
 * The first cell of every property oracle: `call` retries what real APIs do to careful clients (a 503
 * raised as a tool error, an error body returned as an ordinary result), `fetch` pages through a listing
 * with it, and `workspace_files` / `read_text` read the shared drive.
 */
export const PROPERTY_PY = String.raw`import csv, io, json, re
from datetime import date, timedelta
${PYTHON_WORKSPACE_HELPERS}
${pythonClientHelpers()}
def add_days(day, days):
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()

def addendum_terms():
    due_day, renewal_limit = {}, {}
    for path in workspace_files("leases/addenda"):
        text = read_text(path)
        lease = re.search(r"lease (L-\d{5})", text).group(1)
        found = re.search(r"due on day (\d+) of each month", text)
        if found:
            due_day[lease] = int(found.group(1))
        found = re.search(r"limited to ([\d.]+)%", text)
        if found:
            renewal_limit[lease] = float(found.group(1))
    return due_day, renewal_limit

def money(value):
    return round(value + 1e-9, 2)
print("helpers ready")
`;

/** The late-fee policy's numbers, as a Python cell defining grace_days, fee_pct, fee_min, fee_max, threshold. */
export const LATE_POLICY_PY = String.raw`
policy = read_text("policies/late-fees.md")
grace_days = int(re.search(r"grace period of (\d+) calendar days", policy).group(1))
fee_pct = float(re.search(r"late fee is ([\d.]+)% of the monthly rent", policy).group(1))
fee_min = float(re.search(r"never less than \$(\d[\d,]*\.\d{2})", policy).group(1).replace(",", ""))
fee_max = float(re.search(r"never more than \$(\d[\d,]*\.\d{2})", policy).group(1).replace(",", ""))
threshold = float(re.search(r"is less than \$(\d[\d,]*\.\d{2})", policy).group(1).replace(",", ""))
due_day, renewal_limit = addendum_terms()
print(grace_days, fee_pct, fee_min, fee_max, threshold, due_day)
`;
