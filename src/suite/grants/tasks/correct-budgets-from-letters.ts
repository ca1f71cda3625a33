import { allRows, checkAnswerCount, checkStateDiff, defineTask } from "../../../envs/index.js";
import { type StateView } from "../../../envs/index.js";
import { grantsDomain } from "../domain.js";
import { readLetter, scans, nonEmpty } from "../facts.js";
import { grantsCells, nearMisses } from "./python.js";

/** The budget lines that differ from the award's latest notice: changed lines by rowid, missing lines added. */
export function budgetCorrections(state: StateView) {
  const latest = new Map<string, ReturnType<typeof readLetter>>();
  for (const letter of scans(state, "award_letter").map((doc) => readLetter(doc.text)))
    if ((latest.get(letter.award)?.amendment ?? -1) < letter.amendment) latest.set(letter.award, letter);
  type Line = { id: number; award_id: string; category: string; amount: number };
  const rows = allRows<Line>(state.db, "SELECT rowid AS id, * FROM budget_lines");
  const lines = new Map(rows.map((line) => [`${line.award_id}|${line.category}`, line]));
  const changed = new Map<number, { amount: number }>();
  const added: Array<Omit<Line, "id">> = [];
  for (const [award_id, letter] of latest)
    for (const [category, amount] of letter.budget) {
      const line = lines.get(`${award_id}|${category}`);
      if (!line) added.push({ award_id, category, amount });
      else if (Math.abs(line.amount - amount) > 0.005) changed.set(line.id, { amount });
    }
  return { changed: nonEmpty(changed, "budget line to correct"), added };
}

const cells = grantsCells(String.raw`
letters = {}
for doc in fetch("list_documents", "documents", doc_type="award_letter"):
    letter = read_letter(doc_text(doc))
    if letter["award"]:
        letters.setdefault(letter["award"], []).append(letter)
fixed = 0
for award_id, found in sorted(letters.items()):
    letter = (min if "original-notice" in NEAR else max)(found, key=lambda item: item["amendment"])
    budget = {line["category"]: line["amount"] for line in call("get_award", award_id=award_id)["budget"]}
    for category, amount in letter["budget"].items():
        if amount is not None and abs(budget.get(category, -1) - amount) > 0.005:
            call("set_budget_line", award_id=award_id, category=category, amount=amount)
            fixed += 1
print(f"Corrected {fixed} budget lines")
`);

export const correctBudgetsFromLettersTask = defineTask({
  id: "grants.correct-budgets-from-letters",
  domain: grantsDomain,
  summary:
    "Make every award's budget lines match its latest scanned notice of award (amendments supersede; the table runs onto page 2; OCR misreads amounts).",
  instruction:
    "Our budget lines were keyed by hand from the scanned notices of award, and some are wrong. For every award, make each budget line in the grants system match the approved budget of the award's latest notice (an amendment supersedes earlier notices). Reply with the number of budget lines you corrected, e.g. `Corrected 5 budget lines`.",
  tools: ["list_awards", "get_award", "list_documents", "get_document_page", "set_budget_line"],
  verify: ({ initial, final, answer }) => {
    const { changed, added } = budgetCorrections(initial);
    const diff = checkStateDiff(initial.db, final.db, [{ table: "budget_lines", changed, added }]);
    return [...diff, checkAnswerCount(answer, changed.size + added.length)];
  },
  oracle: cells([]),
  nearMisses: nearMisses(cells, [
    "original-notice: Keys each award from its original notice, ignoring amendments.",
    "naive-amount: Reads amounts with a plain number pattern, so a misread amount ('12,4 50.00', 'l2,450.00') comes out wrong.",
    "first-page-of-notice: Reads only the first page of each notice, where the budget table starts.",
    "reads-queued-pages: Takes a page still queued for OCR as the page's text.",
  ]),
});
