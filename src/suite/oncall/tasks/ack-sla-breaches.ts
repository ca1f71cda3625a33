import { allRows, checkAnswerIds } from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { seconds } from "../clock.js";
import { pagingMinutes } from "../facts.js";
import { defineOncallTask } from "./common.js";

interface PageRow {
  page_id: string;
  severity: string;
  fired_at: string;
  acked_at: string | null;
  resolved_at: string | null;
}

/** Sev1/sev2 pages fired 1-29 June that missed their acknowledgement target. */
export function expectedBreaches(state: StateView): string[] {
  const limits = pagingMinutes(state, "Acknowledgement targets");
  const pages = allRows<PageRow>(
    state.db,
    "SELECT page_id, severity, fired_at, acked_at, resolved_at FROM pages WHERE severity IN ('sev1', 'sev2') AND fired_at < '2025-06-30' ORDER BY page_id",
  );
  return pages
    .filter((page) => {
      const limit = limits.get(page.severity)! * 60;
      const after = (at: string | null): number =>
        at === null ? Infinity : seconds(at) - seconds(page.fired_at);
      return page.acked_at !== null ? after(page.acked_at) > limit : after(page.resolved_at) > limit;
    })
    .map((page) => page.page_id);
}

function verify({ initial, answer }: VerifyContext): Check[] {
  const expected = expectedBreaches(initial);
  if (expected.length === 0) throw new Error("generation produced no late acknowledgement");
  return [checkAnswerIds(answer, expected)];
}

function cell(near: Set<string>): string {
  const get = near.has("trusts-error-bodies")
    ? 'result = tools.get_page(page_id=summary["page_id"])\n    if "page" not in result:\n        continue\n    page = result["page"]'
    : 'page = call("get_page", page_id=summary["page_id"])["page"]';
  return String.raw`
limits = {k: int(v) * 60 for k, v in policy_table("policies/paging-policy.md", "Acknowledgement targets").items()}
summaries = [p for severity in ("sev1", "sev2") for p in fetch("list_pages", "pages", severity=severity, fired_from="2025-06-01", fired_to="2025-06-29")]
late = []
for summary in summaries:
    ${get}
    fired = utc(page["fired_at"])
    limit = limits[page["severity"]]
    if page["acked_at"]:
        delay = (utc(page["acked_at"]) - fired).total_seconds()
    else:
        ${near.has("acked-only") ? "continue" : 'delay = (utc(page["resolved_at"]) - fired).total_seconds() if page["resolved_at"] else float("inf")'}
    if delay ${near.has("boundary-inclusive") ? ">=" : ">"} limit:
        late.append(page["page_id"])
print(json.dumps(sorted(late)))
`;
}

export const ackSlaBreachesTask = defineOncallTask({
  slug: "ack-sla-breaches",
  summary: "List the sev1/sev2 pages of 1-29 June that missed the paging policy's acknowledgement target.",
  instruction:
    'For the monthly paging review I need every sev1 and sev2 page fired between 1 and 29 June 2025 (UTC) that missed its acknowledgement target under our paging policy (policies/paging-policy.md). Reply with a JSON array of their page ids, e.g. ["PG-00012", "PG-00480"].',
  tools: ["list_pages", "get_page", "list_services"],
  verify,
  cell,
  nearMisses: [
    ["boundary-inclusive", "Counts an acknowledgement exactly at the target as late."],
    ["acked-only", "Ignores pages nobody acknowledged."],
    ["trusts-error-bodies", "Skips pages whose details came back as an error body instead of retrying."],
  ],
});
