import { addDays, allRows, requireFile, checkCountedWrites } from "../../../envs/index.js";
import type { Check, Row, StateView, VerifyContext } from "../../../envs/index.js";
import { POSTMORTEMS } from "../documents.js";
import { engineerIdsByHandle } from "../facts.js";
import { defineOncallTask } from "./common.js";

const ITEM = /^- \[ \] (.+?) — owner @([\w.-]+)(?:, due (\d{4}-\d{2}-\d{2})| \(date to be agreed\))$/;

/** The open postmortem action items the tracker does not hold yet, as rows to be filed. */
export function expectedActionItems(state: StateView): Row[] {
  const ids = engineerIdsByHandle(state);
  const filed = new Set(
    allRows<{ incident_id: string; title: string }>(
      state.db,
      "SELECT incident_id, title FROM action_items",
    ).map((row) => `${row.incident_id}|${row.title}`),
  );
  const rows: Row[] = [];
  for (const path of state.listFiles().filter((file) => file.startsWith(POSTMORTEMS))) {
    const text = requireFile(state, path);
    const incident = /\((INC-\d{4})\)/.exec(text)![1]!;
    const reviewed = /Review date: (\d{4}-\d{2}-\d{2})/.exec(text)![1]!;
    for (const line of text.split("\n")) {
      const item = ITEM.exec(line);
      if (item && !filed.has(`${incident}|${item[1]!}`))
        rows.push({
          incident_id: incident,
          title: item[1]!,
          owner_id: ids.get(item[2]!)!,
          due_date: item[3] ?? addDays(reviewed, 14),
          status: "open",
        });
    }
  }
  return rows;
}

function verify(context: VerifyContext): Check[] {
  const expected = expectedActionItems(context.initial);
  if (expected.length === 0) throw new Error("generation produced no action item to file");
  return checkCountedWrites(context, expected.length, [
    { table: "action_items", key: "action_item_id", added: expected },
  ]);
}

function cell(near: Set<string>): string {
  const file = near.has("trusts-error-bodies")
    ? "tools.file_action_item(**item)"
    : 'call("file_action_item", **item)';
  return String.raw`
ids = engineer_ids()
filed_count = 0
for path in workspace_files("postmortems"):
    text = read_text(path)
    incident = re.search(r"\((INC-\d{4})\)", text).group(1)
    reviewed = re.search(r"Review date: (\d{4}-\d{2}-\d{2})", text).group(1)
    existing = {a["title"] for a in fetch("list_action_items", "action_items", incident_id=incident)}
    for m in re.finditer(r"^- \[(.)\] (.+?) — owner @([\w.-]+)(?:, due (\d{4}-\d{2}-\d{2})| \(.*\))?$", text, re.M):
        done, title, handle, due = m.group(1) == "x", m.group(2), m.group(3), m.group(4)
        if ${near.has("files-done-items") ? "False" : "done"} or (${near.has("duplicates-filed-items") ? "False" : "title in existing"}):
            continue
        if not due:
            ${near.has("skips-undated") ? "continue" : "due = (datetime.fromisoformat(reviewed) + timedelta(days=14)).date().isoformat()"}
        item = dict(incident_id=incident, title=title, owner_id=ids[handle], due_date=due)
        ${file}
        filed_count += 1
print(f"Filed {filed_count} action items")
`;
}

export const fileActionItemsTask = defineOncallTask({
  slug: "file-action-items",
  summary: "File the open postmortem action items the tracker is missing, as the paging policy requires.",
  instruction:
    "Make sure the tracker has every postmortem action item our paging policy requires: go through the postmortems in postmortems/ and file what is missing with file_action_item, following the policy's rules for action items. Don't file anything else. Reply with the number of items you filed, e.g. `Filed 5 action items`.",
  tools: ["list_action_items", "file_action_item", "list_engineers", "list_incidents", "get_incident"],
  verify,
  cell,
  nearMisses: [
    ["skips-undated", "Leaves out the open items whose due date is still to be agreed."],
    ["files-done-items", "Files the checked (done) items too."],
    ["duplicates-filed-items", "Files items the tracker already holds."],
    ["trusts-error-bodies", "Takes the tracker's write-conflict body for success and never retries."],
  ],
});
