import { defineNewsroomTask } from "./python.js";
import {
  addDays,
  allRows,
  checkAnswerTotal,
  checkStateDiff,
  roundCents,
  type GenerateContext,
} from "../../../envs/index.js";
import { PATHS } from "../rules.js";
import { pendingFees } from "./expectations.js";

/** Plants, among the unpaid commissions, one killed before filing and one article filed over its length. */
function prepare({ db }: GenerateContext): void {
  const unpaid = allRows<{ commission_id: string; agreed_on: string; kind: string }>(
    db,
    `SELECT commission_id, agreed_on, kind FROM commissions c
      WHERE NOT EXISTS (SELECT 1 FROM payments p WHERE p.commission_id = c.commission_id) ORDER BY commission_id`,
  );
  const killed = unpaid[0];
  const overLength = unpaid.find((row) => row.kind === "article" && row !== killed);
  if (!killed || !overLength)
    throw new Error("no unpaid commissions to plant the kill-fee and over-length cases");
  db.prepare(
    "UPDATE commissions SET status = 'killed', filed_units = NULL, filed_on = NULL, killed_on = ? WHERE commission_id = ?",
  ).run(addDays(killed.agreed_on, 3), killed.commission_id);
  db.prepare(
    "UPDATE commissions SET status = 'filed', filed_units = commissioned_units + 150, filed_on = ?, killed_on = NULL WHERE commission_id = ?",
  ).run(addDays(overLength.agreed_on, 4), overLength.commission_id);
}

/** The oracle's fee rules in Python, read from the rate card and agreements; variants break one rule each. */
export function feeCells({ ignoreAgreements = false, flatKillFee = false, payFiledLength = false }): string {
  return `card = read_text("${PATHS.rateCard}")
print(card)
tiers = {}
for row in re.findall(r"^\\|\\s*([ABC])\\s*\\|\\s*([\\d.]+)\\s*\\|\\s*([\\d.]+)\\s*\\|", card, re.M):
    tiers[row[0]] = (float(row[1]), float(row[2]))
minimum = money(re.search(r"never less than (\\$[\\d,]+\\.\\d\\d)", card).group(1))
kill_filed = int(re.search(r"kill fee: (\\d+)%", card).group(1))
kill_unfiled = int(re.search(r", (\\d+)% when it had not", card).group(1))
agreements = {}
for path in workspace_files("${PATHS.agreementsDir}"):
    text = read_text(path)
    rates = re.search(r"Articles: (\\$[\\d,]+\\.\\d\\d) per word\\. Photos: (\\$[\\d,]+\\.\\d\\d) per image", text)
    agreements[re.search(r"\\((FL-\\d{4})\\)", text).group(1)] = (money(rates.group(1)), money(rates.group(2)))
print(tiers, minimum, kill_filed, kill_unfiled, agreements)
freelancers = {f["freelancer_id"]: f for f in fetch_all("list_freelancers", "freelancers")}

def fee(c):
    f = freelancers[c["freelancer_id"]]
    per_word, per_image = ${ignoreAgreements ? "tiers[f['tier']]" : "agreements.get(f['freelancer_id'], tiers[f['tier']])"}
    rate = per_word if c["kind"] == "article" else per_image
    if c["status"] == "killed":
        pct = ${flatKillFee ? "kill_filed" : 'kill_filed if c["filed_on"] else kill_unfiled'}
        return round(rate * c["commissioned_units"] * pct / 100 + 1e-9, 2)
    units = ${payFiledLength ? 'c["filed_units"]' : 'min(c["filed_units"], c["commissioned_units"])'}
    amount = round(rate * units + 1e-9, 2)
    return max(amount, minimum) if c["kind"] == "article" else amount`;
}

function cells(variant: Parameters<typeof feeCells>[0]): string[] {
  return [
    feeCells(variant),
    `paid = {p["commission_id"] for p in fetch_all("list_payments", "payments")}
total = 0.0
for status in ("filed", "killed"):
    for c in fetch_all("list_commissions", "commissions", status=status):
        if c["commission_id"] in paid:
            continue
        amount = fee(c)
        tools.approve_payment(commission_id=c["commission_id"], amount=amount, note="per rate card")
        total += amount
print(f"\${total:,.2f}")`,
  ];
}

export const freelancerPaymentsTask = defineNewsroomTask({
  id: "newsroom.freelancer-payments",
  summary:
    "Approve payments for filed and killed freelance commissions per the rate card, kill fees and negotiated agreements.",
  instruction:
    "Clear the freelance payment backlog: approve one payment for every commission that has been filed or killed and has no payment yet, for the amount our freelance rate card allows. Don't pay anything else. Reply with only the total amount you approved, in dollars (e.g. $1,234.50).",
  tools: ["list_commissions", "list_freelancers", "list_payments", "approve_payment", "get_story"],
  prepare,
  verify: ({ initial, final, answer }) => {
    const expected = pendingFees(initial);
    if (expected.length === 0) throw new Error("generation produced no payable commission");
    const total = roundCents(expected.reduce((sum, row) => sum + row.fee, 0));
    const added = expected.map(({ commission_id, freelancer_id, fee }) => ({
      commission_id,
      freelancer_id,
      amount: fee,
      status: "approved",
    }));
    return [
      ...checkStateDiff(initial.db, final.db, [{ table: "payments", key: "payment_id", added }]),
      checkAnswerTotal(answer, total),
    ];
  },
  cells,
  nearMisses: {
    "ignores-agreements": [
      { ignoreAgreements: true },
      "Pays every contributor at the tier rates, ignoring signed agreements.",
    ],
    "flat-kill-fee": [
      { flatKillFee: true },
      "Pays the after-filing kill fee on work killed before it was filed.",
    ],
    "pays-overlength": [{ payFiledLength: true }, "Pays filed copy beyond the commissioned length."],
  },
});
