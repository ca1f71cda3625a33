import { allRows, defineTask, type StateView } from "../../../envs/index.js";
import { grantsDomain } from "../domain.js";
import { awardsOf, readCertification, readTerms, scans } from "../facts.js";
import { KEY_ROLES } from "../rules.js";
import { checkIdLists } from "./expect.js";
import { grantsCells, nearMisses } from "./python.js";

/** Per award, the key people whose certified effort fell below their commitment by the sponsor's threshold or more. */
export function effortReductions(state: StateView): Map<string, string[]> {
  const terms = readTerms(state);
  const awards = awardsOf(state);
  const roles = new Map(
    allRows<{ award_id: string; person_id: string; role: string }>(state.db, "SELECT * FROM commitments").map(
      (row) => [`${row.award_id}|${row.person_id}`, row.role],
    ),
  );
  const found = new Map<string, string[]>();
  for (const doc of scans(state, "effort_certification")) {
    const { person, rows } = readCertification(doc.text);
    for (const row of rows) {
      const limit = terms.get(awards.get(row.award)!.sponsor_id)!.effortPct;
      if (limit === null || !KEY_ROLES.includes(roles.get(`${row.award}|${person}`) ?? "")) continue;
      if (((row.committed - row.certified) / row.committed) * 100 >= limit - 1e-9)
        found.set(row.award, [...(found.get(row.award) ?? []), person].sort());
    }
  }
  if (found.size === 0) throw new Error("generation produced no effort reduction needing approval");
  return found;
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
        if "points" not in NEAR:
            drop = drop / row["committed"] * 100
        if (drop > limit) if "strict" in NEAR else (drop >= limit - 1e-9):
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
  verify: ({ initial, answer }) => [checkIdLists(answer, effortReductions(initial))],
  oracle: cells([]),
  nearMisses: nearMisses(cells, [
    [
      "strictly-more",
      "Counts only reductions of more than the threshold, not one of exactly the threshold.",
      "strict",
    ],
    [
      "percentage-points",
      "Measures the reduction in percentage points of effort instead of relative to the commitment.",
      "points",
    ],
    ["all-roles", "Applies the rule to everyone, not only to the PI and key personnel.", "all-roles"],
    ["reads-queued-pages", "Takes a page still queued for OCR as the page's text.", "queued"],
  ]),
});
