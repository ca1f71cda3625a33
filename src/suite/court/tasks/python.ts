import {
  PYTHON_MARKDOWN_HELPERS,
  PYTHON_OCR_HELPERS,
  PYTHON_WORKSPACE_HELPERS,
  REFERENCE_DATE,
  pythonClientHelpers,
} from "../../../envs/index.js";
import { PATHS } from "../rules.js";

/**
 * The first cell of every court oracle and near-miss: retrying calls (503s and `{"status": "error"}`
 * bodies), paging, the papers' date styles and case-number forms, court days, and readers for the scanned
 * proofs of service, filings and intake papers. A near-miss sets names in `NEAR` to make one realistic mistake.
 */
export const COURT_PY = String.raw`import json, re
from datetime import date, timedelta
${PYTHON_WORKSPACE_HELPERS}
${PYTHON_MARKDOWN_HELPERS}
${PYTHON_OCR_HELPERS}
NEAR = set()
TODAY = "${REFERENCE_DATE}"
LOCAL, FEES, DEFAULTS, CALENDAR = "${PATHS.localRules}", "${PATHS.fees}", "${PATHS.defaults}", "${PATHS.calendar}"
MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]

${pythonClientHelpers()}
def add_days(day, n):
    return (date.fromisoformat(day) + timedelta(days=n)).isoformat()

def parse_date(text):
    m = re.search(r"(\d{4})-(\d\d)-(\d\d)", text)
    if m:
        return date(int(m[1]), int(m[2]), int(m[3])).isoformat()
    m = re.search(r"(\d{1,2})/(\d{1,2})/(\d{2,4})\b", text)
    if m:
        year = int(m[3]) + (2000 if len(m[3]) == 2 else 0)
        return date(year, int(m[1]), int(m[2])).isoformat()
    m = re.search(r"\b([A-Za-z]{3})[a-z]* (\d{1,2}),? (\d{4})", text)
    if m and m[1].upper() in MONTHS:
        return date(int(m[3]), MONTHS.index(m[1].upper()) + 1, int(m[2])).isoformat()
    m = re.search(r"\b(\d{1,2}) ([A-Z]{3}) (\d{4})", text)
    if m and m[2] in MONTHS:
        return date(int(m[3]), MONTHS.index(m[2]) + 1, int(m[1])).isoformat()
    return None

def case_number(text):
    if "strict-case-number" in NEAR:
        m = re.search(r"\b(CV|SC)-\d{4}-\d{5}\b", text)
        return m.group() if m else None
    fixed = re.sub(r"[\dOlI]+", lambda m: m.group().replace("O", "0").replace("l", "1").replace("I", "1"), text)
    m = re.search(r"\b(CV|SC)-(\d{4})-(\d{5})\b", fixed)
    if m:
        return m.group()
    m = re.search(r"\b(CV|SC) (\d{2})-(\d+)\b", fixed)
    if m:
        return "%s-20%s-%05d" % (m[1], m[2], int(m[3]))
    m = re.search(r"No\. (\d{4})(CV|SC)(\d+)\b", fixed)
    if m:
        return "%s-%s-%05d" % (m[2], m[1], int(m[3]))
    return None

def holidays():
    if "no-holidays" in NEAR:
        return set()
    return {row[0] for row in md_table(read_text(LOCAL), "Court holidays")}

def court_day(day, hol):
    d = date.fromisoformat(day)
    return d.weekday() < 5 and day not in hol

def add_court_days(day, n, hol):
    while n > 0:
        day = add_days(day, 1)
        if "calendar-days" in NEAR or court_day(day, hol):
            n -= 1
    return day

def documents(folder):
    """Every scanned document under a folder: pages split at form feeds, a document starts at 'Page 1 of'."""
    docs = []
    for path in workspace_files(folder):
        current = []
        for page in read_text(path).split("\f"):
            if not page.strip():
                continue
            if re.search(r"Page 1 of \d+", page) or not current:
                current.append(page)
            else:
                current[-1] += "\n" + page
        docs.extend(current)
    return docs

def line_after(doc, label):
    lines = doc.split("\n")
    for i, line in enumerate(lines):
        if re.search(label, line):
            return next((l for l in lines[i + 1:] if l.strip()), "")
    return ""

def stamp_date(doc):
    parts = doc.split("F I L E D")
    return parse_date("\n".join(parts[1].split("\n")[1:4])) if len(parts) > 1 else None

def proofs():
    found = []
    for doc in documents("${PATHS.service}"):
        mailed = re.search(r"mailed a copy on \(date\): (.*)", doc)
        proof = {
            "case_id": case_number(line_after(doc, r"CASE NUMBER:")),
            "served": parse_date(re.search(r"Date of service: (.*?)\s{2,}", doc).group(1)),
            "method": re.search(r"\[[Xx]\] by (personal|substituted) service", doc).group(1),
            "mailed": parse_date(mailed.group(1)) if mailed else None,
            "signed": bool(re.search(r"^\s*/s/ \S", doc, re.M)),
            "filed": stamp_date(doc),
        }
        if "filed-date" in NEAR:
            proof["served"] = proof["mailed"] = proof["filed"]
        found.append(proof)
    return found

def response_deadlines():
    """{case: {"party_id", "due"}} for open civil cases with a signed proof of service and no response docketed."""
    rules = read_text(LOCAL)
    days = int(re.search(r"within (\d+) court days after service", rules).group(1))
    extra = int(re.search(r"complete on the (\d+)th calendar day after the copy was mailed", rules).group(1))
    hol = holidays()
    latest = {}
    for p in proofs():
        if not p["signed"] and "unsigned" not in NEAR:
            continue
        start = p["served"]
        if p["method"] == "substituted" and "no-extension" not in NEAR:
            start = add_days(p["mailed"] or p["served"], extra)
        seen = latest.get(p["case_id"])
        if not seen or (seen[0] > p["served"] if "earliest-service" in NEAR else seen[0] < p["served"]):
            latest[p["case_id"]] = (p["served"], add_court_days(start, days, hol))
    kinds = ["answer"] if "answer-only" in NEAR else ["answer", "demurrer"]
    responded = {e["case_id"] for kind in kinds for e in fetch("list_docket_entries", "entries", entry_type=kind)}
    division = {} if "small-claims" in NEAR else {"division": "civil"}
    defendants = {p["case_id"]: p["party_id"] for p in fetch("list_parties", "parties", role="defendant")}
    return {
        c["case_id"]: {"party_id": defendants[c["case_id"]], "due": latest[c["case_id"]][1]}
        for c in fetch("list_cases", "cases", status="open", **division)
        if c["case_id"] in latest and c["case_id"] not in responded
    }

def fee_schedule():
    rows = []
    for kind, division, band, fee in md_table(read_text(FEES), "Filing fees"):
        limits = [float(x.replace(",", "")) for x in re.findall(r"\$([\d,]+\.\d\d)", band)]
        high = None if band.startswith("over") or band == "any" else limits[-1]
        rows.append((kind.split(" or "), division, high, float(fee)))
    return rows

def scheduled_fee(rows, kind, division, amount):
    for kinds, div, high, fee in rows:
        if div == division and kind in kinds:
            if high is None or amount < high or (amount == high and "exclusive-bands" not in NEAR):
                return fee
    raise ValueError("no fee for " + kind)

def fee_paid(text):
    stamp = re.search(r"FEE PAID: \$ (.*)", text).group(1).strip()
    if "plain-amount" in NEAR:
        return float(re.search(r"[\d,]+\.\d\d", stamp).group().replace(",", ""))
    return ocr_amount(stamp)

def fee_checks():
    """[(filing, paid, due)] for every filing, the receipt read from its scanned image."""
    rows = fee_schedule()
    cases = {c["case_id"]: c for c in fetch("list_cases", "cases")}
    waivers = {}
    for e in fetch("list_docket_entries", "entries", entry_type="fee_waiver_granted"):
        waivers[e["party_id"]] = min(waivers.get(e["party_id"], e["entry_date"]), e["entry_date"])
    checks = []
    for f in fetch("list_filings", "filings"):
        case = cases[f["case_id"]]
        due = scheduled_fee(rows, f["filing_type"], case["division"], case["amount_demanded"])
        waiver = waivers.get(f["party_id"])
        if waiver and waiver <= f["filed_on"] and "ignore-waiver" not in NEAR:
            due = 0.0
        paid = fee_paid(call("get_filing_text", filing_id=f["filing_id"])["text"])
        checks.append((f, paid, due))
    return checks
print("court helpers ready")
`;

/** A careless client's \`call\` and \`fetch\`, replacing the helpers' for the near-misses that name them. */
const CARELESS: Record<string, string> = {
  "no-retry": "def call(name, **kwargs):\n    return tools[name](**kwargs)\n",
  "first-page":
    "def fetch(name, key, **filters):\n    return call(name, page=1, per_page=50, **filters)[key]\n",
};

/** A task's cells: the helpers, then `body` with the near-miss flags set. */
export const withNear =
  (body: string) =>
  (near: string[]): string[] => [
    COURT_PY,
    [`NEAR = set(${JSON.stringify(near)})`, ...near.flatMap((flag) => CARELESS[flag] ?? []), body].join("\n"),
  ];
