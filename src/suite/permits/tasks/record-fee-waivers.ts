import { REFERENCE_DATE, allRows, check, checkStateDiff, defineTask, nearlyEqual, sumCents } from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { INBOX, halfOf } from "../documents.js";
import { permitsDomain } from "../domain.js";
import { requireFile } from "./expectations.js";
import { PERMITS_PY } from "./python.js";

/** The waivers the Building Official approved in the inbox: fee id, permit and amount. */
export function approvedWaivers(state: StateView): Array<{ fee_id: number; permit_id: string; amount: number }> {
  const fees = new Map(
    allRows<{ fee_id: number; amount: number }>(state.db, "SELECT fee_id, amount FROM fees").map((row) => [row.fee_id, row.amount]),
  );
  const waivers: Array<{ fee_id: number; permit_id: string; amount: number }> = [];
  for (const path of state.listFiles().filter((file) => file.startsWith(INBOX)).sort()) {
    const text = requireFile(state, path);
    if (!/^From: .*r\.solis@riverton\.gov/m.test(text)) continue;
    const full = /Approved\. Please waive fee #(\d+) .*? on permit (\S+) in full/.exec(text);
    const half = /Approved in part: waive half of fee #(\d+) .*? on permit (\S+?);/.exec(text);
    const found = full ?? half;
    if (!found) continue;
    const amount = fees.get(Number(found[1]));
    if (amount === undefined) throw new Error(`${path} names an unknown fee`);
    waivers.push({ fee_id: Number(found[1]), permit_id: found[2]!, amount: full ? amount : halfOf(amount) });
  }
  return waivers;
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const expected = approvedWaivers(initial);
  if (expected.length === 0) throw new Error("generation produced no approved waiver");
  const total = sumCents(expected.map((waiver) => waiver.amount));
  const stated = /\$\s*([\d,]+\.\d{2})/.exec(answer);
  return [
    ...checkStateDiff(initial.db, final.db, [
      { table: "fee_waivers", key: "waiver_id", added: expected.map((waiver) => ({ ...waiver, recorded_on: REFERENCE_DATE })) },
    ]),
    check(
      "answer-total",
      stated !== null && nearlyEqual(Number(stated[1]!.replace(/,/g, "")), total),
      `expected a total of $${total.toFixed(2)}`,
    ),
  ];
}

interface Variant {
  acceptRecommendations?: boolean;
  halfAsFull?: boolean;
  noSubmitCheck?: boolean;
}

function cells(variant: Variant): string[] {
  const sender = variant.acceptRecommendations ? "True" : 're.search(r"^From: .*r\\.solis@riverton\\.gov", text, re.M)';
  const full = variant.acceptRecommendations
    ? String.raw`re.search(r"waive (?:fee #|.*?fee #)(\d+) .*? on permit (\S+?)[:;.\s].*?in full", text, re.S)`
    : String.raw`re.search(r"Approved\. Please waive fee #(\d+) .*? on permit (\S+) in full", text)`;
  const post = variant.noSubmitCheck
    ? 'tools.submit_form(url=f"/permits/{pid}/fees/waiver", fields={"fee_id": fee, "amount": f"{amount:.2f}", "reason": "Approved by the Building Official"})'
    : 'submit(f"/permits/{pid}/fees/waiver", fee_id=fee, amount=f"{amount:.2f}", reason="Approved by the Building Official")';
  return [
    PERMITS_PY,
    String.raw`
approvals = []
for path, text in inbox():
    if not (${sender}):
        continue
    found = ${full}
    if found:
        approvals.append((found.group(1), found.group(2), "full"))
        continue
    found = re.search(r"Approved in part: waive half of fee #(\d+) .*? on permit (\S+?);", text)
    if found:
        approvals.append((found.group(1), found.group(2), "${variant.halfAsFull ? "full" : "half"}"))
print(approvals)
`,
    String.raw`
total = 0.0
for fee, pid, share in approvals:
    rows = table(page(f"/permits/{pid}/fees"), "Fees")
    amount = usd(next(r["Amount"] for r in rows if r["Fee #"] == fee))
    if share == "half":
        amount = round(amount / 2 + 1e-9, 2)
    ${post}
    total += amount
print(f"Recorded {len(approvals)} waivers totalling ${"$"}{total:,.2f}")
`,
  ];
}

export const recordFeeWaiversTask = defineTask({
  id: "permits.record-fee-waivers",
  domain: permitsDomain,
  summary:
    "Record the fee waivers the Building Official approved in the inbox (in full or half), ignoring requests, staff recommendations and declines.",
  instruction:
    "Several fee-waiver threads are sitting in the shared inbox. Record on the portal every waiver that has actually been approved under the waiver rules in our fee schedule, for the approved amount. Don't record anything that wasn't approved. Reply with the total amount you waived, e.g. `Recorded 3 waivers totalling $237.50`.",
  tools: ["open_page", "submit_form"],
  verify,
  oracle: cells({}),
  nearMisses: [
    {
      id: "accepts-recommendations",
      description: "Records a waiver a staff member only recommended (or an applicant requested).",
      cells: cells({ acceptRecommendations: true }),
    },
    { id: "half-as-full", description: "Waives the whole fee where only half was approved.", cells: cells({ halfAsFull: true }) },
    {
      id: "ignores-session-expired",
      description: "Does not read the page a form post returns, so a post answered with the session-expired page is lost.",
      cells: cells({ noSubmitCheck: true }),
    },
  ],
});

