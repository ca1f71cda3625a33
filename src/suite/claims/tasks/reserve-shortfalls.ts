import {
  CORRECT,
  allRows,
  defineTask,
  parseAnswerNumber,
  roundCents,
  type Check,
  type GenerateContext,
  type StateView,
  type VerifyContext,
  variantNearMisses,
} from "../../../envs/index.js";
import { claimsDomain } from "../domain.js";
import { MINIMUM_RESERVES, RESERVE_GUIDELINE_PATH, parseReserveGuideline } from "../rules.js";
import { PYTHON_SETUP, answerListCheck, answerTotalCheck, claimChanges, deskNotes } from "./common.js";

/**
 * Plants the cases the guideline's wording decides: an open claim below its minimum whose first reserve
 * write the reserving service drops (claim number % 6 === 1), an open catastrophe claim below its minimum
 * (out of scope) and an open claim reserved exactly at its minimum (adequate).
 */
function prepare(context: GenerateContext): void {
  const { db } = context;
  const open = allRows<{ claim_id: string; cause_of_loss: string; cat_code: string | null }>(
    db,
    "SELECT claim_id, cause_of_loss, cat_code FROM claims WHERE status = 'open' ORDER BY claim_id",
  );
  const minimum = (cause: string): number => MINIMUM_RESERVES[cause] ?? 3000;
  const setReserve = db.prepare("UPDATE claims SET reserve = ? WHERE claim_id = ?");
  const used = new Set<string>();
  const take = (predicate: (claim: (typeof open)[number]) => boolean, what: string) => {
    const claim = open.find((candidate) => !used.has(candidate.claim_id) && predicate(candidate));
    if (!claim) throw new Error(`no open claim for ${what}`);
    used.add(claim.claim_id);
    return claim;
  };
  const dropped = take(
    (claim) => claim.cat_code === null && Number(claim.claim_id.slice(4)) % 6 === 1,
    "a dropped reserve write",
  );
  setReserve.run(Math.round((minimum(dropped.cause_of_loss) * 0.6) / 50) * 50, dropped.claim_id);
  const catastrophe =
    open.find((claim) => claim.cat_code !== null && !used.has(claim.claim_id)) ??
    take((claim) => claim.cat_code === null && Number(claim.claim_id.slice(4)) % 6 !== 1, "a CAT claim");
  used.add(catastrophe.claim_id);
  if (catastrophe.cat_code === null)
    db.prepare("UPDATE claims SET cat_code = 'CAT-24-09' WHERE claim_id = ?").run(catastrophe.claim_id);
  setReserve.run(Math.round((minimum(catastrophe.cause_of_loss) * 0.5) / 50) * 50, catastrophe.claim_id);
  const exact = take((claim) => claim.cat_code === null, "a reserve at its minimum");
  setReserve.run(minimum(exact.cause_of_loss), exact.claim_id);
}

/** Open claims outside any catastrophe whose reserve is below the guideline minimum for their cause. */
export function reserveShortfalls(state: StateView): Map<string, { reserve: number; minimum: number }> {
  const minimums = parseReserveGuideline(state.readFile(RESERVE_GUIDELINE_PATH) ?? "");
  if (minimums.size === 0) throw new Error("the reserve guideline lost its minimums");
  const shortfalls = new Map<string, { reserve: number; minimum: number }>();
  for (const claim of allRows<{ claim_id: string; cause_of_loss: string; reserve: number }>(
    state.db,
    "SELECT claim_id, cause_of_loss, reserve FROM claims WHERE status = 'open' AND cat_code IS NULL ORDER BY claim_id",
  )) {
    const minimum = minimums.get(claim.cause_of_loss);
    if (minimum !== undefined && claim.reserve < minimum)
      shortfalls.set(claim.claim_id, { reserve: claim.reserve, minimum });
  }
  return shortfalls;
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const expected = reserveShortfalls(initial);
  if (expected.size === 0) throw new Error("generation produced no reserve shortfall");
  const increase = roundCents(
    [...expected.values()].reduce((sum, row) => sum + row.minimum - row.reserve, 0),
  );
  return [
    ...claimChanges(
      { initial, final },
      [...expected].map(([claim, row]) => [claim, { reserve: row.minimum }]),
      deskNotes(expected.keys()),
    ),
    answerListCheck("answer-lists-raised", answer, "raised", [...expected.keys()]),
    answerTotalCheck("answer-total-increase", answer, "total_increase", increase, (given) =>
      typeof given === "number" ? given : parseAnswerNumber(String(given ?? "")),
    ),
  ];
}

