import { variantTaskDefiner } from "../../../envs/index.js";
import { hotelDomain } from "../domain.js";
import {
  PYTHON_MARKDOWN_HELPERS,
  PYTHON_SNAPSHOT_HELPERS,
  PYTHON_WORKSPACE_HELPERS,
  REFERENCE_DATE,
} from "../../../envs/index.js";

/**
 * The first cell of every hotel oracle. `open_page` opens a PMS page and retries what the app does to
 * careful clients (a 503 raised as a tool error, the "Something went wrong" page returned as an ordinary
 * page); `rows_of` follows a listing's Next page links; `post` submits a form, again on the error page, and
 * refuses a page with an alert; `date_reader` parses a property's dates in the format its settings page names.
 */
export const HOTEL_PY = String.raw`import json, math, re
from datetime import date, datetime, timedelta
${PYTHON_WORKSPACE_HELPERS}
${PYTHON_SNAPSHOT_HELPERS}
${PYTHON_MARKDOWN_HELPERS}
WRONG = "Something went wrong"

def open_page(url):
    problem = None
    for attempt in range(6):
        try:
            page = tools.pms_navigate(url=url)
        except Exception as error:
            if "503" not in str(error):
                raise
            problem = error
            continue
        if page["title"] == WRONG:
            problem = WRONG
            continue
        return page["snapshot"]
    raise RuntimeError(f"{url} kept failing: {problem}")

def next_link(snap):
    return next((n["href"] for n in nodes(snap) if n["role"] == "link" and n["name"] == "Next page"), None)

def rows_of(url, name):
    rows = []
    while url:
        snap = open_page(url)
        rows.extend(table(snap, name))
        url = next_link(snap)
    return rows

def post(url, **fields):
    for attempt in range(4):
        page = tools.pms_submit_form(url=url, fields=fields)
        if page["title"] == WRONG:
            continue
        refused = [n["text"] for n in nodes(page["snapshot"]) if n["role"] == "alert"]
        if refused:
            raise RuntimeError(f"{url} refused: {refused}")
        return page["snapshot"]
    raise RuntimeError(f"{url} kept failing")

FORMATS = {"D MMM YYYY": "%d %b %Y", "DD/MM/YYYY": "%d/%m/%Y", "YYYY-MM-DD": "%Y-%m-%d", "DD.MM.YYYY": "%d.%m.%Y"}

def date_reader(code):
    fmt = FORMATS[fields(open_page(f"/properties/{code}"))["Date format"]]
    return lambda text: datetime.strptime(text, fmt).date()

def property_codes():
    links = [n for n in nodes(open_page("/")) if n["role"] == "link" and re.fullmatch(r"/properties/[A-Z]+", n["href"] or "")]
    return [n["href"].rsplit("/", 1)[1] for n in links if n["name"].endswith(")")]

def eur(text):
    return float(text.replace("€", "").replace(",", ""))

def reservation(rid):
    return fields(open_page(f"/reservations/{rid}"))

def folio_codes(rid):
    return {row["Code"] for row in table(open_page(f"/reservations/{rid}/folio"), "Folio")}

def plan_code(res):
    return re.search(r"\((\w+)\)$", res["Rate plan"]).group(1)

def fee_terms():
    terms = {}
    for name, code, free, late, no_show in md_table(read_text("policies/cancellation.md"), "Terms by rate plan"):
        terms[code] = {"free": int(free) if free.isdigit() else None, "late": float(late), "no_show": float(no_show)}
    return terms

def cents(x):
    return round(x + 1e-9, 2)

def month(day):
    return day.strftime("%Y-%m")

TODAY = date.fromisoformat("${REFERENCE_DATE}")
THIS_MONTH = month(TODAY)
LAST_MONTH = month(TODAY.replace(day=1) - timedelta(days=1))
print("helpers ready")
`;

/** A hotel task whose oracle and near-misses are its cell builder run on variants, after HOTEL_PY (plus a near-miss's `helpers`). */
export const defineHotelTask = variantTaskDefiner(
  hotelDomain,
  ({ helpers = "" }: { helpers?: string }) => HOTEL_PY + helpers,
);

/** Dates read with a guessing parser that tries the US order first (05/06/2025 is May 6). */
export const GUESSED_DATES_PY = String.raw`
def date_reader(code):
    def read(text):
        for fmt in ("%Y-%m-%d", "%m/%d/%Y", "%d/%m/%Y", "%m.%d.%Y", "%d.%m.%Y", "%d %b %Y"):
            try:
                return datetime.strptime(text, fmt).date()
            except ValueError:
                pass
        raise ValueError(text)
    return read
`;

/** Form posts that never look at the page that comes back. */
export const BLIND_POST_PY = String.raw`
def post(url, **fields):
    return tools.pms_submit_form(url=url, fields=fields)["snapshot"]
`;

/** Pages opened with a retry on 503 but no look at the page (the error page reads as an empty one). */
export const NO_ERROR_PAGE_CHECK_PY = String.raw`
def open_page(url):
    for attempt in range(6):
        try:
            return tools.pms_navigate(url=url)["snapshot"]
        except Exception as error:
            if "503" not in str(error):
                raise
    raise RuntimeError(url)
`;
