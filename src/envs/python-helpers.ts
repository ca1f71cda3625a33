/**
 * Python that oracle and near-miss programs start with, written against the envs contracts every domain
 * shares: list tools paginate with `page`/`per_page`/`has_more`, and `read_file` pages with `next_offset`.
 * Interpolate it into a cell after the imports; it defines `fetch_all(tool, key, **filters)` and
 * `read_text(path)`.
 */
export const PYTHON_WORKSPACE_HELPERS = `
def fetch_all(tool, key, **filters):
    items, page = [], 1
    while True:
        result = tools[tool](page=page, per_page=50, **filters)
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
`;

/** How an oracle's `call` treats the failures a domain's tools are built to produce. */
export interface PythonClientOptions {
  /** Attempts before `call` gives up (default 5). */
  attempts?: number;
  /** Substrings of a raised tool error that mean "try again" (default `["503"]`). */
  retryOn?: readonly string[];
  /** `status` values of an ordinary result that mean "that failed, try again" (default `["error"]`). */
  errorStatuses?: readonly string[];
}

const pythonString = (value: string): string => JSON.stringify(value);

/**
 * Python for an oracle's first cell, after `PYTHON_WORKSPACE_HELPERS`: `call(name, **kwargs)` retries what
 * careful clients retry (a transient error raised as a tool error, an error body returned as an ordinary
 * result) and raises with the last failure when the attempts run out; `fetch(name, key, **filters)` pages
 * through a listing with it; `workspace_files(folder)` lists the shared drive's files below a folder.
 */
export function pythonClientHelpers(options: PythonClientOptions = {}): string {
  const { attempts = 5, retryOn = ["503"], errorStatuses = ["error"] } = options;
  const transient = retryOn.map((text) => `${pythonString(text)} not in str(error)`).join(" and ");
  const failed =
    errorStatuses.length === 1
      ? `result.get("status") == ${pythonString(errorStatuses[0]!)}`
      : `result.get("status") in (${errorStatuses.map(pythonString).join(", ")})`;
  return `def call(name, **kwargs):
    last = None
    for attempt in range(${attempts}):
        try:
            result = tools[name](**kwargs)
        except Exception as error:
            if ${transient}:
                raise
            last = error
            continue
        if isinstance(result, dict) and ${failed}:
            last = result.get("error")
            continue
        return result
    raise RuntimeError(f"{name} kept failing: {last}")

def fetch(name, key, **filters):
    items, page = [], 1
    while True:
        result = call(name, page=page, per_page=50, **filters)
        items.extend(result[key])
        if not result["has_more"]:
            return items
        page += 1

def workspace_files(folder):
    paths, page = [], 1
    while True:
        result = tools.list_files(path=folder, page=page, per_page=100)
        paths.extend(item["path"] for item in result["files"])
        if not result["has_more"]:
            return sorted(paths)
        page += 1
`;
}
