import {
  PYTHON_MARKDOWN_HELPERS,
  PYTHON_WORKSPACE_HELPERS,
  REFERENCE_DATE,
  pythonPager,
} from "../../../envs/index.js";
import { PATHS } from "../rules.js";

/**
 * The first cell of every vet oracle and near-miss: retrying calls (503s and `{"status": "error"}` bodies),
 * paging, dates, the documents' rules, SOAP-note weights and printout parsing. A near-miss sets names in
 * `NEAR` in a later cell to make one realistic mistake.
 */
export const VET_PY = String.raw`import json, re, calendar
from datetime import date, timedelta
${PYTHON_WORKSPACE_HELPERS}
${PYTHON_MARKDOWN_HELPERS}
NEAR = set()
TODAY = "${REFERENCE_DATE}"
LB = 2.2046

def call(name, **kwargs):
    for attempt in range(6):
        try:
            result = tools[name](**kwargs)
        except ToolError as error:
            if "503" not in str(error) or "no-retry" in NEAR:
                raise
            continue
        if isinstance(result, dict) and result.get("status") == "error" and "no-retry" not in NEAR:
            continue
        return result
    raise RuntimeError(name + " kept failing")

${pythonPager({ stopWhen: '"first-page" in NEAR' })}

def add_days(day, n):
    return (date.fromisoformat(day) + timedelta(days=n)).isoformat()

def days_between(a, b):
    return (date.fromisoformat(b) - date.fromisoformat(a)).days

def add_months(day, months):
    d = date.fromisoformat(day)
    index = d.year * 12 + d.month - 1 + months
    y, m = index // 12, index % 12 + 1
    return date(y, m, min(d.day, calendar.monthrange(y, m)[1])).isoformat()

SECTION = re.compile(r"^(?:s|subj|subjective|o|obj|objective|a|assess|assessment|p|plan)\s*[:-]", re.I)
OBJECTIVE = re.compile(r"^(?:o|obj|objective)\s*[:-]", re.I)
WEIGHT = re.compile(r"\b(?:wt|bw|weight)[:=]?\s*(\d+(?:\.\d+)?)\s*(kg|lbs?)\b", re.I)

def note_weight(note):
    """The clinic weight in kg from the Objective section of a SOAP note, or None."""
    text = note
    if "first-weight" not in NEAR:
        lines = note.split("\n")
        start = next((i for i, line in enumerate(lines) if OBJECTIVE.match(line)), None)
        if start is None:
            return None
        end = next((i for i in range(start + 1, len(lines)) if SECTION.match(lines[i])), len(lines))
        text = "\n".join(lines[start:end])
    m = WEIGHT.search(text)
    if not m:
        return None
    value = float(m.group(1))
    return value if m.group(2).lower() == "kg" or "lb-as-kg" in NEAR else value / LB

def note_of(visit_id):
    return call("get_visit_note", visit_id=visit_id)["note"]

ACCESSION = re.compile(r"^ACCESSION: (LAB-\d{5})\s+PATIENT: (PAT-\d{5})")
RUN = re.compile(r"RUN: (\d{4}-\d\d-\d\d) \d\d:\d\d")
RESULT = re.compile(r"^([A-Z]{2,4})\s+(\d+(?:\.\d+)?)\s+(\S+)\s+[\d.]+ - [\d.]+\s*([HL]?)\s*$")

def printed_results():
    """Every measured result on the printouts, converted to conventional units as the ranges document says."""
    doc = read_text("${PATHS.ranges}")
    conversions = {(m[0], m[1]): (m[2], float(m[3])) for m in re.findall(r"^- (\w+): (\S+) ([x/]) ([\d.]+) = mg/dL$", doc, re.M)}
    results = []
    for f in sorted(fetch("list_files", "files", path="${PATHS.printouts}"), key=lambda f: f["path"]):
        current = None
        for line in read_text(f["path"]).split("\n"):
            m = ACCESSION.match(line)
            if m:
                current = {"lab_id": m.group(1), "patient_id": m.group(2), "ran_on": ""}
            m = RUN.search(line)
            if m and current:
                current["ran_on"] = m.group(1)
            m = RESULT.match(line)
            if not m or not current:
                continue
            code, value, unit, flag = m.group(1), float(m.group(2)), m.group(3), m.group(4)
            conv = conversions.get((code, unit))
            if conv and "no-si" not in NEAR:
                value = value * conv[1] if conv[0] == "x" else value / conv[1]
            results.append(dict(current, code=code, value=value, flag=flag))
    return results

def species_ranges():
    rows = md_table(read_text("${PATHS.ranges}"), "Reference ranges")
    return {row[0]: {s: tuple(float(x) for x in row[2 + k].split(" - ")) for k, s in enumerate(["dog", "cat", "rabbit"])} for row in rows}

def out_of_range(patients):
    """(result, high?) for printed results outside the patient's species range (limits inclusive)."""
    ranges, found = species_ranges(), []
    for r in printed_results():
        if "analyser-flags" in NEAR:
            if r["flag"]:
                found.append((r, r["flag"] == "H"))
            continue
        low, high = ranges[r["code"]][patients[r["patient_id"]]["species"]]
        if "exclusive-limits" in NEAR:
            out = r["value"] <= low or r["value"] >= high
        else:
            out = r["value"] < low or r["value"] > high
        if out:
            found.append((r, r["value"] >= high))
    return found

def formulary_limits():
    limits = {}
    for drug, species, limit in md_table(read_text("${PATHS.formulary}"), "Limits"):
        if "dog-limits" in NEAR:
            limits.setdefault(drug, float(limit))
        else:
            limits[(drug, species)] = float(limit)
    return limits

def over_limit():
    """[(prescription, mg/kg)] above the formulary's species limit, by the visit's clinic weight."""
    limits = formulary_limits()
    species = {p["patient_id"]: p["species"] for p in fetch("list_patients", "patients")}
    found = []
    for rx in fetch("list_prescriptions", "prescriptions"):
        kg = note_weight(note_of(rx["visit_id"]))
        limit = limits[rx["drug"]] if "dog-limits" in NEAR else limits[(rx["drug"], species[rx["patient_id"]])]
        if kg and rx["dose_mg"] / kg > limit:
            found.append((rx, rx["dose_mg"] / kg))
    return found
def weight_loss_patients():
    """Active patients whose clinic weight fell by the policy's species threshold between the two latest weighed visits."""
    policy = md_table(read_text("${PATHS.reminders}"), "Weight loss")
    thresholds = {species: float(t) for species, t in policy}
    active = {p["patient_id"]: p for p in fetch("list_patients", "patients", status="active")}
    weights = {}
    for visit in fetch("list_visits", "visits"):
        if visit["patient_id"] in active:
            kg = note_weight(note_of(visit["visit_id"]))
            if kg is not None or "unweighed" in NEAR:
                weights.setdefault(visit["patient_id"], []).append(kg)
    flagged = []
    for pid, series in weights.items():
        if len(series) < 2 or None in series[-2:]:
            continue
        before, after = series[-2], series[-1]
        threshold = 10 if "one-threshold" in NEAR else thresholds[active[pid]["species"]]
        if (before - after) / before * 100 >= threshold:
            flagged.append(pid)
    return sorted(flagged)
print("ready")
`;

