import type { SourceStatus } from "../episode-store.js";
import { renderComparePage } from "./compare-page.js";
import { h, link, replaceChildren } from "./dom.js";
import { renderEpisodePage } from "./episode-page.js";
import { formatCount } from "./format.js";
import { renderListPage } from "./list-page.js";
import { rowsFromColumns, type ListRow } from "./list-model.js";
import { renderRlPage } from "./rl-page.js";
import { renderSourcesPage } from "./sources-page.js";

/** What every page reads: the list rows, the sources' status, and how to move to another address. */
export interface AppContext {
  rows: readonly ListRow[];
  sources: readonly SourceStatus[];
  /** Keys of the list as last filtered, for previous/next on an episode page. */
  lastListKeys: readonly string[];
  lastListUrl: string;
  navigate(url: string, options?: { replace?: boolean }): void;
  /** Keeps the address in step with the page's state, without a new history entry or a re-render. */
  replaceQuery(query: URLSearchParams): void;
  setListResult(keys: readonly string[], url: string): void;
}

interface AppState {
  rows: ListRow[];
  generation: number;
  sources: SourceStatus[];
  episodeCount: number;
  lastListKeys: string[];
  lastListUrl: string;
}

const state: AppState = {
  rows: [],
  generation: -1,
  sources: [],
  episodeCount: 0,
  lastListKeys: [],
  lastListUrl: "/",
};

/** A page is drawn again when the list grows only if it shows the list (an episode being read stays put). */
const LIVE_PAGES = new Set(["/", "/rl", "/sources"]);

export async function fetchJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { headers: { accept: "application/json" } });
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { error?: string };
    throw new Error(body.error ?? `${url}: HTTP ${response.status}`);
  }
  return (await response.json()) as T;
}

interface StatusAnswer {
  episodes: number;
  generation: number;
  sources: SourceStatus[];
}

interface EpisodesAnswer {
  generation: number;
  from: number;
  count: number;
  columns: Record<string, unknown[]>;
}

/** Reads the status and, when the list changed, the new rows (all of them when it changed other than at its end). */
async function refreshData(): Promise<boolean> {
  // The first time, the list is asked for with the status, not after it.
  const first = state.generation < 0 ? fetchJson<EpisodesAnswer>("/api/episodes?from=0") : undefined;
  first?.catch(() => undefined);
  const status = await fetchJson<StatusAnswer>("/api/status");
  state.sources = status.sources;
  const reload = status.generation !== state.generation;
  if (!reload && status.episodes === state.rows.length) return false;
  const from = reload ? 0 : state.rows.length;
  const answer = await (first ?? fetchJson<EpisodesAnswer>(`/api/episodes?from=${from}`));
  const rows = rowsFromColumns(answer.columns, answer.count);
  state.rows = reload || answer.generation !== state.generation ? rows : [...state.rows, ...rows];
  state.generation = answer.generation;
  state.episodeCount = state.rows.length;
  return true;
}

function context(): AppContext {
  return {
    rows: state.rows,
    sources: state.sources,
    lastListKeys: state.lastListKeys,
    lastListUrl: state.lastListUrl,
    navigate,
    replaceQuery(query) {
      const search = query.toString();
      history.replaceState(null, "", `${location.pathname}${search ? `?${search}` : ""}`);
      if (location.pathname === "/") state.lastListUrl = `/${search ? `?${search}` : ""}`;
    },
    setListResult(keys, url) {
      state.lastListKeys = [...keys];
      state.lastListUrl = url;
    },
  };
}

function renderHeader(): void {
  const header = document.getElementById("header")!;
  const indexing = state.sources.filter(
    (source) => source.state === "indexing" || source.state === "waiting",
  );
  const skipped = state.sources.reduce(
    (total, source) => total + source.skipped.reduce((sum, entry) => sum + entry.count, 0),
    0,
  );
  const failed = state.sources.filter((source) => source.state === "error").length;
  const cutShort = state.sources.filter((source) => source.pendingTail !== null).length;
  const problems = [
    failed > 0 ? `${failed} unreadable` : "",
    skipped > 0 ? `${formatCount(skipped)} line${skipped === 1 ? "" : "s"} skipped` : "",
    cutShort > 0 ? `${cutShort} cut short` : "",
  ].filter(Boolean);
  const path = location.pathname;
  const nav = (href: string, label: string): HTMLAnchorElement =>
    link(href, { class: path === href ? "current" : undefined }, label);
  replaceChildren(
    header,
    h("span", { class: "brand" }, "progagent view"),
    h(
      "nav",
      {},
      nav(path === "/" ? `/${location.search}` : state.lastListUrl, "Episodes"),
      nav("/compare", "Compare"),
      nav("/rl", "RL steps"),
      nav("/sources", "Sources"),
    ),
    h(
      "span",
      { class: "status", id: "status-line" },
      `${formatCount(state.rows.length)} episodes in ${state.sources.length} source${state.sources.length === 1 ? "" : "s"}`,
      indexing.length > 0 ? h("span", { class: "badge busy" }, `indexing ${indexingShare(indexing)}`) : null,
      problems.length > 0 ? link("/sources", { class: "badge warn" }, problems.join(", ")) : null,
    ),
  );
}

function indexingShare(sources: readonly SourceStatus[]): string {
  const total = sources.reduce((sum, source) => sum + source.sizeBytes, 0);
  const done = sources.reduce((sum, source) => sum + source.indexedBytes, 0);
  return total > 0 ? `${Math.floor((done / total) * 100)}%` : "...";
}

async function render(): Promise<void> {
  renderHeader();
  const main = document.getElementById("main")!;
  const query = new URLSearchParams(location.search);
  const page = location.pathname;
  try {
    if (page === "/episode") await renderEpisodePage(main, query, context());
    else if (page === "/compare") await renderComparePage(main, query, context());
    else if (page === "/rl") renderRlPage(main, context());
    else if (page === "/sources") renderSourcesPage(main, context());
    else renderListPage(main, query, context());
  } catch (error) {
    replaceChildren(main, h("p", { class: "error" }, `This page failed: ${(error as Error).message}`));
  }
}

function navigate(url: string, options: { replace?: boolean } = {}): void {
  if (options.replace) history.replaceState(null, "", url);
  else history.pushState(null, "", url);
  window.scrollTo(0, 0);
  void render();
}

let polling: ReturnType<typeof setTimeout> | undefined;

/** Polls fast while indexing (the list grows as it is read), slowly afterwards (records being appended). */
function schedulePoll(): void {
  clearTimeout(polling);
  const busy = state.sources.some((source) => source.state === "indexing" || source.state === "waiting");
  polling = setTimeout(() => void poll(), busy ? 500 : 5_000);
}

async function poll(): Promise<void> {
  try {
    const changed = await refreshData();
    renderHeader();
    if (changed && LIVE_PAGES.has(location.pathname)) await render();
  } catch {
    // The viewer was stopped or restarted: try again later.
  }
  schedulePoll();
}

async function start(): Promise<void> {
  document.addEventListener("click", (event) => {
    const target = (event.target as Element).closest("a[data-route]");
    if (!target || !(event instanceof MouseEvent) || event.button !== 0) return;
    if (event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(target.getAttribute("href") ?? "/");
  });
  window.addEventListener("popstate", () => void render());
  await refreshData();
  if (location.pathname === "/") state.lastListUrl = `/${location.search}`;
  await render();
  schedulePoll();
}

void start();
