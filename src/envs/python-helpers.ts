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
