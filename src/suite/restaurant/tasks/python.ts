import { PYTHON_MARKDOWN_HELPERS, PYTHON_WORKSPACE_HELPERS, REFERENCE_DATE } from "../../../envs/index.js";

/**
 * The first cell of every restaurant oracle: `call` retries what real APIs do to careful clients (a 503
 * raised as a tool error, an error body returned as an ordinary result), `fetch` pages through a listing
 * with it, `read_count` reads a count workbook with openpyxl into base units per item.
 */
export const RESTAURANT_PY = String.raw`import glob, json, math, re
from datetime import date, timedelta
import openpyxl
${PYTHON_WORKSPACE_HELPERS}
${PYTHON_MARKDOWN_HELPERS}
today = "${REFERENCE_DATE}"

def call(name, **kwargs):
    last = None
    for attempt in range(5):
        try:
            result = tools[name](**kwargs)
        except Exception as error:
            if "503" not in str(error):
                raise
            last = error
            continue
        if isinstance(result, dict) and result.get("status") == "error":
            last = result.get("error")
            continue
        return result
    raise RuntimeError(f"{name} kept failing: {last}")

def fetch(name, key, **filters):
    rows, page = [], 1
    while True:
        result = call(name, page=page, per_page=50, **filters)
        rows.extend(result[key])
        if not result["has_more"]:
            return rows
        page += 1

def workspace_paths(folder):
    paths, page = [], 1
    while True:
        result = tools.list_files(path=folder, page=page, per_page=100)
        paths.extend(item["path"] for item in result["files"])
        if not result["has_more"]:
            return sorted(paths)
        page += 1

def add_days(day, days):
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()

catalogue = {}
def load_catalogue():
    if not catalogue:
        catalogue.update({item["item_id"]: item for item in fetch("list_items", "items")})
    return catalogue

def workbooks(week=-1):
    """The latest (or, week=-2, the previous) count workbook of every location folder."""
    return [sorted(glob.glob(folder + "/*.xlsx"))[week] for folder in sorted(glob.glob("counts/*"))]

def read_count(path, first_sheet_only=False, ignore_units=False):
    load_catalogue()
    book = openpyxl.load_workbook(path, data_only=True)
    location = re.search(r"\((LOC-\d+)\)", book.worksheets[0]["A1"].value).group(1)
    stock = {}
    for sheet in book.worksheets[:1] if first_sheet_only else book.worksheets:
        for row in sheet.iter_rows(values_only=True):
            code = row[0]
            if not isinstance(code, str) or not re.fullmatch(r"ITM-\d{4}", code):
                continue
            value = 0 if row[3] in (None, "-") else float(row[3])
            if str(row[2]).lower() == "cs" and not ignore_units:
                value *= catalogue[code]["pack_size"]
            stock[code] = stock.get(code, 0) + value
    return location, stock
print("count workbooks:", workbooks())
`;