interface Variant {
  ignoreStatusErrors?: boolean;
  includeCatastrophes?: boolean;
  raiseAtMinimum?: boolean;
}

function cells(variant: Variant = {}): string[] {
  const write = variant.ignoreStatusErrors
    ? `def raise_reserve(claim_id, amount):
    tools.set_reserve(claim_id=claim_id, reserve=amount, reason="raised to the guideline minimum")`
    : `def raise_reserve(claim_id, amount):
    for attempt in range(4):
        result = tools.set_reserve(claim_id=claim_id, reserve=amount, reason="raised to the guideline minimum")
        if result.get("status") != "error" and result.get("claim", {}).get("reserve") == amount:
            return
        print("retrying", claim_id, "after:", result.get("error"))
    raise RuntimeError(f"reserve of {claim_id} not saved")`;
  return [
    PYTHON_SETUP,
    String.raw`
guideline = read_text("guidelines/reserve-guideline.md")
print(guideline)
minimum = {cause: float(amount.replace("$", "").replace(",", "")) for cause, amount in md_table(guideline, "Minimum reserves")}
claims = fetch_all("list_claims", "claims", status="open")
print(len(claims), "open claims")
` + write,
    String.raw`
raised, increase = [], 0.0
for claim in claims:
    if ${variant.includeCatastrophes ? "False" : 'claim["cat_code"]'}:
        continue
    floor = minimum.get(claim["cause_of_loss"])
    if floor is None or claim["reserve"] ${variant.raiseAtMinimum ? ">" : ">="} floor:
        continue
    raise_reserve(claim["claim_id"], floor)
    raised.append(claim["claim_id"])
    increase += floor - claim["reserve"]
print(len(raised), "reserves raised")
`,
    `print(json.dumps({"raised": raised, "total_increase": round(increase + 1e-9, 2)}))`,
  ];
}

export const reserveShortfallsTask = defineTask({
  id: "claims.reserve-shortfalls",
  domain: claimsDomain,
  summary:
    "Raise every in-scope open claim's case reserve to the guideline minimum for its cause (catastrophe claims out of scope); the reserving service drops some writes with an error body that is not an MCP error.",
  instruction:
    'Please run the case reserve review from our reserve guideline: every open claim that the guideline puts in scope and whose reserve is below the minimum for its cause of loss gets its reserve raised to exactly that minimum. Leave every other claim alone. Reply with only a JSON object {"raised": [<ids of the claims whose reserve you raised>], "total_increase": <sum of the increases in dollars, rounded to cents>}.',
  tools: ["list_claims", "get_claim", "list_policies", "get_policy", "set_reserve"],
  prepare,
  verify,
  oracle: cells(),
  nearMisses: variantNearMisses(cells, CORRECT, {
    "ignores-silent-errors": [
      { ignoreStatusErrors: true },
      "Does not check what set_reserve returned, so dropped writes go unnoticed.",
    ],
    "includes-catastrophe-claims": [
      { includeCatastrophes: true },
      "Raises reserves of claims tagged to a catastrophe, which the CAT desk reserves in bulk.",
    ],
    "raises-at-minimum": [
      { raiseAtMinimum: true },
      "Also re-reserves claims whose reserve already equals the minimum.",
    ],
  }),
});
