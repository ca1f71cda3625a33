import { fetchJson, type AppContext } from "./app.js";
import { h, link, replaceChildren } from "./dom.js";
import { formatCount, formatDuration, formatRate, formatTokens } from "./format.js";
import {
  applyState,
  countRows,
  LIST_COLUMNS,
  queryFromState,
  stateFromQuery,
  type ListColumn,
  type ListRow,
  type ListState,
  verdictClass,
} from "./list-model.js";

const PAGE_SIZE = 100;

/** Search results by text, kept while the page lives (a search reads the files: ask once per text). */
const searchCache = new Map<string, { keys: Set<string>; searched: number; unsearched: number }>();
/** Episodes ticked for comparison. */
const picked: string[] = [];

const FILTER_HINTS: Record<ListColumn["kind"], string> = {
  number: "e.g. >10, 3..8, !=0",
  text: "part, =exact, glob*, a,b",
  choice: "",
};

function cellText(row: ListRow, column: ListColumn): string {
  const value = row[column.id];
  if (column.unit === "tokens") return formatTokens(value as number | null);
  if (column.unit === "ms") return formatDuration(value as number | null);
  if (typeof value === "number") return formatCount(value);
  if (value === null || value === undefined || value === "") return "-";
  return String(value);
}

/** The episode list: a filter per column, sort by any column, free-text search, counts, pages, links. */
export function renderListPage(main: HTMLElement, query: URLSearchParams, app: AppContext): void {
  const state = stateFromQuery(query);
  const searchInput = h("input", {
    type: "search",
    id: "search",
    placeholder: "Search instructions, code and outputs",
    value: state.search,
  });
  const counts = h("div", { class: "counts", id: "counts" });
  const table = h("table", { class: "episodes", id: "episodes" });
  const pager = h("div", { class: "pager" });
  const compareButton = h(
    "button",
    { type: "button", id: "compare-picked", disabled: true },
    "Compare 2 picked",
  );
  const searchNote = h("span", { class: "note", id: "search-note" });

  const update = (options: { resetPage?: boolean } = {}): void => {
    if (options.resetPage) state.page = 1;
    app.replaceQuery(queryFromState(state));
    void draw();
  };

  const draw = async (): Promise<void> => {
    let hits: Set<string> | null = null;
    if (state.search) {
      let result = searchCache.get(state.search);
      if (!result) {
        searchNote.textContent = "searching...";
        const answer = await fetchJson<{ keys: string[]; searched: number; unsearched: number }>(
          `/api/search?q=${encodeURIComponent(state.search)}`,
        );
        result = { keys: new Set(answer.keys), searched: answer.searched, unsearched: answer.unsearched };
        searchCache.set(state.search, result);
      }
      hits = result.keys;
      searchNote.textContent = `"${state.search}": found in ${formatCount(result.keys.size)} episodes${result.unsearched > 0 ? ` (${formatCount(result.unsearched)} not searched: the deadline passed)` : ""}`;
    } else searchNote.textContent = "";
    const { rows, invalid } = applyState(app.rows, state, hits);
    app.setListResult(
      rows.map((row) => row.key),
      `/${queryFromState(state).toString() ? `?${queryFromState(state).toString()}` : ""}`,
    );
    for (const input of table.querySelectorAll<HTMLInputElement>("input[data-column]"))
      input.classList.toggle("invalid", invalid.includes(input.dataset.column as keyof ListRow));
    drawCounts(counts, rows);
    const pages = Math.max(1, Math.ceil(rows.length / PAGE_SIZE));
    state.page = Math.min(state.page, pages);
    drawBody(table, rows.slice((state.page - 1) * PAGE_SIZE, state.page * PAGE_SIZE), compareButton, app);
    replaceChildren(
      pager,
      h(
        "button",
        { type: "button", disabled: state.page <= 1, onclick: () => ((state.page -= 1), update()) },
        "< previous",
      ),
      ` page ${state.page} of ${pages} `,
      h(
        "button",
        { type: "button", disabled: state.page >= pages, onclick: () => ((state.page += 1), update()) },
        "next >",
      ),
    );
  };

  const form = h(
    "form",
    {
      class: "search",
      onsubmit: (event) => {
        event.preventDefault();
        state.search = searchInput.value.trim();
        update({ resetPage: true });
      },
    },
    searchInput,
    h("button", { type: "submit" }, "Search"),
    h(
      "button",
      {
        type: "button",
        onclick: () => {
          searchInput.value = "";
          state.search = "";
          update({ resetPage: true });
        },
      },
      "Clear",
    ),
    searchNote,
  );
  compareButton.addEventListener("click", () => {
    if (picked.length === 2) app.navigate(`/compare?a=${picked[0]}&b=${picked[1]}`);
  });
  const sourceLabel = (value: string): string => app.sources[Number(value)]?.label ?? value;
  table.append(headRows(state, app.rows, update, sourceLabel));
  replaceChildren(
    main,
    h(
      "section",
      { class: "toolbar" },
      form,
      ...app.sources
        .filter((source) => source.hasReport)
        .map((source) =>
          h(
            "a",
            { href: `/report/${source.id}`, class: "badge link", title: `report.html of ${source.input}` },
            `report: ${source.label}`,
          ),
        ),
      compareButton,
    ),
    counts,
    h("div", { class: "table-wrap" }, table),
    pager,
  );
  void draw();
}

