import { stackedBarChart } from "./charts.js";
import { h, type Child } from "./dom.js";
import type { CallView, CheckView, EnvironmentCall, TurnView } from "./episode-model.js";
import { contextSeries } from "./episode-model.js";
import { formatCount, formatDuration, formatTokens } from "./format.js";
import { splitOutput, type OutputSectionKind } from "./output-sections.js";
import { tokenizePython } from "./python-highlight.js";

/** Pieces of an episode page: code, outputs, tool calls, checks, the context chart. Text only, never markup. */

/** Outputs longer than this many lines show their head and tail until opened. */
const FOLDED_LINES = 60;

export function codeBlock(code: string): HTMLElement {
  const pre = h("pre", { class: "code python" });
  const fragment = document.createDocumentFragment();
  for (const token of tokenizePython(code))
    fragment.append(
      token.kind === "plain"
        ? document.createTextNode(token.text)
        : h("span", { class: `tok-${token.kind}` }, token.text),
    );
  pre.append(fragment);
  return pre;
}

const SECTION_LABELS: Record<OutputSectionKind, string> = {
  note: "kernel",
  stdout: "output",
  value: "value",
  stderr: "[stderr]",
  traceback: "traceback",
  truncation: "truncated",
  empty: "no output",
};

/** A long text folded to its first and last lines, with a button that shows all of it. */
export function foldedText(text: string, className: string): HTMLElement {
  const lines = text.split("\n");
  if (lines.length <= FOLDED_LINES) return h("pre", { class: className }, text);
  const head = lines.slice(0, 30).join("\n");
  const tail = lines.slice(-15).join("\n");
  const pre = h("pre", { class: className }, `${head}\n`);
  const more = h(
    "button",
    {
      type: "button",
      class: "unfold",
      onclick: () => {
        pre.textContent = text;
      },
    },
    `... show all ${formatCount(lines.length)} lines ...`,
  );
  pre.append(more, `\n${tail}`);
  return pre;
}

/** A program's output, each section shown as what it is (printed, value, stderr, traceback, truncation). */
export function programOutput(text: string, code: string): HTMLElement {
  const box = h("div", { class: "output" });
  for (const section of splitOutput(text, code)) {
    box.append(
      h(
        "div",
        { class: `section section-${section.kind}` },
        h("span", { class: "section-label" }, SECTION_LABELS[section.kind]),
        section.kind === "truncation"
          ? h("pre", { class: "truncation" }, section.text)
          : foldedText(section.text, "text"),
      ),
    );
  }
  return box;
}

/** JSON folded to one line until opened; text that is not JSON is shown as text. */
export function foldedJson(value: unknown, label: string): HTMLElement {
  let parsed = value;
  if (typeof value === "string") {
    try {
      parsed = JSON.parse(value);
    } catch {
      return h(
        "div",
        { class: "json-text" },
        h("span", { class: "section-label" }, label),
        foldedText(value, "text"),
      );
    }
  }
  const compact = JSON.stringify(parsed) ?? String(parsed);
  const pretty = JSON.stringify(parsed, null, 2) ?? String(parsed);
  if (compact.length <= 100)
    return h(
      "div",
      { class: "json-inline" },
      h("span", { class: "section-label" }, label),
      h("code", {}, compact),
    );
  return h(
    "details",
    { class: "json" },
    h(
      "summary",
      {},
      h("span", { class: "section-label" }, label),
      h("code", {}, `${compact.slice(0, 100)}...`),
      ` (${formatCount(compact.length)} characters)`,
    ),
    foldedText(pretty, "text"),
  );
}

function environmentCallList(calls: readonly EnvironmentCall[]): HTMLElement | null {
  if (calls.length === 0) return null;
  return h(
    "details",
    { class: "environment-calls" },
    h(
      "summary",
      {},
      `${calls.length} environment call${calls.length === 1 ? "" : "s"} from this code`,
      calls.some((call) => call.isError) ? h("span", { class: "badge fail" }, "errors") : null,
    ),
    h(
      "ol",
      {},
      ...calls.map((call) =>
        h(
          "li",
          { class: call.isError ? "error" : undefined },
          h("code", {}, `${call.name}(${compactArgs(call.args)})`),
          ` ${formatDuration(call.durationMs)}`,
          call.isError ? " error" : "",
        ),
      ),
    ),
  );
}

function compactArgs(args: unknown): string {
  if (args === null || typeof args !== "object") return JSON.stringify(args) ?? "";
  const text = Object.entries(args)
    .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
    .join(", ");
  return text.length > 160 ? `${text.slice(0, 160)}...` : text;
}

