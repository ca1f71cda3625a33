import { variantTaskDefiner } from "../../../envs/index.js";
import { billingDomain } from "../domain.js";
import { pythonFileLister, PYTHON_WORKSPACE_HELPERS, pythonPager } from "../../../envs/index.js";

/** The first cell of every billing oracle and near-miss: imports, paging helpers, a retrying pager. */
export const BILLING_PY = String.raw`
import csv, io, json, re
from datetime import date, timedelta
${PYTHON_WORKSPACE_HELPERS}

def call_retrying(tool, attempts=4, **args):
    for attempt in range(attempts):
        try:
            return tools[tool](**args)
        except ToolError:
            if attempt == attempts - 1:
                raise

${pythonPager({ name: "fetch_all_retrying", via: "call_retrying", toolParam: "tool" })}

${pythonFileLister({ folderParam: 'under="."' })}

def days_between(a, b):
    return (date.fromisoformat(b) - date.fromisoformat(a)).days

TODAY = "2025-06-30"
print("ready")
`;

/** A billing task whose oracle and near-misses are its cell builder run on variants, after BILLING_PY. */
export const defineBillingTask = variantTaskDefiner(billingDomain, BILLING_PY);
