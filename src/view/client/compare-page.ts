import type { ViewEpisode } from "../episode-view.js";
import type { AppContext } from "./app.js";
import { h, link, replaceChildren } from "./dom.js";
import { buildEpisodeModel, type EpisodeModel } from "./episode-model.js";
import { episodeFacts, loadEpisode, turnSection } from "./episode-page.js";
import { contextChart } from "./episode-parts.js";
import { formatCount, formatTokens } from "./format.js";

interface Side {
  key: string;
  episode: ViewEpisode;
  model: EpisodeModel | null;
}

const COUNTS: Array<{
  label: string;
  of: (episode: ViewEpisode) => number | null;
  tokens?: boolean;
  /** Which way is better, for the colour of the difference (none: no colour). */
  better?: "lower" | "higher";
}> = [
  { label: "turns", of: (episode) => episode.summary.turns },
  { label: "tool calls", of: (episode) => episode.summary.toolCalls },
  { label: "code blocks", of: (episode) => episode.summary.codeBlocks },
  { label: "runtime errors", of: (episode) => episode.summary.runtimeErrors, better: "lower" },
  {
    label: "tool-output tokens",
    of: (episode) => episode.summary.toolOutputTokens,
    tokens: true,
    better: "lower",
  },
  { label: "context tokens", of: (episode) => episode.summary.contextTokens, tokens: true, better: "lower" },
  { label: "reward", of: (episode) => episode.summary.reward, better: "higher" },
];

/** `better` / `worse` by the count's direction, nothing for counts that are neither (turns, tool calls). */
function deltaClass(delta: number | null, better: "lower" | "higher" | undefined): string {
  if (delta === null || delta === 0 || better === undefined) return "";
  return delta < 0 === (better === "lower") ? "better" : "worse";
}

function countsTable(left: ViewEpisode, right: ViewEpisode): HTMLElement {
  const show = (value: number | null, tokens?: boolean): string =>
    tokens ? formatTokens(value) : formatCount(value);
  return h(
    "table",
    { class: "compare-counts" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", {}, ""),
        h("th", { class: "number" }, "A"),
        h("th", { class: "number" }, "B"),
        h("th", { class: "number" }, "B - A"),
      ),
    ),
    h(
      "tbody",
      {},
      ...COUNTS.map((count) => {
        const a = count.of(left);
        const b = count.of(right);
        const delta = a !== null && b !== null ? b - a : null;
        return h(
          "tr",
          {},
          h("td", {}, count.label),
          h("td", { class: "number" }, show(a, count.tokens)),
          h("td", { class: "number" }, show(b, count.tokens)),
          h(
            "td",
            {
              class: `number ${deltaClass(delta, count.better)}`,
            },
            delta === null ? "-" : `${delta > 0 ? "+" : ""}${show(delta, count.tokens)}`,
          ),
        );
      }),
    ),
  );
}

function header(side: Side, label: string, yMax: number): HTMLElement {
  const summary = side.episode.summary;
  return h(
    "div",
    { class: "compare-head" },
    h("h2", {}, `${label}: `, link(`/episode?key=${side.key}`, {}, summary.task || "(no task)")),
    episodeFacts(side.episode),
    side.model ? contextChart(side.model.turns, { width: 560, height: 170, yMax }) : null,
  );
}

/** Two episodes side by side, turn by turn, with their counts and the difference. */
export async function renderComparePage(
  main: HTMLElement,
  query: URLSearchParams,
  app: AppContext,
): Promise<void> {
  const keys = [query.get("a"), query.get("b")];
  if (!keys[0] || !keys[1]) {
    replaceChildren(
      main,
      h("h1", {}, "Compare two episodes"),
      h(
        "p",
        {},
        "Tick two episodes in the ",
        link(app.lastListUrl, {}, "list"),
        " and press Compare, or open an episode and pick one of its counterparts (the same task and scale under another harness, sample, model or step).",
      ),
    );
    return;
  }
  replaceChildren(main, h("p", { class: "note" }, "Loading both episodes..."));
  let sides: Side[];
  try {
    sides = await Promise.all(
      keys.map(async (key) => {
        const episode = await loadEpisode(key!);
        return {
          key: key!,
          episode,
          model: episode.trajectory ? buildEpisodeModel(episode.trajectory) : null,
        };
      }),
    );
  } catch (error) {
    replaceChildren(
      main,
      h("p", { class: "error" }, `Could not load both episodes: ${(error as Error).message}`),
    );
    return;
  }
  const [left, right] = sides as [Side, Side];
  const turns = Math.max(left.model?.turns.length ?? 0, right.model?.turns.length ?? 0);
  // One scale for both charts: the context of A and B compare at a glance.
  const yMax = Math.max(
    ...[left, right].flatMap(
      (side) => side.model?.turns.map((turn) => turn.record?.contextTokens ?? 0) ?? [0],
    ),
  );
  const rows: HTMLElement[] = [];
  for (let index = 0; index < turns; index += 1) {
    const cell = (side: Side): HTMLElement => {
      const turn = side.model?.turns[index];
      return h(
        "div",
        { class: "compare-cell" },
        turn && side.model
          ? turnSection(turn, side.model, side.episode.revealVerdict, true)
          : h("p", { class: "note" }, "(no such turn)"),
      );
    };
    rows.push(h("div", { class: "compare-row" }, cell(left), cell(right)));
  }
  replaceChildren(
    main,
    h(
      "h1",
      {},
      "Compare",
      h(
        "span",
        { class: "note" },
        ` ${formatCount(turns)} turns aligned by index · `,
        link(`/compare?a=${right.key}&b=${left.key}`, {}, "swap"),
      ),
    ),
    h("div", { class: "compare-row compare-heads" }, header(left, "A", yMax), header(right, "B", yMax)),
    countsTable(left.episode, right.episode),
    ...rows,
  );
}
