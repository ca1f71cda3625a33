/** How `pythonPager` names its function and what it requests each page through. */
export interface PythonPagerOptions {
  /** The Python function defined (default `fetch`). */
  name?: string;
  /** The Python function each page is requested through, e.g. a domain's retrying `call` (default `call`). */
  via?: string;
  /** The parameter that takes the tool's name (default `name`). */
  toolParam?: string;
  /** A Python condition that also ends paging after a page, e.g. `"first-page" in NEAR` for a near-miss. */
  stopWhen?: string;
}

/**
 * Python for an oracle's first cell: `fetch(name, key, **filters)` pages through a listing (`page`,
 * `per_page=50`, `has_more`) by calling the domain's own retrying function, and returns every item under `key`.
 * It is the pager of `pythonClientHelpers` for domains that keep their own `call`. The text has no trailing
 * newline, so it takes the place of the function's lines in a template.
 */
export function pythonPager(options: PythonPagerOptions = {}): string {
  const { name = "fetch", via = "call", toolParam = "name", stopWhen } = options;
  const stop = stopWhen === undefined ? "" : ` or ${stopWhen}`;
  return `def ${name}(${toolParam}, key, **filters):
    items, page = [], 1
    while True:
        result = ${via}(${toolParam}, page=page, per_page=50, **filters)
        items.extend(result[key])
        if not result["has_more"]${stop}:
            return items
        page += 1`;
}

/** How `pythonFileLister` names its function and the parameter that picks a folder. */
export interface PythonFileListerOptions {
  /** The Python function defined (default `workspace_files`). */
  name?: string;
  /** The folder parameter as written in the signature, e.g. `folder` or `under="."`; none lists the whole workspace. */
  folderParam?: string;
}

/**
 * Python for an oracle's first cell: a function that pages through `list_files` (of one folder, or of the
 * whole workspace) and returns every path. No trailing newline, as with {@link pythonPager}.
 */
export function pythonFileLister(options: PythonFileListerOptions = {}): string {
  const { name = "workspace_files", folderParam } = options;
  const folder = folderParam?.split("=")[0]?.trim();
  const args = folder === undefined ? "page=page" : `path=${folder}, page=page`;
  return `def ${name}(${folderParam ?? ""}):
    paths, page = [], 1
    while True:
        listing = tools.list_files(${args})
        paths += [item["path"] for item in listing["files"]]
        if not listing["has_more"]:
            return paths
        page += 1`;
}

/** How `pythonRetryingCall` retries and when it gives up at once. */
export interface PythonRetryingCallOptions {
  /** Tries in all (default 5). */
  attempts?: number;
  /** A Python condition under which a 503 is raised at once, e.g. `"no-retry" in NEAR` for a near-miss. */
  giveUpWhen?: string;
}

/**
 * Python for an oracle's first cell: `call(name, **kwargs)` calls a tool and repeats it while the tool raises
 * a 503, then raises with the last error; any other error is raised at once. For domains whose tools fail
 * only by raising (`pythonClientHelpers` also retries error bodies). No trailing newline.
 */
export function pythonRetryingCall(options: PythonRetryingCallOptions = {}): string {
  const { attempts = 5, giveUpWhen } = options;
  const giveUp = giveUpWhen === undefined ? "" : ` or ${giveUpWhen}`;
  return `def call(name, **kwargs):
    last = None
    for attempt in range(${attempts}):
        try:
            return tools[name](**kwargs)
        except Exception as error:
            if "503" not in str(error)${giveUp}:
                raise
            last = error
    raise RuntimeError(f"{name} kept failing: {last}")`;
}