function headRows(
  state: ListState,
  rows: readonly ListRow[],
  update: (options?: { resetPage?: boolean }) => void,
  sourceLabel: (value: string) => string,
): HTMLElement {
  const labels = h("tr", {}, h("th", { class: "pick" }, ""));
  const filters = h("tr", { class: "filters" }, h("th", { class: "pick" }, ""));
  for (const column of LIST_COLUMNS) {
    const sorted = state.sort === column.id ? " ▲" : state.sort === `-${column.id}` ? " ▼" : "";
    labels.append(
      h(
        "th",
        { class: column.kind === "number" ? "number" : undefined },
        h(
          "button",
          {
            type: "button",
            class: "sort",
            "data-sort": column.id,
            title: "Sort (again: the other way)",
            onclick: () => {
              state.sort =
                state.sort === `-${column.id}`
                  ? column.id
                  : state.sort === column.id
                    ? `-${column.id}`
                    : column.kind === "number"
                      ? `-${column.id}`
                      : column.id;
              update();
              for (const button of document.querySelectorAll<HTMLButtonElement>("button.sort")) {
                const id = button.dataset.sort!;
                const label = LIST_COLUMNS.find((candidate) => candidate.id === id)!.label;
                button.textContent = label + (state.sort === id ? " ▲" : state.sort === `-${id}` ? " ▼" : "");
              }
            },
          },
          column.label + sorted,
        ),
      ),
    );
    filters.append(h("th", {}, filterControl(column, state, rows, update, sourceLabel)));
  }
  return h("thead", {}, labels, filters);
}

