import { definePermitsTask } from "./python.js";
import { REFERENCE_DATE, check, checkStateDiff, getRow, requireFile } from "../../../envs/index.js";
import type { StateView } from "../../../envs/index.js";
import { INBOX, halfOf } from "../documents.js";
import { NAIVE_SUBMIT_PY } from "./python.js";

const FULL = String.raw`Approved\. Please waive fee #(\d+) .*? on permit (\S+) in full`;
const HALF = String.raw`Approved in part: waive half of fee #(\d+) .*? on permit (\S+?);`;

/** The waivers the Building Official approved in the inbox: fee id, permit and amount. */
export function approvedWaivers(
  state: StateView,
): Array<{ fee_id: number; permit_id: string; amount: number }> {
  const waivers = [];
  for (const path of state.listFiles().filter((file) => file.startsWith(INBOX))) {
    const text = requireFile(state, path);
    const full = new RegExp(FULL).exec(text);
    const found = full ?? new RegExp(HALF).exec(text);
    if (!found || !/^From: .*r\.solis@riverton\.gov/m.test(text)) continue;
    const { amount } = getRow<{ amount: number }>(
      state.db,
      "SELECT amount FROM fees WHERE fee_id = ?",
      found[1],
    )!;
    waivers.push({ fee_id: Number(found[1]), permit_id: found[2]!, amount: full ? amount : halfOf(amount) });
  }
  if (waivers.length === 0) throw new Error("generation produced no approved waiver");
  return waivers;
}

const OFFICIAL = String.raw`re.search(r"^From: .*r\.solis@riverton\.gov", text, re.M)`;

function cells({ sender = OFFICIAL, full = FULL, half = '"half"' }): string[] {
  return [
    String.raw`
approvals = []
for path, text in inbox():
    found = re.search(r"${full}", text, re.S)
    if ${sender} and found:
        approvals.append((found.group(1), found.group(2), "full"))
    elif ${sender} and re.search(r"${HALF}", text):
        found = re.search(r"${HALF}", text)
        approvals.append((found.group(1), found.group(2), ${half}))
total = 0.0
for fee, pid, share in approvals:
    rows = table(page(f"/permits/{pid}/fees"), "Fees")
    amount = usd(next(r["Amount"] for r in rows if r["Fee #"] == fee))
    amount = round(amount / 2 + 1e-9, 2) if share == "half" else amount
    submit(f"/permits/{pid}/fees/waiver", fee_id=fee, amount=f"{amount:.2f}", reason="Approved by the Building Official")
    total += amount
print(f"Recorded {len(approvals)} waivers totalling ${"$"}{total:,.2f}")
`,
  ];
}

export const recordFeeWaiversTask = definePermitsTask({
  id: "permits.record-fee-waivers",
  summary:
    "Record the fee waivers the Building Official approved in the inbox (in full or half), ignoring requests, staff recommendations and declines.",
  instruction:
    "Several fee-waiver threads are sitting in the shared inbox. Record on the portal every waiver that has actually been approved under the waiver rules in our fee schedule, for the approved amount. Don't record anything that wasn't approved. Reply with the total amount you waived, e.g. `Recorded 3 waivers totalling $237.50`.",
  tools: ["open_page", "submit_form"],
  verify: ({ initial, final, answer }) => {
    const expected = approvedWaivers(initial);
    const total = expected.reduce((sum, waiver) => sum + waiver.amount, 0);
    // The total is the last dollar amount of the reply (a reply may list each waiver before it).
    const stated = [...answer.matchAll(/\$\s*([\d,]*\d(?:\.\d+)?)/g)].at(-1)?.[1]?.replace(/,/g, "");
    const added = expected.map((waiver) => ({ ...waiver, recorded_on: REFERENCE_DATE }));
    return [
      ...checkStateDiff(initial.db, final.db, [{ table: "fee_waivers", key: "waiver_id", added }]),
      check(
        "answer-total",
        Math.abs(Number(stated) - total) < 0.006,
        `expected a total of $${total.toFixed(2)}`,
      ),
    ];
  },
  cells,
  nearMisses: {
    "accepts-recommendations": [
      {
        sender: "True",
        full: String.raw`waive .*?fee #(\d+) .*? on permit (\S+?)[:;.\s].*?in full`,
      },
      "Records a waiver a staff member only recommended, reading any 'waive ... in full'.",
    ],
    "half-as-full": [{ half: '"full"' }, "Waives the whole fee where half was approved."],
    "ignores-session-expired": [
      { helpers: NAIVE_SUBMIT_PY },
      "Does not read the page a form post returns, so a post answered with the session-expired page is lost.",
    ],
  },
});
