/**
 * Building the page. Every string from a trajectory is model or tool output: it goes into the page as a text
 * node or an attribute value set through the DOM, never as markup (this module has no innerHTML), so a
 * `<script>` or an `onerror=` in a tool's output is shown, not run.
 */

export type Child = Node | string | number | null | undefined | false;
export type Attributes = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

const SVG_NAMESPACE = "http://www.w3.org/2000/svg";

function apply(element: Element, attributes: Attributes): void {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === "function") {
      element.addEventListener(name.replace(/^on/, ""), value);
      continue;
    }
    // Only names the page's own code writes; never a name taken from data.
    element.setAttribute(name, value === true ? "" : String(value));
  }
}

function append(element: Element, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === "object" ? child : document.createTextNode(String(child)));
  }
}

/** An HTML element with attributes and children (strings become text nodes). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  apply(element, attributes);
  append(element, children);
  return element;
}

/** An SVG element (charts). */
export function svg(tag: string, attributes: Attributes = {}, ...children: Child[]): SVGElement {
  const element = document.createElementNS(SVG_NAMESPACE, tag);
  apply(element, attributes);
  append(element, children);
  return element;
}

/** Replaces an element's children. */
export function replaceChildren(element: Element, ...children: Child[]): void {
  element.replaceChildren();
  append(element, children);
}

/** A link inside the page: the router takes the click, the address stays shareable. */
export function link(href: string, attributes: Attributes, ...children: Child[]): HTMLAnchorElement {
  return h("a", { ...attributes, href, "data-route": "" }, ...children);
}
