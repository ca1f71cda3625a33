import { variantTaskDefiner } from "../../../envs/index.js";
import { permitsDomain } from "../domain.js";
import { PYTHON_SNAPSHOT_HELPERS, PYTHON_WORKSPACE_HELPERS, REFERENCE_DATE } from "../../../envs/index.js";

/**
 * The first cell of every permits oracle: `page` opens a portal page and retries what a real site does to
 * careful clients (a 503 raised as a tool error, the "Session expired" page returned as an ordinary page),
 * `submit` does the same for forms and refuses a page with an alert; the kit's snapshot readers
 * (`PYTHON_SNAPSHOT_HELPERS`) turn role trees into rows, fields and notes.
 */
export const PERMITS_PY = String.raw`import json, re
from datetime import date, datetime, timedelta
${PYTHON_WORKSPACE_HELPERS}
${PYTHON_SNAPSHOT_HELPERS}
EXPIRED = "Session expired"

def page(url, retry_expired=True):
    last = None
    for attempt in range(6):
        try:
            snap = tools.open_page(url=url)["snapshot"]
        except Exception as error:
            if "503" not in str(error):
                raise
            last = error
            continue
        if retry_expired and EXPIRED in snap:
            last = EXPIRED
            continue
        return snap
    raise RuntimeError(f"{url} kept failing: {last}")

def submit(url, **fields):
    for attempt in range(6):
        snap = tools.submit_form(url=url, fields=fields)["snapshot"]
        if EXPIRED in snap:
            continue
        if "- alert:" in snap:
            raise RuntimeError(f"{url} refused: {snap[snap.index('- alert:'):][:300]}")
        return snap
    raise RuntimeError(f"{url} kept failing")

def next_url(snap):
    return next((n["href"] for n in nodes(snap) if n["role"] == "link" and n["name"] == "Next page"), None)

def listing(url, name):
    rows = []
    while url:
        snap = page(url)
        rows.extend(table(snap, name))
        url = next_url(snap)
    return rows

def usd(text):
    return float(text.replace("$", "").replace(",", ""))

def iso(text):
    return datetime.strptime(text, "%b %d, %Y").date().isoformat()

def inbox():
    paths, pg = [], 1
    while True:
        result = tools.list_files(path="inbox", page=pg, per_page=100)
        paths.extend(item["path"] for item in result["files"])
        if not result["has_more"]:
            break
        pg += 1
    return [(path, read_text(path)) for path in sorted(paths)]

TODAY = date.fromisoformat("${REFERENCE_DATE}")
print("helpers ready")
`;

/** A permits task whose oracle and near-misses are its cell builder run on variants, after PERMITS_PY (plus a near-miss's `helpers`). */
export const definePermitsTask = variantTaskDefiner(
  permitsDomain,
  ({ helpers = "" }: { helpers?: string }) => PERMITS_PY + helpers,
);

/** A listing read the naive way: no retry when a page answers 503. */
export const NAIVE_LISTING_PY = String.raw`
def listing(url, name):
    rows = []
    while url:
        snap = tools.open_page(url=url)["snapshot"]
        rows.extend(table(snap, name))
        url = next_url(snap)
    return rows
`;

/** Only the first page of a listing. */
export const FIRST_PAGE_PY = String.raw`
def listing(url, name):
    return table(page(url), name)
`;

/** Form posts that do not read the page that comes back. */
export const NAIVE_SUBMIT_PY = String.raw`
def submit(url, **fields):
    return tools.submit_form(url=url, fields=fields)["snapshot"]
`;