/** Overdue core vaccines per the protocol, clinic by clinic (shared by the vaccine tasks). */
export const OVERDUE_PY = String.raw`def protocol_rules():
    proto = read_text("${PATHS.protocol}")
    grace = int(re.search(r"more than (\d+) days past its due date", proto).group(1))
    series = int(re.search(r"at least (\d+) weeks old", proto).group(1)) * 7
    schedule = [(s, v, int(m)) for s, v, category, m in md_table(proto, "Schedule") if category == "core" or "non-core" in NEAR]
    return schedule, grace, series

def overdue_vaccines():
    schedule, grace, series = protocol_rules()
    first_interval = {}
    for s, v, m in schedule:
        first_interval.setdefault(v, m)
    found = []
    for clinic in fetch("list_clinics", "clinics"):
        cid = clinic["clinic_id"]
        status = {} if "all-statuses" in NEAR else {"status": "active"}
        patients = fetch("list_patients", "patients", clinic_id=cid, **status)
        latest = {}
        for dose in fetch("list_vaccinations", "vaccinations", clinic_id=cid):
            key = (dose["patient_id"], dose["vaccine"])
            if not ("earliest-dose" in NEAR and key in latest):
                latest[key] = dose["given_on"]
        for p in patients:
            if days_between(p["birth_date"], TODAY) < series:
                continue
            for species, vaccine, months in schedule:
                if species != p["species"]:
                    continue
                months = first_interval[vaccine] if "one-interval" in NEAR else months
                last = latest.get((p["patient_id"], vaccine))
                if last and days_between(add_months(last, months), TODAY) <= (0 if "no-grace" in NEAR else grace):
                    continue
                found.append({"patient_id": p["patient_id"], "clinic_id": cid, "vaccine": vaccine})
    return found
print("overdue helpers ready")
`;
