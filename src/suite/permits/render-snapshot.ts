/**
 * An accessibility snapshot as a browser automation tool prints it: one `- role "name" [attributes]` line
 * per node, children indented two spaces, links with `-> url`. Interactive nodes get `[ref=eN]` numbers in
 * document order. Generic (nothing about permits here): it belongs in the domain kit.
 */
export interface SnapshotNode {
  role: string;
  name?: string;
  /** Text after the colon, for leaf nodes like `- text: ...`. */
  text?: string;
  attributes?: Record<string, string | number>;
  href?: string;
  children?: SnapshotNode[];
}

const INTERACTIVE = new Set(["link", "button", "textbox", "combobox", "checkbox"]);

/** The node tree as snapshot text. */
export function renderSnapshot(nodes: readonly SnapshotNode[]): string {
  const lines: string[] = [];
  let ref = 0;
  const walk = (node: SnapshotNode, depth: number): void => {
    const parts = [`${"  ".repeat(depth)}- ${node.role}`];
    if (node.name !== undefined) parts.push(JSON.stringify(node.name));
    const attributes = { ...node.attributes };
    if (INTERACTIVE.has(node.role)) attributes.ref = `e${(ref += 1)}`;
    for (const [key, value] of Object.entries(attributes)) parts.push(`[${key}=${value}]`);
    if (node.href !== undefined) parts.push(`-> ${node.href}`);
    let line = parts.join(" ");
    if (node.children && node.children.length > 0) line += ":";
    else if (node.text !== undefined) line += `: ${JSON.stringify(node.text)}`;
    lines.push(line);
    for (const child of node.children ?? []) walk(child, depth + 1);
  };
  for (const node of nodes) walk(node, 0);
  return lines.join("\n");
}

/** A table: a header row of column headers, then one row per record; a cell may hold a link. */
export function snapshotTable(
  name: string,
  headers: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<string | SnapshotNode>>,
): SnapshotNode {
  const header: SnapshotNode = {
    role: "row",
    children: headers.map((text) => ({ role: "columnheader", name: text })),
  };
  const body = rows.map(
    (cells): SnapshotNode => ({
      role: "row",
      children: cells.map((cell) =>
        typeof cell === "string" ? { role: "cell", name: cell } : { role: "cell", children: [cell] },
      ),
    }),
  );
  return { role: "table", name, children: [header, ...body] };
}

/** A definition list as term/definition pairs. */
export function snapshotFields(fields: ReadonlyArray<readonly [string, string | SnapshotNode]>): SnapshotNode {
  return {
    role: "list",
    name: "Details",
    children: fields.flatMap(([term, value]) => [
      { role: "term", text: term },
      typeof value === "string" ? { role: "definition", text: value } : { role: "definition", children: [value] },
    ]),
  };
}

export function link(name: string, href: string): SnapshotNode {
  return { role: "link", name, href };
}

export function text(value: string): SnapshotNode {
  return { role: "text", text: value };
}
