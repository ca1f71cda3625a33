import { checkProblems, checkStateDiff, daysBetween, defineTask } from "../../../envs/index.js";
import { type StateView } from "../../../envs/index.js";
import { grantsDomain } from "../domain.js";
import { awardsOf, readRequest, scans, termsByAward } from "../facts.js";
import { grantsCells, nearMisses } from "./python.js";

const months = (from: string, to: string): number =>
  (+to.slice(0, 4) - +from.slice(0, 4)) * 12 + +to.slice(5, 7) - +from.slice(5, 7);

/** Each pending request: the award, the end date asked for and whether the sponsor's terms let the university grant it. */
export function extensionDecisions(state: StateView) {
  const [terms, awards] = [termsByAward(state), awardsOf(state)];
  const decisions = scans(state, "extension_request").map(({ text, received_on }) => {
    const { award: id, newEnd } = readRequest(text);
    const [rule, award] = [terms.get(id)!.extension, awards.get(id)!];
    const notice = rule !== null && daysBetween(received_on, award.end_date) >= rule.noticeDays;
    const grant = notice && award.extensions === 0 && months(award.end_date, newEnd) <= rule.months;
    return { award_id: id, newEnd, extensions: award.extensions, grant };
  });
  if (decisions.every((item) => item.grant) || !decisions.some((item) => item.grant))
    throw new Error("generation produced no mix of extensions to grant and refer");
  return decisions;
}

const cells = grantsCells(String.raw`
terms = sponsor_terms(policies())
awards = {a["award_id"]: a for a in fetch("list_awards", "awards")}
federal = next(t for t in terms.values() if t["type"] == "federal")
extended, referred = [], []
for doc in fetch("list_documents", "documents", doc_type="extension_request", status="pending"):
    request = read_request(doc_text(doc))
    if request is None:
        continue
    award = awards[request["award"]]
    rule = terms[award["sponsor_id"]]["extension"]
    if "federal-limits" in NEAR and rule:
        rule = federal["extension"]
    granted = rule is not None
    if granted:
        most, notice = rule
        asked = months_between(award["end_date"], request["new_end"])
        granted = asked < most if "strict-months" in NEAR else asked <= most
        if "ignores-notice" not in NEAR:
            granted = granted and (date.fromisoformat(award["end_date"]) - date.fromisoformat(doc["received_on"])).days >= notice
        if "ignores-earlier-extension" not in NEAR:
            granted = granted and award["extensions"] == 0
    if granted:
        call("extend_award", award_id=award["award_id"], new_end_date=request["new_end"])
        extended.append(award["award_id"])
    else:
        call("refer_extension_to_sponsor", award_id=award["award_id"], note="Outside what the sponsor's terms let the university approve")
        referred.append(award["award_id"])
print(f"Extended: {', '.join(extended) or 'none'}; referred: {', '.join(referred) or 'none'}")
`);

export const processExtensionRequestsTask = defineTask({
  id: "grants.process-extension-requests",
  domain: grantsDomain,
  summary:
    "Grant or refer each scanned no-cost-extension request by its sponsor's terms: months allowed, notice before the end date, no earlier extension; some sponsors allow none.",
  instruction:
    "Process the pending no-cost extension requests in the document register. Where the sponsor's terms let the university approve a request, extend the award to the requested end date; otherwise refer the request to the sponsor. Reply with the awards you extended and those you referred, e.g. `Extended: AWD-10007, AWD-10056; referred: AWD-10014`.",
  tools: [
    "list_sponsors",
    "list_awards",
    "list_documents",
    "get_document_page",
    "extend_award",
    "refer_extension_to_sponsor",
  ],
  verify: ({ initial, final, answer }) => {
    const decisions = extensionDecisions(initial);
    const granted = decisions.filter((item) => item.grant);
    const changed = new Map(
      granted.map((item) => [item.award_id, { end_date: item.newEnd, extensions: item.extensions + 1 }]),
    );
    const actions = decisions.map((item) => ({
      award_id: item.award_id,
      action: item.grant ? "no_cost_extension" : "referred_to_sponsor",
    }));
    const stated = new Set((/extended:?(.*?)(?:referred|$)/is.exec(answer)?.[1] ?? "").match(/AWD-\d{5}/g));
    const wrong = decisions
      .filter((item) => item.grant !== stated.has(item.award_id))
      .map((item) => item.award_id);
    return [
      ...checkStateDiff(initial.db, final.db, [
        { table: "awards", key: "award_id", changed },
        { table: "award_actions", key: "action_id", added: actions },
      ]),
      checkProblems(
        "answer-extended",
        wrong.length > 0 ? [`the reply is wrong about ${wrong.join(", ")}`] : [],
        "ok",
      ),
    ];
  },
  oracle: cells([]),
  nearMisses: nearMisses(cells, [
    "ignores-earlier-extension: Grants a second extension although the terms allow the university only one.",
    "ignores-notice: Does not check that the request arrived the required number of days before the award ends.",
    "strict-months: Refers a request for exactly the number of months the terms allow.",
    "federal-limits: Applies the federal terms' months and notice to every sponsor that allows extensions.",
    "reads-queued-pages: Takes a page still queued for OCR as the page's text and skips the request.",
  ]),
});
