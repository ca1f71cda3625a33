import { variantTaskDefiner } from "../../../envs/index.js";
import { marketplaceDomain } from "../domain.js";
import {
  PYTHON_HTML_HELPERS,
  PYTHON_MARKDOWN_HELPERS,
  PYTHON_WORKSPACE_HELPERS,
  REFERENCE_DATE,
} from "../../../envs/index.js";

/**
 * The first cell of every marketplace oracle. The kit's `Doc` reads a rendered page with the standard
 * library's html.parser (tables by id, definition lists, links, forms, articles, alerts). `get` opens a page and retries what the
 * site does to careful clients (a 503 raised as a tool error, the CDN's "Just a moment..." page returned as
 * an ordinary page); `submit` posts a form with the token from the page it was read on, reloading the page
 * when the token was stale, and refuses a page with an alert.
 */
export const MARKET_PY = String.raw`import json, re
from datetime import date, datetime, timedelta
${PYTHON_HTML_HELPERS}
${PYTHON_WORKSPACE_HELPERS}
${PYTHON_MARKDOWN_HELPERS}

def get(url):
    last = None
    for attempt in range(6):
        try:
            result = tools.browser_navigate(url=url)
        except Exception as error:
            if "503" not in str(error):
                raise
            last = error
            continue
        doc = Doc(result["html"])
        if doc.title.startswith("Just a moment"):
            last = "browser check page"
            continue
        return doc
    raise RuntimeError(f"{url} kept failing: {last}")

def listing(url, table_id):
    rows = []
    while url:
        doc = get(url)
        rows.extend(doc.rows(table_id))
        url = doc.next_url()
    return rows

def submit(doc, page_url, form, **fields):
    for attempt in range(4):
        token = doc.forms[form]["csrf_token"]
        result = tools.browser_submit_form(url=form, fields={"csrf_token": token, **fields})
        answer = Doc(result["html"])
        if result["status"] == 403:
            doc = get(page_url)
            continue
        if answer.alerts:
            raise RuntimeError(f"{form} refused: {answer.alerts}")
        return answer
    raise RuntimeError(f"{form} kept failing")

def usd(text):
    return float(text.replace("$", "").replace(",", ""))

def iso(text):
    return datetime.strptime(text[:12].strip(), "%b %d, %Y").date()

def add_business_days(day, n):
    while n > 0:
        day += timedelta(days=1)
        if day.weekday() < 5:
            n -= 1
    return day

def cents(x):
    return round(x + 1e-9, 2)

TODAY = date.fromisoformat("${REFERENCE_DATE}")
print("helpers ready")
`;

/** A marketplace task whose oracle and near-misses are its cell builder run on variants, after MARKET_PY (plus a near-miss's `helpers`). */
export const defineMarketplaceTask = variantTaskDefiner(
  marketplaceDomain,
  ({ helpers = "" }: { helpers?: string }) => MARKET_PY + helpers,
);

/** Listing pages read without retrying a 503. */
export const NAIVE_LISTING_PY = String.raw`
def listing(url, table_id):
    rows = []
    while url:
        doc = Doc(tools.browser_navigate(url=url)["html"])
        rows.extend(doc.rows(table_id))
        url = doc.next_url()
    return rows
`;

/** Only the first page of a listing. */
export const FIRST_PAGE_PY = String.raw`
def listing(url, table_id):
    return get(url).rows(table_id)
`;

/** Record pages read without noticing the CDN's browser-check page (a page with no data on it). */
export const NAIVE_GET_PY = String.raw`
def get(url):
    for attempt in range(6):
        try:
            return Doc(tools.browser_navigate(url=url)["html"])
        except Exception as error:
            if "503" not in str(error):
                raise
    raise RuntimeError(url)
`;

/** Form posts that reuse the first token the program saw and never read the page that comes back. */
export const STALE_TOKEN_PY = String.raw`
FIRST_TOKEN = []
def submit(doc, page_url, form, **fields):
    if not FIRST_TOKEN:
        FIRST_TOKEN.append(doc.forms[form]["csrf_token"])
    result = tools.browser_submit_form(url=form, fields={"csrf_token": FIRST_TOKEN[0], **fields})
    return Doc(result["html"])
`;
