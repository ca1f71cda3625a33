import { PYTHON_WORKSPACE_HELPERS } from "../../../envs/index.js";
/**
 * Python shared by the oracle and near-miss programs: what a competent agent writes first (a pagination
 * loop and a markdown-table reader) before touching the task itself.
 */
export const PYTHON_HELPERS = String.raw`
import json, math, re
from datetime import date, timedelta

${PYTHON_WORKSPACE_HELPERS}

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
