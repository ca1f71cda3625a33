import { PYTHON_MARKDOWN_HELPERS, PYTHON_WORKSPACE_HELPERS, REFERENCE_DATE } from "../../../envs/index.js";

/**
 * The first cell of every marketplace oracle. `Doc` reads a rendered page with the standard library's
 * html.parser (tables by id as header-keyed rows with their links, definition lists, links, forms with their
 * hidden inputs, the case thread, alerts; script and style skipped). `get` opens a page and retries what the
 * site does to careful clients (a 503 raised as a tool error, the CDN's "Just a moment..." page returned as
 * an ordinary page); `submit` posts a form with the token from the page it was read on, reloading the page
 * when the token was stale, and refuses a page with an alert.
 */
export const MARKET_PY = String.raw`import json, re
from datetime import date, datetime, timedelta
from html.parser import HTMLParser
${PYTHON_WORKSPACE_HELPERS}
${PYTHON_MARKDOWN_HELPERS}

class Doc(HTMLParser):
    def __init__(self, html):
        super().__init__(convert_charrefs=True)
        self.title, self.tables, self.fields, self.links, self.forms = "", {}, {}, [], {}
        self.messages, self.alerts = [], []
        self._skip, self._buf, self._table, self._row, self._link = 0, {}, None, None, None
        self._form, self._msg, self._dt, self._href = None, None, None, []
        self.feed(html)
        self.close()

    def _start(self, name):
        self._buf[name] = []

    def _end(self, name):
        return " ".join("".join(self._buf.pop(name, [])).split())

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("script", "style"):
            self._skip += 1
        elif tag in ("title", "dt", "dd", "th", "td", "a", "p"):
            self._start(tag)
            if tag == "a":
                self._link = (a.get("href"), a.get("rel"))
                if self._row is not None:
                    self._href.append(a.get("href"))
            if tag == "td":
                self._href = []
        elif tag == "table":
            self._table = a.get("id", "")
            self.tables[self._table] = {"headers": [], "rows": []}
        elif tag == "tr" and self._table is not None:
            self._row = []
        elif tag == "form":
            self._form = a.get("action")
            self.forms[self._form] = {}
        elif tag == "input" and self._form is not None and a.get("name"):
            self.forms[self._form][a["name"]] = a.get("value", "")
        elif tag == "article":
            self._msg = {"author": (a.get("class") or "").split("from-")[-1], "at": None, "text": ""}
        elif tag == "time" and self._msg is not None:
            self._msg["at"] = a.get("datetime")
        elif tag == "div" and a.get("role") == "alert":
            self._start("alert")

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._skip -= 1
        elif tag == "title":
            self.title = self._end("title")
        elif tag == "th" and self._table is not None:
            self.tables[self._table]["headers"].append(self._end("th"))
        elif tag == "td" and self._row is not None:
            self._row.append((self._end("td"), self._href))
        elif tag == "tr" and self._row is not None:
            if self._row:
                t = self.tables[self._table]
                row = dict(zip(t["headers"], [text for text, _ in self._row]))
                row["_links"] = [h for _, hrefs in self._row for h in hrefs]
                t["rows"].append(row)
            self._row = None
        elif tag == "table":
            self._table = None
        elif tag == "a" and self._link:
            self.links.append({"text": self._end("a"), "href": self._link[0], "rel": self._link[1]})
            self._link = None
        elif tag == "dt":
            self._dt = self._end("dt")
        elif tag == "dd":
            self.fields[self._dt] = self._end("dd")
        elif tag == "form":
            self._form = None
        elif tag == "p":
            text = self._end("p")
            if self._msg is not None:
                self._msg["text"] = text
        elif tag == "article" and self._msg is not None:
            self.messages.append(self._msg)
            self._msg = None
        elif tag == "div" and "alert" in self._buf:
            self.alerts.append(self._end("alert"))

    def handle_data(self, data):
        if not self._skip:
            for buf in self._buf.values():
                buf.append(data)

    def rows(self, table_id):
        return self.tables.get(table_id, {"rows": []})["rows"]

    def next_url(self):
        return next((l["href"] for l in self.links if l["rel"] == "next"), None)

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
