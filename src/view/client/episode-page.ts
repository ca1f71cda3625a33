import type { ViewEpisode } from "../episode-view.js";
import { fetchJson, type AppContext } from "./app.js";
import { h, link, replaceChildren } from "./dom.js";
import { buildEpisodeModel, type EpisodeModel, type TurnView } from "./episode-model.js";
import { checkList, contextChart, foldedText, toolCall, turnStats } from "./episode-parts.js";
import { formatCount, formatDuration, formatTokens } from "./format.js";
import { verdictClass, verdictOf, type ListRow } from "./list-model.js";

const episodeCache = new Map<string, Promise<ViewEpisode>>();

/** An episode from the server, once per page life (comparing and coming back read it again from memory). */
export function loadEpisode(key: string): Promise<ViewEpisode> {
  let episode = episodeCache.get(key);
  if (!episode) {
    episode = fetchJson<ViewEpisode>(`/api/episode?key=${encodeURIComponent(key)}`);
    episodeCache.set(key, episode);
    episode.catch(() => episodeCache.delete(key));
  }
  return episode;
}

/** Badges and counts of an episode, shared with the compare page. */
export function episodeFacts(episode: ViewEpisode): HTMLElement {
  const summary = episode.summary;
  const verdict = verdictOf(summary.reward, summary.endReason);
  const fact = (label: string, value: string): HTMLElement =>
    h(
      "div",
      { class: "fact" },
      h("span", { class: "fact-label" }, label),
      h("span", { class: "fact-value" }, value),
    );
  return h(
    "div",
    { class: "facts" },
    h(
      "div",
      { class: "badges" },
      h("span", { class: `verdict ${verdictClass(verdict)}` }, verdict === "-" ? "no verdict" : verdict),
      summary.harness ? h("span", { class: "badge" }, summary.harness.toUpperCase()) : null,
      summary.scale ? h("span", { class: "badge" }, summary.scale) : null,
      summary.model ? h("span", { class: "badge" }, summary.model) : null,
      summary.endReason ? h("span", { class: "badge" }, summary.endReason) : null,
      summary.step !== null ? h("span", { class: "badge" }, `step ${summary.step}`) : null,
      h("span", { class: "badge muted" }, `${episode.sourceLabel} line ${summary.line}`),
    ),
    h(
      "div",
      { class: "fact-grid" },
      fact("seed", formatCount(summary.seed)),
      fact("sample", formatCount(summary.sample)),
      fact("turns", formatCount(summary.turns)),
      fact("tool calls", formatCount(summary.toolCalls)),
      fact("code blocks", formatCount(summary.codeBlocks)),
      fact("runtime errors", formatCount(summary.runtimeErrors)),
      fact("tool-output tokens", formatTokens(summary.toolOutputTokens)),
      fact("context tokens", formatTokens(summary.contextTokens)),
      fact("wall time", formatDuration(summary.wallTimeMs)),
    ),
  );
}

/** Episodes of the same instance under another harness or sample: one click to compare. */
function counterparts(rows: readonly ListRow[], summary: ViewEpisode["summary"], key: string): ListRow[] {
  return rows
    .filter(
      (row) =>
        row.key !== key &&
        row.task === summary.task &&
        row.scale === summary.scale &&
        row.seed === summary.seed &&
        (row.harness !== summary.harness ||
          row.step !== summary.step ||
          row.model !== summary.model ||
          row.sample !== summary.sample),
    )
    .slice(0, 8);
}

function navigation(key: string, app: AppContext, episode: ViewEpisode): HTMLElement {
  const position = app.lastListKeys.indexOf(key);
  const previous = position > 0 ? app.lastListKeys[position - 1] : undefined;
  const next = position >= 0 ? app.lastListKeys[position + 1] : undefined;
  const others = counterparts(app.rows, episode.summary, key);
  return h(
    "div",
    { class: "episode-nav" },
    link(app.lastListUrl, {}, "< list"),
    previous ? link(`/episode?key=${previous}`, { id: "previous-episode" }, "previous") : null,
    next ? link(`/episode?key=${next}`, { id: "next-episode" }, "next") : null,
    position >= 0
      ? h("span", { class: "note" }, `${position + 1} of ${app.lastListKeys.length} in the list`)
      : null,
    others.length > 0
      ? h(
          "span",
          { class: "compare-with" },
          "compare with: ",
          ...others.map((row) =>
            link(
              `/compare?a=${key}&b=${row.key}`,
              { class: "badge link" },
              `${row.harness}${row.sample !== null ? ` #${row.sample}` : ""}${row.step !== null ? ` step ${row.step}` : ""}${row.model !== episode.summary.model ? ` ${row.model}` : ""}`,
            ),
          ),
        )
      : null,
  );
}