function filterControl(
  column: ListColumn,
  state: ListState,
  rows: readonly ListRow[],
  update: (options?: { resetPage?: boolean }) => void,
  sourceLabel: (value: string) => string,
): HTMLElement {
  const current = state.filters[column.id] ?? "";
  if (column.kind === "choice") {
    const values = [...new Set(rows.map((row) => String(row[column.id] ?? "")))].sort((left, right) =>
      left.localeCompare(right, undefined, { numeric: true }),
    );
    const select = h(
      "select",
      {
        "data-column": column.id,
        "aria-label": `filter ${column.label}`,
        onchange: (event) => {
          // Option values are filters (`=value`, `=` for an empty one); "all" is none.
          const value = (event.target as HTMLSelectElement).value;
          if (value) state.filters[column.id] = value;
          else delete state.filters[column.id];
          update({ resetPage: true });
        },
      },
      h("option", { value: "" }, "all"),
    );
    const chosen = current === "" || current.startsWith("=") ? current : `=${current}`;
    const options = values.map((value) => `=${value}`);
    if (chosen && !options.some((option) => option.toLowerCase() === chosen.toLowerCase()))
      options.push(chosen);
    for (const option of options) {
      const value = option.slice(1);
      select.append(
        h(
          "option",
          { value: option, selected: option.toLowerCase() === chosen.toLowerCase() },
          column.id === "source" ? sourceLabel(value) : value || "(none)",
        ),
      );
    }
    return select;
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  return h("input", {
    type: "text",
    "data-column": column.id,
    "aria-label": `filter ${column.label}`,
    placeholder: FILTER_HINTS[column.kind],
    title: FILTER_HINTS[column.kind],
    value: current,
    oninput: (event) => {
      const value = (event.target as HTMLInputElement).value;
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (value.trim()) state.filters[column.id] = value;
        else delete state.filters[column.id];
        update({ resetPage: true });
      }, 200);
    },
  });
}

function drawCounts(counts: HTMLElement, rows: readonly ListRow[]): void {
  const tally = countRows(rows);
  const parts = tally.byHarness
    .filter((entry) => entry.scored > 0)
    .map((entry) =>
      h(
        "span",
        { class: "harness-rate" },
        `${entry.harness || "?"} ${formatRate(entry.passed, entry.scored)} (${formatCount(entry.passed)}/${formatCount(entry.scored)})`,
      ),
    );
  replaceChildren(
    counts,
    h("strong", {}, `${formatCount(tally.episodes)} episodes`),
    tally.scored > 0
      ? ` · pass rate ${formatRate(tally.passed, tally.scored)} (${formatCount(tally.passed)} of ${formatCount(tally.scored)} with a verdict)`
      : " · no verdicts",
    parts.length > 1 ? h("span", { class: "by-harness" }, " · by harness: ", ...parts) : null,
  );
}

function drawBody(
  table: HTMLTableElement,
  rows: readonly ListRow[],
  compareButton: HTMLButtonElement,
  app: AppContext,
): void {
  const body = h("tbody");
  for (const row of rows) {
    const box = h("input", {
      type: "checkbox",
      "aria-label": "pick for comparison",
      checked: picked.includes(row.key),
      onchange: (event) => {
        const checked = (event.target as HTMLInputElement).checked;
        const at = picked.indexOf(row.key);
        if (checked && at < 0) picked.push(row.key);
        if (!checked && at >= 0) picked.splice(at, 1);
        while (picked.length > 2) picked.shift();
        for (const other of table.querySelectorAll<HTMLInputElement>("tbody input[type=checkbox]"))
          other.checked = picked.includes(other.dataset.key ?? "");
        compareButton.disabled = picked.length !== 2;
      },
    });
    box.dataset.key = row.key;
    const tr = h(
      "tr",
      { class: row.verdict === "fail" ? "failed" : row.verdict === "model error" ? "errored" : undefined },
      h("td", { class: "pick" }, box),
    );
    for (const column of LIST_COLUMNS) {
      const text = cellText(row, column);
      const cell =
        column.id === "task"
          ? h(
              "td",
              {},
              link(
                `/episode?key=${row.key}`,
                { class: "episode-link", title: row.episodeId },
                text || "(no task)",
              ),
            )
          : column.id === "verdict"
            ? h("td", {}, h("span", { class: `verdict ${verdictClass(row.verdict)}` }, text))
            : column.id === "source"
              ? h(
                  "td",
                  { title: app.sources[row.source]?.input ?? "" },
                  app.sources[row.source]?.label ?? text,
                )
              : h("td", { class: column.kind === "number" ? "number" : undefined }, text);
      tr.append(cell);
    }
    body.append(tr);
  }
  compareButton.disabled = picked.length !== 2;
  table.tBodies[0]?.remove();
  table.append(body);
}
