/**
 * Rendered HTML for domains whose tools are web pages returned as a server renders them (the Playwright
 * shape: the marketplace back office): a tiny element builder with escaping, data tables and definition
 * lists, and the Python that reads such pages back with the standard library's html.parser.
 */
type HtmlAttributes = Record<string, string | number | undefined | false>;

export function escapeHtml(value: unknown): string {
  return String(value)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

/** An element; attributes that are `undefined` or `false` are left out; children are HTML already. */
export function htmlElement(tag: string, attributes: HtmlAttributes, ...children: string[]): string {
  const attrs = Object.entries(attributes)
    .filter(([, value]) => value !== undefined && value !== false)
    .map(([key, value]) => ` ${key}="${escapeHtml(value)}"`)
    .join("");
  return `<${tag}${attrs}>${children.join("")}</${tag}>`;
}

export const htmlLink = (href: string, text: unknown, attributes: HtmlAttributes = {}): string =>
  htmlElement("a", { href, ...attributes }, escapeHtml(text));

/** A data table with an id and a caption: a header row, then one row per record (cells are HTML). */
export function htmlTable(id: string, caption: string, headers: string[], rows: string[][]): string {
  const el = htmlElement;
  const head = el(
    "thead",
    {},
    el("tr", {}, ...headers.map((title) => el("th", { scope: "col" }, escapeHtml(title)))),
  );
  const body = el(
    "tbody",
    {},
    ...rows.map((cells) => el("tr", {}, ...cells.map((cell) => el("td", {}, cell)))),
  );
  const table = el("table", { id, class: "grid" }, el("caption", {}, escapeHtml(caption)), head, body);
  return rows.length === 0 ? table + el("p", { class: "empty" }, "No records.") : table;
}

/** Label/value pairs as a definition list (values are HTML). */
export function htmlFields(pairs: Array<[string, string]>): string {
  const items = pairs.map(
    ([label, value]) => htmlElement("dt", {}, escapeHtml(label)) + htmlElement("dd", {}, value),
  );
  return htmlElement("dl", { class: "record" }, ...items);
}

/**
 * Python that reads a rendered page (oracles interpolate it after their imports): `Doc(html)` skips
 * script and style and gives `title`, `tables` by id (`doc.rows(id)`: dicts by column header, each with
 * `_links`, the hrefs in the row), `fields` (definition-list term to text), `links` (`text`, `href`, `rel`;
 * `doc.next_url()` follows `rel="next"`), `forms` (action to its inputs' values, hidden ones included),
 * `articles` (`class`, `datetime` of its time element, `text` of its paragraph) and `alerts` (texts of
 * elements with `role="alert"`). Texts are whitespace-collapsed.
 */
export const PYTHON_HTML_HELPERS = String.raw`from html.parser import HTMLParser

class Doc(HTMLParser):
    def __init__(self, html):
        super().__init__(convert_charrefs=True)
        self.title, self.tables, self.fields, self.links, self.forms = "", {}, {}, [], {}
        self.articles, self.alerts = [], []
        self._skip, self._buf, self._table, self._row, self._link = 0, {}, None, None, None
        self._form, self._article, self._dt, self._href = None, None, None, []
        self.feed(html)
        self.close()

    def _end(self, name):
        return " ".join("".join(self._buf.pop(name, [])).split())

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("script", "style"):
            self._skip += 1
        elif tag in ("title", "dt", "dd", "th", "td", "a", "p"):
            self._buf[tag] = []
            if tag == "td":
                self._href = []
            if tag == "a":
                self._link = (a.get("href"), a.get("rel"))
                if self._row is not None:
                    self._href.append(a.get("href"))
        elif tag == "table":
            self._table = a.get("id", "")
            self.tables[self._table] = {"headers": [], "rows": []}
        elif tag == "tr" and self._table is not None:
            self._row = []
        elif tag == "form":
            self._form = a.get("action")
            self.forms[self._form] = {}
        elif tag == "input" and self._form is not None and a.get("name"):
            self.forms[self._form][a["name"]] = a.get("value", "")
        elif tag == "article":
            self._article = {"class": a.get("class") or "", "datetime": None, "text": ""}
        elif tag == "time" and self._article is not None:
            self._article["datetime"] = a.get("datetime")
        elif a.get("role") == "alert":
            self._buf["alert"] = []
            self._alert_tag = tag

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._skip -= 1
        elif tag == "title":
            self.title = self._end("title")
        elif tag == "th" and self._table is not None:
            self.tables[self._table]["headers"].append(self._end("th"))
        elif tag == "td" and self._row is not None:
            self._row.append((self._end("td"), self._href))
        elif tag == "tr" and self._row is not None:
            if self._row:
                t = self.tables[self._table]
                row = dict(zip(t["headers"], [text for text, _ in self._row]))
                row["_links"] = [h for _, hrefs in self._row for h in hrefs]
                t["rows"].append(row)
            self._row = None
        elif tag == "table":
            self._table = None
        elif tag == "a" and self._link:
            self.links.append({"text": self._end("a"), "href": self._link[0], "rel": self._link[1]})
            self._link = None
        elif tag == "dt":
            self._dt = self._end("dt")
        elif tag == "dd":
            self.fields[self._dt] = self._end("dd")
        elif tag == "form":
            self._form = None
        elif tag == "p":
            text = self._end("p")
            if self._article is not None:
                self._article["text"] = text
        elif tag == "article" and self._article is not None:
            self.articles.append(self._article)
            self._article = None
        elif "alert" in self._buf and tag == self._alert_tag:
            self.alerts.append(self._end("alert"))

    def handle_data(self, data):
        if not self._skip:
            for buf in self._buf.values():
                buf.append(data)

    def rows(self, table_id):
        return self.tables.get(table_id, {"rows": []})["rows"]

    def next_url(self):
        return next((l["href"] for l in self.links if l["rel"] == "next"), None)
`;
