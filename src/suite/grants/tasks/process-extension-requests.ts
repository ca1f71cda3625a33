import { check, checkStateDiff, daysBetween, defineTask, type StateView } from "../../../envs/index.js";
import { grantsDomain } from "../domain.js";
import { awardsOf, readRequest, readTerms, scans } from "../facts.js";
import { grantsCells, nearMisses } from "./python.js";

const monthsBetween = (from: string, to: string): number =>
  (Number(to.slice(0, 4)) - Number(from.slice(0, 4))) * 12 +
  Number(to.slice(5, 7)) -
  Number(from.slice(5, 7));

/** Each pending request: the award, the end date asked for and whether the sponsor's terms let the university approve it. */
export function extensionDecisions(state: StateView) {
  const terms = readTerms(state);
  const awards = awardsOf(state);
  const decisions = scans(state, "extension_request")
    .filter((doc) => doc.status === "pending")
    .map((doc) => {
      const request = readRequest(doc.text);
      const award = awards.get(request.award)!;
      const rule = terms.get(award.sponsor_id)!.extension;
      const approve =
        rule !== null &&
        award.extensions === 0 &&
        monthsBetween(award.end_date, request.newEnd) <= rule.months &&
        daysBetween(doc.received_on, award.end_date) >= rule.noticeDays;
      return { award_id: request.award, newEnd: request.newEnd, extensions: award.extensions, approve };
    });
  if (!decisions.some((item) => item.approve) || decisions.every((item) => item.approve))
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
        months, notice = rule
        asked = months_between(award["end_date"], request["new_end"])
        granted = asked < months if "strict-months" in NEAR else asked <= months
        if "ignore-notice" not in NEAR:
            granted = granted and (date.fromisoformat(award["end_date"]) - date.fromisoformat(doc["received_on"])).days >= notice
        if "ignore-prior" not in NEAR:
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
    const granted = decisions.filter((item) => item.approve);
    const stated = (/extended:?(.*?)(?:referred|$)/is.exec(answer)?.[1] ?? "").match(/AWD-\d{5}/g) ?? [];
    const expected = granted.map((item) => item.award_id).sort();
    return [
      ...checkStateDiff(initial.db, final.db, [
        {
          table: "awards",
          key: "award_id",
          changed: new Map(
            granted.map((item) => [
              item.award_id,
              { end_date: item.newEnd, extensions: item.extensions + 1 },
            ]),
          ),
        },
        {
          table: "award_actions",
          key: "action_id",
          added: decisions.map((item) => ({
            award_id: item.award_id,
            action: item.approve ? "no_cost_extension" : "referred_to_sponsor",
          })),
        },
      ]),
      check(
        "answer-extended",
        [...new Set(stated)].sort().join() === expected.join(),
        `expected the reply to name as extended: ${expected.join(", ")}`,
      ),
    ];
  },
  oracle: cells([]),
  nearMisses: nearMisses(cells, [
    [
      "ignores-earlier-extension",
      "Grants a second extension although the terms allow the university only one.",
      "ignore-prior",
    ],
    [
      "ignores-notice",
      "Does not check that the request arrived the required number of days before the award ends.",
      "ignore-notice",
    ],
    ["strict-months", "Refers a request for exactly the number of months the terms allow.", "strict-months"],
    [
      "federal-limits",
      "Applies the federal terms' months and notice to every sponsor that allows extensions.",
      "federal-limits",
    ],
    [
      "reads-queued-pages",
      "Takes a page still queued for OCR as the page's text and skips the request.",
      "queued",
    ],
  ]),
});
