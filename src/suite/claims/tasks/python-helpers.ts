import { PYTHON_WORKSPACE_HELPERS } from "../../../envs/index.js";

/** The first cell of every claims oracle and near-miss: imports, the shared pagers and a date helper. */
export const PYTHON_SETUP = String.raw`
import json, re
from datetime import date
${PYTHON_WORKSPACE_HELPERS}
def days(a, b):
    return (date.fromisoformat(b) - date.fromisoformat(a)).days

def table_rows(text, heading):
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("#") and heading in line)
    rows = []
    for line in lines[start + 1:]:
        if line.startswith("#"):
            break
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip()[1:-1].split("|")])
        elif rows:
            break
    return [row for row in rows[1:] if not all(set(cell) <= set("-:") for cell in row)]
print("ready")
`;
