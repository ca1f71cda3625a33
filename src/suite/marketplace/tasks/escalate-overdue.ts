import { checkAnswerCount, checkStateDiff, defineTask } from "../../../envs/index.js";
import { marketplaceDomain } from "../domain.js";
import { ESCALATION_CODE } from "../rules.js";
import { TODAY_TEXT, overdueCases } from "./expectations.js";
import { OVERDUE_PY, deadlines } from "./overdue-responses.js";
import { MARKET_PY, STALE_TOKEN_PY } from "./python.js";

function cells({ deadline = deadlines.business, helpers = "", code = "" }): string[] {
  return [
    MARKET_PY + helpers,
    deadline +
      OVERDUE_PY +
      String.raw`
policy = read_text("policies/dispute-resolution.md")
code = "${code}" or re.search(r"reason code ([A-Z-]+[A-Z])", policy).group(1)
late = overdue_cases()
for case in late:
    url = f"/disputes/{case}"
    submit(get(url), url, f"{url}/actions", action="escalate", reason_code=code)
print(f"Escalated {len(late)} cases")
`,
  ];
}

export const escalateOverdueTask = defineTask({
  id: "marketplace.escalate-overdue",
  domain: marketplaceDomain,
  summary: "Escalate every case past the seller's response window with the policy's reason code.",
  instruction: `${TODAY_TEXT} Please escalate every case where the seller has missed the response deadline, the way the dispute-resolution policy says. Reply with how many you escalated, e.g. \`Escalated 4 cases\`.`,
  tools: ["browser_navigate", "browser_submit_form"],
  verify: ({ initial, final, answer }) => {
    const expected = overdueCases(initial);
    return [
      ...checkStateDiff(initial.db, final.db, [
        {
          table: "disputes",
          key: "dispute_id",
          changed: new Map(expected.map((id) => [id, { status: "escalated" }])),
        },
        {
          table: "dispute_actions",
          key: "action_id",
          added: expected.map((id) => ({
            dispute_id: id,
            action: "escalate",
            reason_code: ESCALATION_CODE,
            amount: null,
          })),
        },
      ]),
      checkAnswerCount(answer, expected.length),
    ];
  },
  oracle: cells({}),
  nearMisses: [
    {
      id: "calendar-days",
      description: "Counts the window in calendar days and escalates cases still within it.",
      cells: cells({ deadline: deadlines.calendar }),
    },
    {
      id: "stale-csrf-token",
      description:
        "Reuses the first form's CSRF token for every post and never reads the 403 page that comes back.",
      cells: cells({ helpers: STALE_TOKEN_PY }),
    },
    {
      id: "made-up-code",
      description: "Escalates with a reason code of its own instead of the policy's.",
      cells: cells({ code: "SELLER-NO-RESPONSE" }),
    },
  ],
});
