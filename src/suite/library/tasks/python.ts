import {
  PYTHON_MARKDOWN_HELPERS,
  PYTHON_WORKSPACE_HELPERS,
  pythonPager,
  pythonRetryingCall,
} from "../../../envs/index.js";

/**
 * The first cell of every library oracle and near-miss: retrying calls, paging, reading MARC records,
 * invoice printouts (retrying pages the gateway has not converted), notices and the policies. A near-miss
 * sets names in `NEAR` in a later cell to make one realistic mistake.
 */
export const LIBRARY_PY = String.raw`import json, re
from datetime import date, timedelta
${PYTHON_WORKSPACE_HELPERS}${PYTHON_MARKDOWN_HELPERS}
NEAR = set()
TODAY = "2025-06-30"
FY_START = "2024-07-01"

def days_before(n):
    return (date.fromisoformat(TODAY) - timedelta(days=n)).isoformat()

${pythonRetryingCall({ giveUpWhen: '"no-retry" in NEAR' })}

${pythonPager({ stopWhen: '"first-page" in NEAR' })}

def marc_fields(marc):
    fields = []
    for line in marc.split("\n"):
        m = re.match(r"^=(\d{3}|LDR)  (.*)$", line.rstrip())
        if m:
            fields.append((m.group(1), [(part[:1], part[1:].strip()) for part in m.group(2).split("$")[1:]]))
    return fields

def isbn13_check(first12):
    return str((10 - sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(first12)) % 10) % 10)

def normalize_isbn(value):
    m = re.match(r"^[\d\- ]*[\dXx]", value.strip())
    token = m.group(0).replace("-", "").replace(" ", "").upper() if m else ""
    if "no-normalize" in NEAR:
        token = value.strip().split(" ")[0]
    if re.fullmatch(r"\d{13}", token):
        return token
    if re.fullmatch(r"\d{9}[\dX]", token) and "no-isbn10" not in NEAR:
        return "978" + token[:9] + isbn13_check("978" + token[:9])
    return token if "no-normalize" in NEAR else None

def isbns_of(marc):
    found = []
    for tag, subs in marc_fields(marc):
        if tag == "020":
            found += [normalize_isbn(v) for c, v in subs if c == "a" or (c == "z" and "any-isbn" in NEAR)]
            if "first-020" in NEAR:
                break
    return {isbn for isbn in found if isbn}

def fund_for(marc):
    fields = marc_fields(marc)
    def values(tag, code):
        return [v.lower() for t, subs in fields if t == tag for c, v in subs if c == code]
    forms = values("650", "v")
    if "first-650" in NEAR:
        firsts = [subs for t, subs in fields if t == "650"][:1]
        forms = [v.lower() for subs in firsts for c, v in subs if c == "v"]
    genres = values("655", "a")
    if "audience-first" in NEAR and any(f.startswith("juvenile") for f in forms):
        return "JUV"
    if any(re.search(r"audio disc|videodisc", e) for e in values("300", "a")) and "no-av" not in NEAR:
        return "AV"
    if any(g.startswith("large type books") for g in genres):
        return "LPRT"
    if any(g.startswith("young adult") for g in genres):
        return "YA"
    if any(f.startswith("juvenile") for f in forms):
        return "JUV"
    return "AFIC" if any(f.startswith("fiction") for f in forms) else "ANF"

BIBS = {}
def bib(bib_id):
    if bib_id not in BIBS:
        BIBS[bib_id] = call("get_bib", bib_id=bib_id)["marc"]
    return BIBS[bib_id]

INVOICE_LINE = re.compile(r"^\s*(\d+)\s+(POL-\d{6})\s+(\d{13})\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*$")

def invoice_page(invoice_id, page):
    for attempt in range(5):
        result = call("get_invoice_page", invoice_id=invoice_id, page=page)
        if result.get("status") == "ok" or "trust-status" in NEAR:
            return result.get("text", "")
    raise RuntimeError(f"{invoice_id} page {page} kept failing")

def invoice_lines(invoice):
    count = 1 if "first-page" in NEAR else invoice["page_count"]
    lines = []
    for page in range(1, count + 1):
        for raw in invoice_page(invoice["invoice_id"], page).split("\n"):
            m = INVOICE_LINE.match(raw)
            if m:
                lines.append({"line": m.group(2), "qty": int(m.group(4)), "disc": float(m.group(6)), "net": float(m.group(7))})
    return lines

def money(value):
    return round(value + 1e-9, 2)

def invoice_problems():
    policy = read_text("policies/invoice-review.md")
    pct = float(re.search(r"greater of ([\d.]+)% of the expected", policy).group(1))
    usd = float(re.search(r"net unit price and \$(\d+\.\d+)", policy).group(1))
    if "no-tolerance" in NEAR:
        pct = usd = 0.0
    discounts = {v["vendor_id"]: v["discount_pct"] for v in fetch("list_vendors", "vendors")}
    problems, by_vendor = {}, {}
    for invoice in fetch("list_invoices", "invoices", status="pending"):
        if invoice["vendor_id"] not in by_vendor:
            by_vendor[invoice["vendor_id"]] = {l["line_id"]: l for l in fetch("list_order_lines", "lines", vendor_id=invoice["vendor_id"])}
        ordered = by_vendor[invoice["vendor_id"]]
        bad = []
        for printed in invoice_lines(invoice):
            order = ordered[printed["line"]]
            disc = printed["disc"] if "printed-discount" in NEAR else discounts[order["vendor_id"]]
            expected = money(order["list_price"] * (1 - disc / 100))
            qty_bad = printed["qty"] != order["quantity"] if "any-qty" in NEAR else printed["qty"] > order["quantity"]
            qty_bad = qty_bad and "no-qty" not in NEAR
            if qty_bad or abs(printed["net"] - expected) > max(expected * pct / 100, usd) + 1e-9:
                bad.append(printed["line"])
        problems[invoice["invoice_id"]] = bad
    return problems

print("helpers ready")
`;
