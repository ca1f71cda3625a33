import { PYTHON_MARKDOWN_HELPERS, PYTHON_OCR_HELPERS } from "../../../envs/index.js";
import { PYTHON_WORKSPACE_HELPERS, pythonPager } from "../../../envs/index.js";
import { REFERENCE_DATE, flagNearMisses, type NearMiss } from "../../../envs/index.js";
import { CATEGORIES, PATHS } from "../rules.js";

/**
 * The first cell of every grants oracle and near-miss: retrying calls, paging, OCR pages that are still
 * queued, the careful amount reader, the policies and each sponsor's terms, and readers for the four kinds of
 * scan. A near-miss names flags in `NEAR` (set in its second cell) to make one realistic mistake.
 */
export const GRANTS_PY = String.raw`import json, re
from datetime import date, datetime
${PYTHON_WORKSPACE_HELPERS}
${PYTHON_OCR_HELPERS}
${PYTHON_MARKDOWN_HELPERS}
TODAY = "${REFERENCE_DATE}"
CATEGORIES = ${JSON.stringify(CATEGORIES)}

def call(name, **kwargs):
    for attempt in range(6):
        try:
            return tools[name](**kwargs)
        except Exception as error:
            if "503" not in str(error) or "no-retry" in NEAR:
                raise
    raise RuntimeError(f"{name} kept failing")

${pythonPager({ stopWhen: '"first-page-only" in NEAR' })}

def page_text(doc_id, page):
    for attempt in range(6):
        result = call("get_document_page", doc_id=doc_id, page=page)
        if result.get("status") == "ok" or "reads-queued-pages" in NEAR:
            return result["text"]
    raise RuntimeError(f"{doc_id} page {page} stayed queued")

def doc_text(doc):
    count = 1 if "first-page-of-notice" in NEAR else doc["page_count"]
    return "\n".join(page_text(doc["doc_id"], page) for page in range(1, count + 1))

def person(person_id):
    for attempt in range(6):
        result = call("get_person", person_id=person_id)
        if "person" in result:
            return result
        if "skips-error-records" in NEAR:
            return None
    raise RuntimeError(f"{person_id} kept failing")

def amount_in(text):
    if "naive-amount" in NEAR:
        found = re.search(r"([\d,]+\.\d{2})", text)
        return float(found.group(1).replace(",", "")) if found else None
    found = ocr_amounts(text)
    return found[0] if found else None

def money(value):
    return round(value + 1e-9, 2)

def dollars(text):
    return float(text.replace("$", "").replace(",", ""))

def policies():
    agreement, manual = read_text("${PATHS.rateAgreement}"), read_text("${PATHS.manual}")
    research = next(r for r in md_table(agreement, "Rates") if r[0] == "Organized research")
    return {
        "negotiated": float(research[1].rstrip("%")),
        "excluded": set(re.findall(r"\d{4}", re.search(r"the exclusions are object codes (.*?)\. A subaward", agreement).group(1))),
        "cap": dollars(re.search(r"up to the first (\$[\d,.]+) of each subaward", agreement).group(1)),
        "equipment": dollars(re.search(r"capitalizes items costing (\$[\d,.]+) or more per unit", manual).group(1)),
        "caps": {r[0].replace(" ", "_"): float(r[1].rstrip("%")) for r in md_table(manual, "Effort")},
    }

def sponsor_terms(policy):
    terms = {}
    for sponsor in fetch("list_sponsors", "sponsors"):
        text = read_text(sponsor["terms_document"])
        rate = re.search(r"paid at ([\d.]+)% of (?:total direct costs \((TDC)\)|modified total direct costs \((MTDC)\))", text)
        idc = None
        if "federally negotiated rate" in text:
            idc = {"rate": policy["negotiated"], "base": "MTDC"}
        elif rate:
            idc = {"rate": float(rate.group(1)), "base": "TDC" if rate.group(2) else "MTDC"}
        section = text[text.index("## Unallowable costs"):text.index("## Equipment")]
        equipment = re.search(r"equipment is an article costing (\$[\d,.]+) or more per unit", text)
        rebudget = re.search(r"exceeds (\d+)% of its approved direct-cost budget", text)
        effort = re.search(r"A reduction of (\d+)% or more in the effort", text)
        extension = re.search(r"up to (\d+) months beyond .*? at least (\d+) days before", text)
        terms[sponsor["sponsor_id"]] = {
            "type": sponsor["sponsor_type"],
            "idc": idc,
            "unallowable": set(re.findall(r"\(object code (\d{4})\)", section)),
            "equipment": dollars(equipment.group(1)) if equipment else policy["equipment"],
            "rebudget": float(rebudget.group(1)) if rebudget else None,
            "effort": float(effort.group(1)) if effort else None,
            "extension": (int(extension.group(1)), int(extension.group(2))) if extension else None,
        }
    return terms

def iso(mdy):
    return f"{mdy[6:10]}-{mdy[0:2]}-{mdy[3:5]}"

def read_letter(text):
    budget = {}
    for line in text.split("\n"):
        for key, label in CATEGORIES.items():
            if line.lstrip().startswith(label):
                budget[key] = amount_in(line[line.index(label) + len(label):])
    award = re.search(r"Award No\.: (AWD-\d{5})", text)
    amendment = re.search(r"AMENDMENT No\. (\d+)", text)
    return {"award": award.group(1) if award else None, "amendment": int(amendment.group(1)) if amendment else 0, "budget": budget}

def read_invoice(text):
    number, sub = re.search(r"Invoice No\.: (\S+)", text), re.search(r"Subaward No\.: (SUB-\d{4})", text)
    period, total = re.search(r"billed: \d\d/\d\d/\d{4} - (\d\d/\d\d/\d{4})", text), re.search(r"^TOTAL AMOUNT DUE(.*)$", text, re.M)
    if not (number and sub and period and total):
        return None
    return {"invoice": number.group(1), "subaward": sub.group(1), "end": iso(period.group(1)),
            "amount": amount_in(total.group(1)), "signed": re.search(r"^Signature: /s/", text, re.M) is not None}

CERT_ROW = re.compile(r"^\s*(AWD-\d{5})\s+(.*?)\s+(\d+(?:\.\d+)?)\s*%?\s+(\d+(?:\.\d+)?)\s*%?\s*$")

def read_certification(text):
    person = re.search(r"Employee ID: (EMP-\d{5})", text)
    rows = [m for m in map(CERT_ROW.match, text.split("\n")) if m]
    return {"person": person.group(1) if person else None,
            "rows": [{"award": m.group(1), "committed": float(m.group(3)), "certified": float(m.group(4))} for m in rows]}

def read_request(text):
    joined = re.sub(r"\s*\n\s*", " ", re.sub(r"-\n\s*", "", text))
    dates = re.search(r"current end date of (\w+ \d{1,2}, \d{4}) to (\w+ \d{1,2}, \d{4})", joined)
    award = re.search(r"Re: Request for no-cost extension - Award (AWD-\d{5})", joined)
    if not (dates and award):
        return None
    day = lambda text: datetime.strptime(text, "%B %d, %Y").date().isoformat()
    return {"award": award.group(1), "end": day(dates.group(1)), "new_end": day(dates.group(2))}

def months_between(start, end):
    return (int(end[:4]) - int(start[:4])) * 12 + int(end[5:7]) - int(start[5:7])

print("helpers ready")
`;

/** A task's oracle cells for a set of `NEAR` flags (none for the oracle). */
export function grantsCells(body: string): (near: string[]) => string[] {
  return (near) => [`NEAR = set(${JSON.stringify(near)})\n${GRANTS_PY}`, body];
}

/** Near-misses from `id: description` lines; each sets its id as the flag in `NEAR`. */
export function nearMisses(cells: (near: string[]) => string[], lines: string[]): NearMiss[] {
  return flagNearMisses(
    cells,
    lines.map((line) => line.split(/: (.*)/s).slice(0, 2) as [string, string]),
  );
}
