import { PYTHON_WORKSPACE_HELPERS } from "../../../envs/index.js";
/** Python helpers the oracle and near-miss programs start with (paginate until `has_more` is false). */
export const FETCH_ALL_PY = `import csv, io, json, re
from datetime import date, timedelta

${PYTHON_WORKSPACE_HELPERS}
def workspace_files(folder):
    paths, page = [], 1
    while True:
        result = tools.list_files(path=folder, page=page, per_page=100)
        paths.extend(item["path"] for item in result["files"])
        if not result["has_more"]:
            return sorted(paths)
        page += 1


def days_between(earlier, later):
    return (date.fromisoformat(later[:10]) - date.fromisoformat(earlier[:10])).days
`;

/** Renders a Python dict literal, so near-miss variants can be built from the oracle template. */
export function pythonDict(entries: Record<string, number>): string {
  return `{${Object.entries(entries)
    .map(([key, value]) => `${JSON.stringify(key)}: ${value}`)
    .join(", ")}}`;
}