function instructionSection(model: EpisodeModel): HTMLElement {
  return h(
    "section",
    { class: "instruction" },
    h("h2", {}, "Instruction"),
    model.system !== null
      ? h(
          "details",
          { class: "system" },
          h("summary", {}, `System prompt (${formatCount(model.system.length)} characters)`),
          foldedText(model.system, "text"),
        )
      : null,
    ...model.instructions.map((text) => h("pre", { class: "text user-message" }, text)),
  );
}

export function turnSection(
  turn: TurnView,
  model: EpisodeModel,
  revealVerdict: boolean,
  compact = false,
): HTMLElement {
  return h(
    "section",
    { class: "turn", id: `turn-${turn.index}` },
    h("h3", {}, `Turn ${turn.index}`, h("span", { class: "turn-stats" }, turnStats(turn))),
    turn.reasoning
      ? h(
          "details",
          { class: "reasoning" },
          h("summary", {}, `Reasoning (${formatCount(turn.reasoning.length)} characters)`),
          h("pre", { class: "text" }, turn.reasoning),
        )
      : null,
    turn.content.trim() ? h("pre", { class: "text assistant-text" }, turn.content) : null,
    ...turn.calls.map((call) => toolCall(call, { checks: model.checks, revealVerdict, compact })),
    ...turn.strayResults.map((text) =>
      h(
        "div",
        { class: "call stray" },
        h("span", { class: "section-label" }, "tool message"),
        h("pre", { class: "text" }, text),
      ),
    ),
  );
}

function verdictSection(model: EpisodeModel, episode: ViewEpisode): HTMLElement {
  return h(
    "section",
    { class: "verdict-section", id: "verdict" },
    h("h2", {}, "Verdict"),
    h("p", {}, "Answer: ", h("code", {}, model.answer ?? "(none)")),
    model.verifierError ? h("p", { class: "error" }, `Verifier error: ${model.verifierError}`) : null,
    model.error ? h("p", { class: "error" }, `Episode error: ${model.error}`) : null,
    checkList(model.checks, episode.revealVerdict),
  );
}

function validationSection(episode: ViewEpisode): HTMLElement {
  const row = episode.validation!;
  const line = (label: string, value: number | null): HTMLElement =>
    h("tr", {}, h("td", {}, label), h("td", { class: "number" }, formatCount(value)));
  return h(
    "section",
    {},
    h("h2", {}, "Validation"),
    h(
      "table",
      { class: "checks" },
      h(
        "tbody",
        {},
        line("null agent reward (expected 0)", row.nullReward),
        line("oracle reward (expected 1)", row.oracleReward),
        line("oracle's direct-call replay (expected 1)", row.dtcReplayReward),
        ...Object.entries(row.nearMissRewards).map(([id, reward]) =>
          line(`near-miss ${id} (expected 0)`, reward),
        ),
        line("oracle tool calls", row.oracleToolCalls),
      ),
    ),
    row.problems.length > 0
      ? h(
          "ul",
          { class: "problems" },
          ...row.problems.map((problem) => h("li", {}, h("pre", { class: "text" }, problem))),
        )
      : h("p", {}, "No problems."),
  );
}

/** One episode: instruction, every turn with reasoning, text, calls, code, outputs; the verdict; the context chart. */
export async function renderEpisodePage(
  main: HTMLElement,
  query: URLSearchParams,
  app: AppContext,
): Promise<void> {
  const key = query.get("key") ?? "";
  replaceChildren(main, h("p", { class: "note" }, "Loading the episode..."));
  let episode: ViewEpisode;
  try {
    episode = await loadEpisode(key);
  } catch (error) {
    replaceChildren(
      main,
      h("p", { class: "error" }, `Episode ${key}: ${(error as Error).message}`),
      link(app.lastListUrl, {}, "back to the list"),
    );
    return;
  }
  const started = performance.now();
  const title = h(
    "h1",
    {},
    episode.summary.task || "(no task)",
    h("span", { class: "episode-id" }, episode.summary.episodeId),
  );
  const parts: HTMLElement[] = [navigation(key, app, episode), title, episodeFacts(episode)];
  if (episode.warning) parts.push(h("p", { class: "warning" }, episode.warning));
  if (episode.validation) parts.push(validationSection(episode));
  if (episode.trajectory) {
    const model = buildEpisodeModel(episode.trajectory);
    const chart = contextChart(model.turns, { width: 1240, height: 190 });
    if (chart) parts.push(h("section", {}, h("h2", {}, "Context per turn"), chart));
    parts.push(instructionSection(model));
    parts.push(h("h2", {}, `Turns (${model.turns.length})`));
    for (const turn of model.turns) parts.push(turnSection(turn, model, episode.revealVerdict));
    if (episode.summary.kind !== "sft") parts.push(verdictSection(model, episode));
  }
  replaceChildren(main, ...parts);
  main.dataset.renderMs = String(Math.round(performance.now() - started));
  document.title = `${episode.summary.task} · progagent view`;
}