export function checkList(checks: readonly CheckView[], revealVerdict: boolean): HTMLElement {
  if (checks.length === 0) return h("p", { class: "note" }, "No verifier checks recorded.");
  return h(
    "div",
    {},
    h(
      "table",
      { class: "checks" },
      h("thead", {}, h("tr", {}, h("th", {}, "check"), h("th", {}, "result"), h("th", {}, "message"))),
      h(
        "tbody",
        {},
        ...checks.map((check) =>
          h(
            "tr",
            { class: check.passed ? "passed" : "failed" },
            h("td", {}, h("code", {}, check.id)),
            h(
              "td",
              {},
              h(
                "span",
                { class: `verdict ${check.passed ? "pass" : "fail"}` },
                check.passed ? "pass" : "fail",
              ),
            ),
            h("td", {}, check.message ?? (revealVerdict ? "" : "hidden")),
          ),
        ),
      ),
    ),
    revealVerdict
      ? null
      : h(
          "p",
          { class: "note" },
          "Check messages hold expected values; they are shown only for runs made with --reveal-verdict.",
        ),
  );
}

/** One tool call: code with its output (PTC), a terminal command, claim_done with the verdict, or an environment tool. */
export function toolCall(
  call: CallView,
  options: { checks: readonly CheckView[]; revealVerdict: boolean; compact?: boolean },
): HTMLElement {
  const block = call.codeBlock;
  const code = typeof call.arguments?.code === "string" ? call.arguments.code : undefined;
  const header = (...extra: Child[]): HTMLElement =>
    h("div", { class: "call-head" }, h("span", { class: "call-name" }, call.name), ...extra);
  if (code !== undefined) {
    const status = block?.status ?? (call.result === null ? "?" : "ok");
    return h(
      "div",
      { class: `call call-code status-${status}` },
      header(
        h("span", { class: `badge status ${status === "ok" ? "pass" : "fail"}` }, status),
        block?.errorType ? h("span", { class: "badge fail" }, block.errorType) : null,
        block
          ? ` ${formatDuration(block.durationMs)}, ${block.toolCallCount} tool call${block.toolCallCount === 1 ? "" : "s"}`
          : "",
      ),
      codeBlock(code),
      call.result !== null
        ? programOutput(call.result, code)
        : h("p", { class: "note" }, "(no result recorded)"),
      environmentCallList(call.environmentCalls),
    );
  }
  if (call.name === "terminal" && typeof call.arguments?.command === "string") {
    return h(
      "div",
      { class: "call call-terminal" },
      header(),
      h("pre", { class: "terminal-command" }, `$ ${call.arguments.command}`),
      call.result !== null ? programOutput(call.result, "") : null,
    );
  }
  if (call.name === "claim_done") {
    return h(
      "div",
      { class: "call call-claim" },
      header(),
      foldedJson(call.arguments ?? call.argumentsText, "answer"),
      call.result !== null ? h("pre", { class: "text result" }, call.result) : null,
      options.compact ? null : checkList(options.checks, options.revealVerdict),
    );
  }
  return h(
    "div",
    { class: "call call-environment" },
    header(),
    foldedJson(call.arguments ?? call.argumentsText, "arguments"),
    call.result !== null
      ? foldedJson(call.result, "result")
      : h("p", { class: "note" }, "(no result recorded)"),
  );
}

export function turnStats(turn: TurnView): string {
  const record = turn.record;
  if (!record) return "";
  return [
    `context ${formatTokens(record.contextTokens)}`,
    `generated ${formatTokens(record.completionTokens)}`,
    `tool output ${formatTokens(record.toolOutputTokens)}`,
    // A rollout record has no per-turn time (the trainer generated): 0 means unknown there.
    record.durationMs ? formatDuration(record.durationMs) : "",
    record.finishReason ? `finish ${record.finishReason}` : "",
  ]
    .filter(Boolean)
    .join(" · ");
}

/** Context tokens per turn, the part filled by tool outputs in another colour: context rot, visible. */
export function contextChart(
  turns: readonly TurnView[],
  options: { width: number; height: number; contextWindow?: number; yMax?: number },
): HTMLElement | null {
  const series = contextSeries(turns);
  if (series.length === 0) return null;
  const chart = stackedBarChart({
    width: options.width,
    height: options.height,
    xLabel: "turn",
    yLabel: "context tokens",
    ...(options.yMax === undefined ? {} : { yMax: options.yMax }),
    bars: series.map((point) => ({
      label: String(point.turn),
      title: `turn ${point.turn}: ${formatCount(point.context)} context tokens, ${formatCount(point.toolOutput)} of them tool outputs (${Math.round((point.toolOutput / Math.max(1, point.context)) * 100)}%)`,
      segments: [
        { value: point.toolOutput, className: "segment-tool" },
        { value: point.context - point.toolOutput, className: "segment-other" },
      ],
    })),
    ...(options.contextWindow
      ? {
          limit: {
            value: options.contextWindow,
            label: `context window ${formatTokens(options.contextWindow)}`,
          },
        }
      : {}),
  });
  return h(
    "figure",
    { class: "context-chart" },
    chart,
    h(
      "figcaption",
      {},
      h("span", { class: "swatch segment-tool" }),
      " tool outputs ",
      h("span", { class: "swatch segment-other" }),
      " prompt, instruction and the model's own turns",
    ),
  );
}
