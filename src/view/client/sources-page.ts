import type { AppContext } from "./app.js";
import { h, replaceChildren } from "./dom.js";
import { formatBytes, formatCount } from "./format.js";

/** What each input holds and what of it could not be read, with the reasons and the first line numbers. */
export function renderSourcesPage(main: HTMLElement, app: AppContext): void {
  replaceChildren(
    main,
    h("h1", {}, "Sources"),
    ...app.sources.map((source) =>
      h(
        "section",
        { class: `source state-${source.state}` },
        h(
          "h2",
          {},
          source.label,
          h("span", { class: `badge ${source.state === "error" ? "fail" : ""}` }, source.state),
        ),
        h(
          "p",
          { class: "note" },
          `${source.input} · ${source.kind}${source.sizeBytes ? ` · ${formatBytes(source.sizeBytes)}` : ""}${source.state === "indexing" && source.sizeBytes ? ` · read ${Math.floor((source.indexedBytes / source.sizeBytes) * 100)}%` : ""}${source.fromCache ? " · index from the cache" : ""}`,
        ),
        source.error ? h("p", { class: "error" }, source.error) : null,
        h(
          "p",
          {},
          `${formatCount(source.episodes)} episodes read. `,
          source.hasReport
            ? h("a", { href: `/report/${source.id}` }, "report.html (rows link to the list)")
            : null,
        ),
        source.pendingTail
          ? h(
              "p",
              { class: "warning" },
              `Line ${source.pendingTail.line} has no newline (${formatBytes(source.pendingTail.bytes)}): cut short, or still being written; it is read once complete.`,
            )
          : null,
        source.skipped.length > 0
          ? h(
              "div",
              {},
              h(
                "h3",
                {},
                `Skipped (${formatCount(source.skipped.reduce((sum, entry) => sum + entry.count, 0))} lines)`,
              ),
              h(
                "ul",
                {},
                ...source.skipped.map((entry) =>
                  h(
                    "li",
                    {},
                    `${formatCount(entry.count)} × ${entry.reason} (line${entry.lines.length === 1 ? "" : "s"} ${entry.lines.join(", ")}${entry.count > entry.lines.length ? ", ..." : ""})`,
                  ),
                ),
              ),
            )
          : null,
        source.warnings.length > 0
          ? h(
              "div",
              {},
              h("h3", {}, "Read on a best-effort basis"),
              h(
                "ul",
                {},
                ...source.warnings.map((entry) =>
                  h(
                    "li",
                    {},
                    `${formatCount(entry.count)} × ${entry.reason} (line${entry.lines.length === 1 ? "" : "s"} ${entry.lines.join(", ")}${entry.count > entry.lines.length ? ", ..." : ""})`,
                  ),
                ),
              ),
            )
          : null,
      ),
    ),
  );
}
