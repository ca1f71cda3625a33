/** What every restaurant task shares: the domain, and oracle/near-miss cells after one helper cell. */
import {
  PYTHON_MARKDOWN_HELPERS,
  PYTHON_WORKSPACE_HELPERS,
  pythonClientHelpers,
  REFERENCE_DATE,
  variantTaskDefiner,
} from "../../../envs/index.js";
import { restaurantDomain } from "../domain.js";

/**
 * The first cell of every restaurant oracle: `call` retries what real APIs do to careful clients (a 503
 * raised as a tool error, an error body returned as an ordinary result), `fetch` pages through a listing
 * with it, `read_count` reads a count workbook through read_workbook (what a direct-calling agent can do too;
 * code may equally open the .xlsx with openpyxl) into base units per item.
 */
export const RESTAURANT_PY = String.raw`import glob, json, math, re
from datetime import date, timedelta
${PYTHON_WORKSPACE_HELPERS}
${PYTHON_MARKDOWN_HELPERS}
today = "${REFERENCE_DATE}"

${pythonClientHelpers()}
def add_days(day, days):
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()

catalogue = {}
def load_catalogue():
    if not catalogue:
        catalogue.update({item["item_id"]: item for item in fetch("list_items", "items")})
    return catalogue

def workbooks(week=-1):
    """The latest (or, week=-2, the previous) count workbook of every location folder."""
    by_folder = {}
    for path in workspace_files("counts"):
        if path.endswith(".xlsx"):
            by_folder.setdefault(path.rsplit("/", 1)[0], []).append(path)
    return [sorted(paths)[week] for _, paths in sorted(by_folder.items())]

def workbook_rows(path):
    """Every sheet's rows (as cell dicts) through read_workbook, in tab order, page by page."""
    sheets, page = {}, 1
    while True:
        result = call("read_workbook", path=path, page=page, per_page=200)
        for sheet in result["sheets"]:
            sheets.setdefault(sheet["name"], []).extend(row["cells"] for row in sheet["rows"])
        if not result["has_more"]:
            return list(sheets.values())
        page += 1

def read_count(path, first_sheet_only=False, ignore_units=False):
    load_catalogue()
    sheets = workbook_rows(path)
    location = re.search(r"\((LOC-\d+)\)", sheets[0][0]["A"]).group(1)
    stock = {}
    for rows in sheets[:1] if first_sheet_only else sheets:
        for cells in rows:
            code = cells.get("A")
            if not isinstance(code, str) or not re.fullmatch(r"ITM-\d{4}", code):
                continue
            value = 0 if cells.get("D") in (None, "-") else float(cells["D"])
            if str(cells.get("C")).lower() == "cs" and not ignore_units:
                value *= catalogue[code]["pack_size"]
            stock[code] = stock.get(code, 0) + value
    return location, stock

`;

/** A restaurant task: the oracle and near-misses are its cell builder run on variants, after RESTAURANT_PY. */
export const defineRestaurantTask = variantTaskDefiner(restaurantDomain, RESTAURANT_PY);
