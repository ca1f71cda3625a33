/**
 * An accessibility snapshot as a browser automation tool prints it: one `- role "name" [attributes]` line
 * per node, children indented two spaces, links with `-> url`, leaf text after a colon. Interactive nodes
 * get `[ref=eN]` numbers in document order. For domains whose tools are web pages (the permits portal).
 */
export interface SnapshotNode {
  role: string;
  name?: string;
  /** Text after the colon, for leaf nodes like `- text: "..."`. */
  text?: string;
  attributes?: Record<string, string | number>;
  href?: string;
  children?: SnapshotNode[];
}

const INTERACTIVE = new Set(["link", "button", "textbox", "combobox", "checkbox"]);

/** The node tree as snapshot text; names and texts are JSON strings, so quotes inside them stay readable. */
export function renderSnapshot(nodes: readonly SnapshotNode[]): string {
  const lines: string[] = [];
  let ref = 0;
  const walk = (item: SnapshotNode, depth: number): void => {
    const parts = [`${"  ".repeat(depth)}- ${item.role}`];
    if (item.name !== undefined) parts.push(JSON.stringify(item.name));
    const attributes = {
      ...item.attributes,
      ...(INTERACTIVE.has(item.role) ? { ref: `e${(ref += 1)}` } : {}),
    };
    for (const [key, value] of Object.entries(attributes)) parts.push(`[${key}=${value}]`);
    if (item.href !== undefined) parts.push(`-> ${item.href}`);
    const children = item.children ?? [];
    const tail = children.length > 0 ? ":" : item.text !== undefined ? `: ${JSON.stringify(item.text)}` : "";
    lines.push(parts.join(" ") + tail);
    for (const child of children) walk(child, depth + 1);
  };
  for (const item of nodes) walk(item, 0);
  return lines.join("\n");
}

export function snapshotNode(
  role: string,
  name?: string,
  children?: SnapshotNode[],
  attributes?: Record<string, string | number>,
): SnapshotNode {
  return {
    role,
    ...(name === undefined ? {} : { name }),
    ...(children ? { children } : {}),
    ...(attributes ? { attributes } : {}),
  };
}

export function snapshotLink(name: string, href: string): SnapshotNode {
  return { role: "link", name, href };
}

export function snapshotText(value: string): SnapshotNode {
  return { role: "text", text: value };
}

/** A table: a header row of column headers, then one row per record; a cell may hold a node (a link). */
export function snapshotTable(
  name: string,
  headers: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<string | SnapshotNode>>,
): SnapshotNode {
  const cell = (value: string | SnapshotNode): SnapshotNode =>
    typeof value === "string" ? snapshotNode("cell", value) : snapshotNode("cell", undefined, [value]);
  const header = snapshotNode(
    "row",
    undefined,
    headers.map((title) => snapshotNode("columnheader", title)),
  );
  return snapshotNode("table", name, [
    header,
    ...rows.map((cells) => snapshotNode("row", undefined, cells.map(cell))),
  ]);
}

/** A definition list as term/definition pairs. */
export function snapshotFields(
  fields: ReadonlyArray<readonly [string, string | SnapshotNode]>,
): SnapshotNode {
  const definition = (value: string | SnapshotNode): SnapshotNode =>
    typeof value === "string"
      ? { role: "definition", text: value }
      : snapshotNode("definition", undefined, [value]);
  return snapshotNode(
    "list",
    "Details",
    fields.flatMap(([term, value]) => [{ role: "term", text: term }, definition(value)]),
  );
}

/**
 * Python that reads snapshots back (oracles of page-based domains interpolate it after their imports):
 * `nodes(snap)` parses the lines into `{depth, role, name, href, text}`, `table(snap, name)` gives a named
 * table's rows as dicts by column header (a cell holding a link gives the link's text), `fields(snap)` the
 * term/definition pairs, `texts(snap, role="text")` the texts of one role.
 */
export const PYTHON_SNAPSHOT_HELPERS = String.raw`import json, re
LINE = re.compile(r'^(\s*)- (\w+)(?: ("(?:[^"\\]|\\.)*"))?((?: \[[^\]]*\])*)(?: -> (\S+))?(?:: ("(?:[^"\\]|\\.)*"))?:?$')

def nodes(snap):
    out = []
    for line in snap.splitlines():
        m = LINE.match(line)
        if m:
            out.append({"depth": len(m.group(1)) // 2, "role": m.group(2),
                        "name": json.loads(m.group(3)) if m.group(3) else None,
                        "href": m.group(5), "text": json.loads(m.group(6)) if m.group(6) else None})
    return out

def _label(items, i):
    node = items[i]
    if node["name"] is not None or node["text"] is not None:
        return node["name"] if node["name"] is not None else node["text"]
    for child in items[i + 1:]:
        if child["depth"] <= node["depth"]:
            break
        if child["name"] is not None or child["text"] is not None:
            return child["name"] if child["name"] is not None else child["text"]
    return ""

def table(snap, name):
    items = nodes(snap)
    start = next((i for i, n in enumerate(items) if n["role"] == "table" and n["name"] == name), None)
    if start is None:
        return []
    depth, headers, rows = items[start]["depth"], [], []
    for i in range(start + 1, len(items)):
        n = items[i]
        if n["depth"] <= depth:
            break
        if n["role"] == "row" and n["depth"] == depth + 1:
            rows.append([])
        elif n["role"] == "columnheader":
            headers.append(n["name"])
        elif n["role"] == "cell" and n["depth"] == depth + 2:
            rows[-1].append(_label(items, i))
    return [dict(zip(headers, row)) for row in rows if row]

def fields(snap):
    items, out = nodes(snap), {}
    for i, n in enumerate(items):
        if n["role"] == "term" and i + 1 < len(items) and items[i + 1]["role"] == "definition":
            out[n["text"]] = _label(items, i + 1)
    return out

def texts(snap, role="text"):
    return [n["text"] for n in nodes(snap) if n["role"] == role and n["text"] is not None]
`;
