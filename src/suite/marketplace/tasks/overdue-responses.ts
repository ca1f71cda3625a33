import { check, defineTask, parseAnswerList } from "../../../envs/index.js";
import { marketplaceDomain } from "../domain.js";
import { TODAY_TEXT, overdueCases } from "./expectations.js";
import { FIRST_PAGE_PY, MARKET_PY } from "./python.js";

export const OVERDUE_PY = String.raw`
windows = {label: int(days) for label, days in md_table(read_text("policies/dispute-resolution.md"), "Seller response windows")}
def overdue_cases():
    late = []
    for row in listing("/disputes?status=awaiting_seller", "disputes"):
        doc = get(f"/disputes/{row['Case']}")
        if TODAY > DEADLINE(iso(doc.fields["Opened"]), windows[doc.fields["Reason"]]):
            late.append(row["Case"])
    return late
`;

/** The oracle's deadline, or a near-miss's: calendar days, or one window for every reason. */
export const deadlines = {
  business: "DEADLINE = lambda opened, days: add_business_days(opened, days)\n",
  calendar: "DEADLINE = lambda opened, days: opened + timedelta(days=days)\n",
  oneWindow: "DEADLINE = lambda opened, days: add_business_days(opened, 3)\n",
};

function cells(deadline: string, helpers = ""): string[] {
  return [MARKET_PY + helpers, deadline + OVERDUE_PY + "\nprint(json.dumps(sorted(overdue_cases())))\n"];
}

export const overdueResponsesTask = defineTask({
  id: "marketplace.overdue-responses",
  domain: marketplaceDomain,
  summary:
    "List the cases still awaiting the seller past their response window (business days, per reason, from the dispute policy).",
  instruction: `${TODAY_TEXT} Which dispute cases are past the seller's response deadline today? Use the response windows in our dispute-resolution policy and check the cases in the back office. Reply with a JSON list of case numbers, e.g. \`["DSP-20003", "DSP-20117"]\`.`,
  tools: ["browser_navigate"],
  verify: ({ initial, answer }) => {
    const expected = overdueCases(initial);
    const given = [
      ...new Set(parseAnswerList(answer).map((id) => id.replace(/["[\]\s]/g, "").toUpperCase())),
    ].sort();
    return [
      check(
        "answer-cases",
        JSON.stringify(given) === JSON.stringify(expected),
        `expected ${expected.length} cases: ${expected.join(", ")}`,
      ),
    ];
  },
  oracle: cells(deadlines.business),
  nearMisses: [
    {
      id: "calendar-days",
      description: "Counts the window in calendar days, not business days.",
      cells: cells(deadlines.calendar),
    },
    {
      id: "one-window",
      description: "Gives every case the item-not-received window.",
      cells: cells(deadlines.oneWindow),
    },
    {
      id: "first-page-only",
      description: "Reads only the first page of the listing.",
      cells: cells(deadlines.business, FIRST_PAGE_PY),
    },
  ],
});
