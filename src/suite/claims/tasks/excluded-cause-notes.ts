import { defineClaimsTask } from "./common.js";
import { allRows, type StateView } from "../../../envs/index.js";
import { COVERAGE_RULES_PATH, FIELD_NOTES_DIRECTORY, parseCoverageRules } from "../rules.js";
import { listAnswerVerifier } from "./common.js";

/** The field-note text of every claim, joined over all batches (a claim may appear in several). */
export function fieldNotesByClaim(state: StateView): Map<string, string> {
  const notes = new Map<string, string>();
  for (const path of state.listFiles().filter((file) => file.startsWith(`${FIELD_NOTES_DIRECTORY}/`))) {
    let current: string | null = null;
    for (const line of (state.readFile(path) ?? "").split("\n")) {
      const heading = /^## (CLM-\d+)/.exec(line);
      if (heading) current = heading[1] ?? null;
      else if (current && line.trim()) notes.set(current, `${notes.get(current) ?? ""} ${line}`);
    }
  }
  return notes;
}

/** Open claims whose field notes name an excluded cause of their line, unless the policy buys it back. */
export function excludedCauseClaims(state: StateView): string[] {
  const rules = parseCoverageRules(state.readFile(COVERAGE_RULES_PATH) ?? "");
  const notes = fieldNotesByClaim(state);
  const rows = allRows<{ claim_id: string; line: string; codes: string | null }>(
    state.db,
    `SELECT c.claim_id, p.line, (SELECT GROUP_CONCAT(code) FROM endorsements e WHERE e.policy_id = p.policy_id) AS codes
     FROM claims c JOIN policies p ON p.policy_id = c.policy_id WHERE c.status = 'open' ORDER BY c.claim_id`,
  );
  return rows
    .filter((row) => {
      const text = (notes.get(row.claim_id) ?? "").toLowerCase();
      const codes = (row.codes ?? "").split(",");
      return rules.exclusions.some(
        (exclusion) =>
          exclusion.lines.includes(row.line) &&
          !(exclusion.buyBack !== null && codes.includes(exclusion.buyBack)) &&
          exclusion.indicators.some((phrase) => text.includes(phrase.toLowerCase())),
      );
    })
    .map((row) => row.claim_id);
}

function cells(
  options: { ignoreBuyBack?: boolean; includeClosed?: boolean; firstBatchOnly?: boolean } = {},
): string[] {
  return [
    String.raw`
rules = read_text("policies/coverage-rules.md")
exclusions = []
for cause, lines, buy_back, indicators in md_table(rules, "Excluded causes"):
    exclusions.append({"cause": cause, "lines": [line.strip() for line in lines.split(",")], "buy_back": None if buy_back == "none" else buy_back,
                       "phrases": [phrase.strip().strip('"').lower() for phrase in indicators.split(";")]})
print(exclusions)
notes = {}
paths = sorted(entry["path"] for entry in fetch_all("list_files", "files", path="field-notes"))
for path in paths${options.firstBatchOnly ? "[:1]" : ""}:
    current = None
    for line in read_text(path).split("\n"):
        match = re.match(r"## (CLM-\d+)", line)
        if match:
            current = match.group(1)
        elif current and line.strip():
            notes[current] = notes.get(current, "") + " " + line.lower()
print(len(paths), "batches,", len(notes), "claims with field notes")
`,
    String.raw`
claims = {claim["claim_id"]: claim for claim in fetch_all("list_claims", "claims"${options.includeClosed ? "" : ', status="open"'})}
policies = {policy["policy_id"]: policy for policy in fetch_all("list_policies", "policies")}
flagged = []
for claim_id, text in sorted(notes.items()):
    claim = claims.get(claim_id)
    if claim is None or claim["status"] == "denied":
        continue
    line = policies[claim["policy_id"]]["line"]
    hits = [e for e in exclusions if line in e["lines"] and any(phrase in text for phrase in e["phrases"])]
    if not hits:
        continue
    if ${options.ignoreBuyBack ? "False" : "True"} and all(e["buy_back"] for e in hits):
        codes = {e["code"] for e in tools.get_policy(policy_id=claim["policy_id"])["endorsements"]}
        hits = [e for e in hits if e["buy_back"] not in codes]
    if hits:
        flagged.append(claim_id)
print(json.dumps({"claims": flagged}))
`,
  ];
}

export const excludedCauseNotesTask = defineClaimsTask({
  id: "claims.excluded-cause-notes",
  summary:
    "Read the adjusters' field notes and list open claims whose notes point to an excluded cause of loss (field indicators in the coverage rules), unless a buy-back endorsement restores coverage.",
  instruction:
    'Coverage counsel wants to know which open claims may really be excluded losses. Read our adjusters\' field notes and, using the excluded causes and field indicators in our coverage rules, list every open claim whose notes point to a cause that is excluded for that policy. A policy with the matching buy-back endorsement is covered for that cause. Do not change anything. Reply with only a JSON object {"claims": [<claim ids>]}.',
  tools: ["list_claims", "get_claim", "list_policies", "get_policy", "list_endorsements"],
  verify: listAnswerVerifier("excluded-cause-claims", "claims", excludedCauseClaims),
  cells,
  nearMisses: {
    "ignores-buy-back": [
      { ignoreBuyBack: true },
      "Flags flood indicators on policies with the flood buy-back endorsement.",
    ],
    "includes-closed": [{ includeClosed: true }, "Also lists closed claims."],
    "first-batch-only": [{ firstBatchOnly: true }, "Reads only the first field-notes batch."],
  },
});
