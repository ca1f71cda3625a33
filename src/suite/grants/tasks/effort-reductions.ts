import { checkAnswerIdLists, defineTask, type StateView } from "../../../envs/index.js";
import { grantsDomain } from "../domain.js";
import { readCertification, scans, termsByAward, nonEmpty } from "../facts.js";
import { KEY_ROLES } from "../rules.js";
import { grantsCells, nearMisses } from "./python.js";

/** Per award, the key people whose certified effort fell below their commitment by the sponsor's threshold or more. */
export function effortReductions(state: StateView): Map<string, string[]> {
  const terms = termsByAward(state);
  const sql = "SELECT award_id || '|' || person_id, role FROM commitments";
  const roles = new Map(state.db.prepare(sql).raw().all() as Array<[string, string]>);
  const found = new Map<string, string[]>();
  const certifications = scans(state, "effort_certification").map((doc) => readCertification(doc.text));
  for (const { person, rows } of certifications)
    for (const { award, committed, certified } of rows) {
      const limit = terms.get(award)!.effortPct;
      const key = KEY_ROLES.includes(roles.get(`${award}|${person}`) ?? "");
      if (limit !== null && key && ((committed - certified) / committed) * 100 >= limit - 1e-9)
        found.set(award, [...(found.get(award) ?? []), person]);
    }
  return nonEmpty(found, "effort reduction needing approval");
}

const cells = grantsCells(String.raw`
terms = sponsor_terms(policies())
awards = {a["award_id"]: a for a in fetch("list_awards", "awards")}
roles = {}
def role(award_id, person_id):
    if award_id not in roles:
        roles[award_id] = {c["person_id"]: c["role"] for c in call("get_award", award_id=award_id)["commitments"]}
    return roles[award_id].get(person_id)
found = {}
for doc in fetch("list_documents", "documents", doc_type="effort_certification"):
    cert = read_certification(doc_text(doc))
    for row in cert["rows"]:
        limit = terms[awards[row["award"]]["sponsor_id"]]["effort"]
        if limit is None or row["committed"] <= 0:
            continue
        if "all-roles" not in NEAR and role(row["award"], cert["person"]) not in ("PI", "co-I", "key"):
            continue
        drop = row["committed"] - row["certified"]
        if "percentage-points" not in NEAR:
            drop = drop / row["committed"] * 100
        if (drop > limit) if "strictly-more" in NEAR else (drop >= limit - 1e-9):
            found.setdefault(row["award"], []).append(cert["person"])
print(json.dumps({award: sorted(people) for award, people in sorted(found.items())}))
`);

export const effortReductionsTask = defineTask({
  id: "grants.effort-reductions",
  domain: grantsDomain,
  summary:
    "From the scanned Jul-Dec 2024 effort certifications, the key people whose certified effort fell by the sponsor's threshold (relative to the commitment) or more, for sponsors that require approval.",
  instruction:
    'Go through the Jul-Dec 2024 effort certifications in the document register and find every case where a person\'s certified effort on an award fell far enough below the effort committed that the award\'s sponsor requires its prior approval. Reply with only a JSON object mapping each such award ID to the sorted list of those people\'s IDs, e.g. {"AWD-10007": ["EMP-00102", "EMP-00131"]}.',
  tools: ["list_sponsors", "list_awards", "get_award", "list_documents", "get_document_page"],
  verify: ({ initial, answer }) => [checkAnswerIdLists(answer, effortReductions(initial))],
  oracle: cells([]),
  nearMisses: nearMisses(cells, [
    "strictly-more: Counts only reductions of more than the threshold, not one of exactly the threshold.",
    "percentage-points: Measures the reduction in percentage points of effort instead of relative to the commitment.",
    "all-roles: Applies the rule to everyone, not only to the PI and key personnel.",
    "reads-queued-pages: Takes a page still queued for OCR as the page's text.",
  ]),
});
