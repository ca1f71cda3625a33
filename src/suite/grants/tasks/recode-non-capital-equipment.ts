import { checkAnswerCount, checkStateDiff, defineTask, type StateView } from "../../../envs/index.js";
import { grantsDomain } from "../domain.js";
import { charges, termsByAward, nonEmpty } from "../facts.js";
import { EQUIPMENT_CODE, NON_CAPITAL_CODE, OBJECT_CODES } from "../rules.js";
import { grantsCells, nearMisses } from "./python.js";

/** Capital-equipment charges whose unit cost is under the threshold that applies to their award. */
export function nonCapitalCharges(state: StateView): string[] {
  const terms = termsByAward(state);
  const unit = (description: string): number =>
    Number(/@ \$([\d,.]+)/.exec(description)![1]!.replace(/,/g, ""));
  const found = charges(state, "object_code = ?", EQUIPMENT_CODE).filter(
    (charge) => unit(charge.description) < terms.get(charge.award_id)!.equipment,
  );
  return nonEmpty(found, "equipment charge to recode").map((charge) => charge.txn_id);
}

const cells = grantsCells(String.raw`
policy = policies()
terms = sponsor_terms(policy)
awards = {a["award_id"]: a for a in fetch("list_awards", "awards")}
recoded = 0
for t in fetch("list_transactions", "transactions", object_code="5510"):
    found = re.search(r"Qty (\d+) @ \$([\d,]+\.\d\d)", t["description"])
    if t["status"] != "posted" or not found:
        continue
    unit = t["amount"] if "total-not-unit" in NEAR else dollars(found.group(2))
    limit = terms[awards[t["award_id"]]["sponsor_id"]]["equipment"]
    if "university-threshold" in NEAR:
        limit = policy["equipment"]
    if (unit <= limit) if "at-threshold" in NEAR else (unit < limit):
        call("recode_transaction", txn_id=t["txn_id"], object_code="5340")
        recoded += 1
print(f"Recoded {recoded} charges")
`);

export const recodeNonCapitalEquipmentTask = defineTask({
  id: "grants.recode-non-capital-equipment",
  domain: grantsDomain,
  summary:
    "Recode capital-equipment charges whose unit cost (from the description) is under the applicable threshold: the sponsor's when its terms set one, else the university's.",
  instruction:
    "Review the capital equipment charges (object code 5510) on all awards and recode every one that doesn't meet the equipment threshold that applies to its award, as our procedures say. Reply with the number of charges you recoded, e.g. `Recoded 4 charges`.",
  tools: ["list_sponsors", "list_awards", "list_transactions", "recode_transaction"],
  verify: ({ initial, final, answer }) => {
    const expected = nonCapitalCharges(initial);
    const recoded = { object_code: NON_CAPITAL_CODE, category: OBJECT_CODES[NON_CAPITAL_CODE]!.category };
    const changed = new Map(expected.map((id) => [id, recoded]));
    const diff = checkStateDiff(initial.db, final.db, [{ table: "transactions", key: "txn_id", changed }]);
    return [...diff, checkAnswerCount(answer, expected.length)];
  },
  oracle: cells([]),
  nearMisses: nearMisses(cells, [
    "total-not-unit: Compares the charge's total with the threshold instead of the unit cost.",
    "at-threshold: Recodes an item that costs exactly the threshold.",
    "university-threshold: Uses the university's threshold for every award, ignoring sponsors that set their own.",
  ]),
});
