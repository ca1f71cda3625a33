import { defineClaimsTask } from "./common.js";
import { allRows, type Check, type StateView, type VerifyContext } from "../../../envs/index.js";
import { BULLETIN_DIRECTORY, parseBulletin } from "../rules.js";
import { answerListCheck, claimChanges } from "./common.js";

/** Claim id -> event code for every non-denied claim inside a bulletin's dates, ZIPs and perils. */
export function catastropheTags(state: StateView): Map<string, string> {
  const tags = new Map<string, string>();
  for (const path of state.listFiles().filter((file) => file.startsWith(`${BULLETIN_DIRECTORY}/`))) {
    const event = parseBulletin(state.readFile(path) ?? "");
    const rows = allRows<{
      claim_id: string;
      loss_zip: string;
      cause_of_loss: string;
      cat_code: string | null;
    }>(
      state.db,
      "SELECT claim_id, loss_zip, cause_of_loss, cat_code FROM claims WHERE status != 'denied' AND loss_date >= ? AND loss_date <= ? ORDER BY claim_id",
      event.start,
      event.end,
    );
    for (const row of rows)
      if (
        event.zips.includes(row.loss_zip) &&
        event.perils.includes(row.cause_of_loss) &&
        row.cat_code !== event.code
      )
        tags.set(row.claim_id, event.code);
  }
  return new Map([...tags].sort(([a], [b]) => a.localeCompare(b)));
}

function verify(context: VerifyContext): Check[] {
  const expected = catastropheTags(context.initial);
  return [
    ...claimChanges(
      context,
      [...expected].map(([id, code]) => [id, { cat_code: code }]),
    ),
    answerListCheck("answer-lists-tagged", context.answer, "tagged", [...expected.keys()]),
  ];
}

function cells(options: { anyPeril?: boolean; endExclusive?: boolean; anyZip?: boolean } = {}): string[] {
  return [
    String.raw`
def field(text, name):
    return re.search(r"\*\*" + name + r":\*\* (.+)", text).group(1).strip()

events = []
for entry in fetch_all("list_files", "files", path="bulletins"):
    text = read_text(entry["path"])
    events.append({
        "code": field(text, "Event code"),
        "perils": [peril.strip() for peril in field(text, "Covered perils").split(",")],
        "start": field(text, "First day"),
        "end": field(text, "Last day"),
        "zips": {row[0] for row in md_table(text, "Affected ZIP codes")},
    })
print(events)
`,
    String.raw`
tagged = []
for event in events:
    for claim in fetch_all("list_claims", "claims", loss_date_from=event["start"], loss_date_to=event["end"]):
        if claim["status"] == "denied" or claim["cat_code"] == event["code"]:
            continue
        if ${options.endExclusive ? 'claim["loss_date"] >= event["end"]' : "False"}:
            continue
        if (${options.anyZip ? "True" : 'claim["loss_zip"] in event["zips"]'}) and (${options.anyPeril ? "True" : 'claim["cause_of_loss"] in event["perils"]'}):
            tools.tag_catastrophe(claim_id=claim["claim_id"], cat_code=event["code"])
            tagged.append(claim["claim_id"])
print(json.dumps({"tagged": sorted(tagged)}))
`,
  ];
}

export const tagCatastropheClaimsTask = defineClaimsTask({
  id: "claims.tag-catastrophe-claims",
  summary:
    "Tag every non-denied claim inside a catastrophe bulletin's date range (inclusive), ZIP list and covered perils with the event code.",
  instruction:
    "The CAT desk needs this season's catastrophe claims tagged. Go through every catastrophe bulletin in the workspace and tag each claim it covers with the bulletin's event code, following the bulletin's own criteria. Leave every other claim alone. Reply with only a JSON object {\"tagged\": [<ids of the claims you tagged>]}.",
  tools: ["list_claims", "get_claim", "list_policies", "get_policy", "tag_catastrophe"],
  verify,
  cells,
  nearMisses: {
    "any-peril": [{ anyPeril: true }, "Tags claims of any cause inside the event's ZIPs and dates."],
    "last-day-excluded": [{ endExclusive: true }, "Treats the bulletin's last day as outside the event."],
    "any-zip": [{ anyZip: true }, "Tags matching claims anywhere, ignoring the ZIP list."],
  },
});
