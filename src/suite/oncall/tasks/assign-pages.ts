import { allRows, checkCountedWrites } from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { seconds } from "../clock.js";
import { engineerIdsByHandle, readSchedule, serviceTeams } from "../facts.js";
import { onCallHandle } from "../schedule.js";
import { defineOncallTask } from "./common.js";

/** Each unassigned page and the engineer primary on call for its team when it fired. */
export function expectedAssignments(state: StateView): Map<string, string> {
  const schedule = readSchedule(state);
  const ids = engineerIdsByHandle(state);
  const teams = serviceTeams(state);
  const pages = allRows<{ page_id: string; service: string; fired_at: string }>(
    state.db,
    "SELECT page_id, service, fired_at FROM pages WHERE assigned_to IS NULL ORDER BY page_id",
  );
  return new Map(
    pages.map((page) => [
      page.page_id,
      ids.get(onCallHandle(schedule, teams.get(page.service)!, "primary", seconds(page.fired_at)))!,
    ]),
  );
}

function verify(context: VerifyContext): Check[] {
  const expected = expectedAssignments(context.initial);
  if (expected.size === 0) throw new Error("generation produced no unassigned page");
  const changed = new Map([...expected].map(([id, engineer]) => [id, { assigned_to: engineer }]));
  return checkCountedWrites(context, expected.size, [{ table: "pages", key: "page_id", changed }]);
}

function cell(near: Set<string>): string {
  const options = `use_overrides=${near.has("ignores-overrides") ? "False" : "True"}, keep_cancelled=${near.has("applies-cancelled-overrides") ? "True" : "False"}, midnight=${near.has("midnight-handover") ? "True" : "False"}`;
  return String.raw`
on_call = load_schedule(${options})
ids = engineer_ids()
teams = {s["service"]: s["team"] for s in fetch("list_services", "services")}
pages = fetch("list_pages", "pages", unassigned=True)
for page in pages:
    handle = on_call(teams[page["service"]], "primary", utc(page["fired_at"]))
    call("assign_page", page_id=page["page_id"], engineer_id=ids[handle])
print(f"Assigned {len(pages)} pages")
`;
}

export const assignPagesTask = defineOncallTask({
  slug: "assign-pages",
  summary:
    "Give every page without an assignee the engineer the paging policy and the on-call schedule name.",
  instruction:
    "A sync bug wiped the assignee of some pages. Give every page that has no assignee the engineer our paging policy says it belongs to, using the on-call schedule in oncall/schedule.md, with assign_page. Don't change anything else. Reply with the number of pages you assigned, e.g. `Assigned 9 pages`.",
  tools: ["list_pages", "get_page", "assign_page", "list_services", "list_engineers"],
  verify,
  cell,
  nearMisses: [
    ["ignores-overrides", "Uses the weekly rotation only."],
    ["applies-cancelled-overrides", "Applies struck-through (cancelled) overrides too."],
    ["midnight-handover", "Hands over on Monday at 00:00 instead of 09:00 UTC."],
  ],
});
