import { pythonFileLister, PYTHON_MARKDOWN_HELPERS, PYTHON_WORKSPACE_HELPERS } from "../../../envs/index.js";
/**
 * Python shared by the oracle and near-miss programs: what a competent agent writes first (a pagination
 * loop, a markdown-table reader and a folder listing) before touching the task itself.
 */
export const PYTHON_HELPERS = String.raw`
import json, math, re
from datetime import date, timedelta

${PYTHON_WORKSPACE_HELPERS}
${PYTHON_MARKDOWN_HELPERS}
${pythonFileLister({ name: "folder_paths", folderParam: "folder" })}

print("helpers ready")
`;
