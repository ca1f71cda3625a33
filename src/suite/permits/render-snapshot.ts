/**
 * An accessibility snapshot as a browser automation tool prints it: one `- role "name" [attributes]` line
 * per node, children indented two spaces, links with `-> url`, leaf text after a colon. Interactive nodes
 * get `[ref=eN]` numbers in document order. Generic (nothing about permits here): it belongs in the kit.
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

export function node(
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

export function link(name: string, href: string): SnapshotNode {
  return { role: "link", name, href };
}

export function text(value: string): SnapshotNode {
  return { role: "text", text: value };
}

/** A table: a header row of column headers, then one row per record; a cell may hold a node (a link). */
export function snapshotTable(
  name: string,
  headers: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<string | SnapshotNode>>,
): SnapshotNode {
  const cell = (value: string | SnapshotNode): SnapshotNode =>
    typeof value === "string" ? node("cell", value) : node("cell", undefined, [value]);
  const header = node(
    "row",
    undefined,
    headers.map((title) => node("columnheader", title)),
  );
  return node("table", name, [header, ...rows.map((cells) => node("row", undefined, cells.map(cell)))]);
}

/** A definition list as term/definition pairs. */
export function snapshotFields(
  fields: ReadonlyArray<readonly [string, string | SnapshotNode]>,
): SnapshotNode {
  const definition = (value: string | SnapshotNode): SnapshotNode =>
    typeof value === "string" ? { role: "definition", text: value } : node("definition", undefined, [value]);
  return node(
    "list",
    "Details",
    fields.flatMap(([term, value]) => [{ role: "term", text: term }, definition(value)]),
  );
}
