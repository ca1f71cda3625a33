import {
  PYTHON_MARKDOWN_HELPERS,
  PYTHON_WORKSPACE_HELPERS,
  pythonPager,
  pythonRetryingCall,
} from "../../../envs/index.js";

/**
 * The first cell of every customs oracle and near-miss: retrying calls, paging, reading the scanned pages
 * (retrying "still processing"), parsing invoices, packing lists and certificates, the memos' rules and the
 * duty computation. A near-miss sets names in `NEAR` in a later cell to make one realistic mistake.
 */
export const CUSTOMS_PY = String.raw`import json, re
${PYTHON_WORKSPACE_HELPERS}
NEAR = set()
TODAY = "2025-06-30"

${pythonRetryingCall()}

${pythonPager()}

def page_text(doc_id, page):
    for attempt in range(5):
        result = call("get_document_page", doc_id=doc_id, page=page)
        if result.get("status") == "ok" or "processing" in NEAR:
            return result
    raise RuntimeError(f"{doc_id} page {page} kept processing")

def doc_text(doc_id):
    first = page_text(doc_id, 1)
    pages = [first["text"]]
    count = 1 if "first-page" in NEAR else first.get("page_count", 1)
    for page in range(2, count + 1):
        pages.append(page_text(doc_id, page)["text"])
    return "\n".join(pages)

INVOICE_LINE = re.compile(r"^\s*(\d{1,2})\s+(\d{4}\.\d{2}\.\d{4})\s+(.*?)\s+([\d,]+)\s+([\d,]+\.\d{2})\s+([\d,]+\.\d{2})\s*$")
PACKING_LINE = re.compile(r"^\s*(\d{1,2})\s+(.*?)\s+(\d+) (CTN|PLT|BOX)\s+([\d,]+)\s+([\d.]+)\s+([\d.]+)\s*$")

def num(text):
    return float(text.replace(",", ""))

def read_invoice(doc_id):
    text = doc_text(doc_id)
    lines = []
    for raw in text.split("\n"):
        m = INVOICE_LINE.match(raw)
        if m:
            lines.append({"no": int(m.group(1)), "hs": m.group(2), "qty": int(num(m.group(4))), "amount": num(m.group(6))})
    total = re.search(r"TOTAL INVOICE VALUE:\s+([A-Z]{3}) ([\d,]+\.\d{2})", text)
    currency = re.search(r"Currency: ([A-Z]{3})", text).group(1)
    return {"currency": currency, "total": num(total.group(2)) if total else None, "lines": lines}

def read_packing(doc_id):
    return {int(m.group(1)): int(num(m.group(5))) for m in map(PACKING_LINE.match, doc_text(doc_id).split("\n")) if m}

def read_certificate(doc_id):
    found = re.search(r"Preference program: ([A-Z]+)", doc_text(doc_id))
    return found.group(1) if found else None

def certificates_on_file():
    found = {}
    for doc in fetch("list_documents", "documents", doc_type="certificate_of_origin"):
        found.setdefault(doc["shipment_id"], []).append(read_certificate(doc["doc_id"]))
    return found

def read_rules():
    duty = read_text("memos/duty-and-preference-rules.md")
    dm = read_text("memos/de-minimis.md")
    return {
        "rates": {r[0]: float(r[2]) for r in md_table(read_text("rates/currency-rates-june-2025.md"), "Currency rates")},
        "members": {r[0]: r[1].split(", ") for r in md_table(duty, "Preference programs")},
        "threshold": num(re.search(r"is \$([\d,]+\.\d{2}) or less", dm).group(1)),
        "excluded": {r[0] for r in md_table(dm, "Excluded chapters")},
        "tolerance": float(re.search(r"by less than ([\d.]+) of that currency", duty).group(1)),
    }

TARIFF = {}
def tariff(hs):
    if hs not in TARIFF:
        got = call("get_tariff_line", hs_code=hs)
        TARIFF[hs] = (got["tariff_line"]["general_rate_pct"], {s["program"]: s["rate_pct"] for s in got["special_rates"]})
    return TARIFF[hs]

def money(value):
    return round(value + 1e-9, 2)

def shipment_papers(shipment):
    docs = call("get_shipment", shipment_id=shipment["shipment_id"])["documents"]
    invoice = read_invoice([d for d in docs if d["doc_type"] == "commercial_invoice"][0]["doc_id"])
    certs = [read_certificate(d["doc_id"]) for d in docs if d["doc_type"] == "certificate_of_origin"]
    return docs, invoice, certs

def valuate(shipment, invoice, certs, rules):
    claimed = shipment["preference_claimed"]
    eligible = claimed is not None and shipment["origin_country"] in rules["members"].get(claimed, [])
    eligible = eligible and (len(certs) > 0 if "any-cert" in NEAR else claimed in certs)
    if "no-pref" in NEAR:
        eligible = False
    rate = 1.0 if "no-convert" in NEAR else rules["rates"][invoice["currency"]]
    value = duty = 0.0
    program = None
    for line in invoice["lines"]:
        usd = money(line["amount"] * rate)
        general, special = tariff(line["hs"])
        pct = general
        if eligible and claimed in special:
            pct, program = special[claimed], claimed
        value += usd
        duty += money(usd * pct / 100)
    value = money(value)
    under = value < rules["threshold"] if "strict-threshold" in NEAR else value <= rules["threshold"]
    excluded = any(l["hs"][:2] in rules["excluded"] for l in invoice["lines"]) and "no-exclusions" not in NEAR
    return {"value": value, "duty": money(duty), "program": program, "de_minimis": under and not excluded}

${PYTHON_MARKDOWN_HELPERS}
print("helpers ready")
`;
