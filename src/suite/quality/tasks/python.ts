import { PYTHON_WORKSPACE_HELPERS, pythonPager } from "../../../envs/index.js";

/**
 * The first cell of every quality oracle and near-miss: the shared pagers plus `call`, which retries a tool
 * that fails transiently (ToolError) or silently (a `{"status": "error"}` body), as careful code must.
 */
export const PY_PRELUDE = String.raw`
import csv, io, json, re
from datetime import date, timedelta
${PYTHON_WORKSPACE_HELPERS}
def call(name, **args):
    last = None
    for attempt in range(4):
        try:
            result = tools[name](**args)
        except ToolError as error:
            last = error
            continue
        if isinstance(result, dict) and result.get("status") == "error":
            last = result
            continue
        return result
    raise RuntimeError("%s kept failing: %s" % (name, last))

${pythonPager({ name: "all_pages" })}

def day(text):
    return date.fromisoformat(text[:10])

print("ready")
`;
