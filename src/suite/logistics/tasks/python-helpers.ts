/**
 * Python shared by the oracle and near-miss programs: what a competent agent writes first (a pagination
 * loop and a markdown-table reader) before touching the task itself.
 */
export const PYTHON_HELPERS = String.raw`
import json, math, re
from datetime import date, timedelta

def fetch_all(tool_name, key, **filters):
    items, page = [], 1
    while True:
        result = tools[tool_name](page=page, per_page=50, **filters)
        items.extend(result[key])
        if not result["has_more"]:
            return items
        page += 1

def read_text(path):
    parts, offset = [], 0
    while offset is not None:
        result = tools.read_file(path=path, offset=offset)
        parts.append(result["content"])
        offset = result["next_offset"]
    return "".join(parts)

def table_rows(markdown, heading):
    lines = markdown.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("#") and heading in line)
    rows = []
    for line in lines[start + 1:]:
        if line.startswith("#"):
            break
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
        elif rows:
            break
    return [row for row in rows[1:] if not all(set(cell) <= set("-") for cell in row)]

print("helpers ready")
`;
