import {
  addDays,
  check,
  checkStateDiff,
  defineTask,
  parseAnswerNumber,
  roundCents,
  type GenerateContext,
} from "../../../envs/index.js";
import { newsroomDomain } from "../domain.js";
import { PATHS } from "../rules.js";
import { pendingFees } from "./expectations.js";
import { NEWSROOM_PY } from "./python.js";

/** Plants a commission killed before filing, and filed copy over the commissioned length, both unpaid. */
function prepare(context: GenerateContext): void {
  const { db } = context;
  const open = db
    .prepare(
      "SELECT commission_id, agreed_on FROM commissions WHERE status = 'commissioned' ORDER BY commission_id LIMIT 1",
    )
    .get() as { commission_id: string; agreed_on: string } | undefined;
  const filed = db
    .prepare(
      `SELECT commission_id FROM commissions c WHERE status = 'filed' AND kind = 'article'
         AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.commission_id = c.commission_id) ORDER BY commission_id LIMIT 1`,
    )
    .get() as { commission_id: string } | undefined;
  if (!open || !filed) throw new Error("no commission to plant the kill-fee and over-length cases");
  db.prepare("UPDATE commissions SET status = 'killed', killed_on = ? WHERE commission_id = ?").run(
    addDays(open.agreed_on, 3),
    open.commission_id,
  );
  db.prepare("UPDATE commissions SET filed_units = commissioned_units + 150 WHERE commission_id = ?").run(
    filed.commission_id,
  );
}

interface Variant {
  ignoreAgreements?: boolean;
  flatKillFee?: boolean;
  payFiledLength?: boolean;
}

/** The oracle's fee rules in Python; variants break one rule each. */
export function feeCells(variant: Variant): string {
  return `card = read_text("${PATHS.rateCard}")
print(card)
tiers = {}
for line in card.split("\\n"):
    row = re.match(r"^\\|\\s*([ABC])\\s*\\|\\s*([\\d.]+)\\s*\\|\\s*([\\d.]+)\\s*\\|", line)
    if row:
        tiers[row.group(1)] = (float(row.group(2)), float(row.group(3)))
minimum = money(re.search(r"never less than (\\$[\\d,]+\\.\\d\\d)", card).group(1))
kill_filed = int(re.search(r"kill fee: (\\d+)%", card).group(1))
kill_unfiled = int(re.search(r", (\\d+)% when it had not", card).group(1))
agreements = {}
for path in workspace_files("${PATHS.agreementsDir}"):
    text = read_text(path)
    fid = re.search(r"\\((FL-\\d{4})\\)", text).group(1)
    agreements[fid] = (money(re.search(r"Articles: (\\$[\\d,]+\\.\\d\\d) per word", text).group(1)), money(re.search(r"Photos: (\\$[\\d,]+\\.\\d\\d) per image", text).group(1)))
print(tiers, minimum, kill_filed, kill_unfiled, agreements)
freelancers = {f["freelancer_id"]: f for f in fetch_all("list_freelancers", "freelancers")}

def fee(c):
    f = freelancers[c["freelancer_id"]]
    per_word, per_image = ${variant.ignoreAgreements ? "tiers[f['tier']]" : "agreements.get(f['freelancer_id'], tiers[f['tier']])"}
    rate = per_word if c["kind"] == "article" else per_image
    if c["status"] == "killed":
        pct = ${variant.flatKillFee ? "kill_filed" : 'kill_filed if c["filed_on"] else kill_unfiled'}
        return round(rate * c["commissioned_units"] * pct / 100 + 1e-9, 2)
    units = ${variant.payFiledLength ? 'c["filed_units"]' : 'min(c["filed_units"], c["commissioned_units"])'}
    amount = round(rate * units + 1e-9, 2)
    return max(amount, minimum) if c["kind"] == "article" else amount`;
}

function cells(variant: Variant): string[] {
  return [
    NEWSROOM_PY,
    feeCells(variant),
    `paid = {p["commission_id"] for p in fetch_all_retrying("list_payments", "payments")}
total = 0.0
for status in ("filed", "killed"):
    for c in fetch_all("list_commissions", "commissions", status=status):
        if c["commission_id"] in paid:
            continue
        amount = fee(c)
        tools.approve_payment(commission_id=c["commission_id"], amount=amount, note="per rate card")
        total += amount
print(round(total, 2))`,
  ];
}

export const freelancerPaymentsTask = defineTask({
  id: "newsroom.freelancer-payments",
  domain: newsroomDomain,
  summary:
    "Approve payments for filed and killed freelance commissions per the rate card, kill fees and negotiated agreements.",
  instruction:
    "Clear the freelance payment backlog: approve one payment for every commission that has been filed or killed and has no payment yet, for the amount our freelance rate card allows (check for contributor agreements too). Don't pay anything else. Reply with only the total amount you approved, in USD.",
  tools: [
    "list_commissions",
    "list_freelancers",
    "get_freelancer",
    "list_payments",
    "approve_payment",
    "get_story",
  ],
  prepare,
  verify: ({ initial, final, answer }) => {
    const expected = pendingFees(initial);
    if (expected.length === 0) throw new Error("generation produced no payable commission");
    const total = roundCents(expected.reduce((sum, row) => sum + row.fee, 0));
    const given = parseAnswerNumber(answer);
    return [
      ...checkStateDiff(initial.db, final.db, [
        {
          table: "payments",
          key: "payment_id",
          added: expected.map((row) => ({
            commission_id: row.commission_id,
            freelancer_id: row.freelancer_id,
            amount: row.fee,
            status: "approved",
          })),
        },
      ]),
      check(
        "answer",
        given !== null && Math.abs(given - total) <= 0.011,
        `expected ${total.toFixed(2)}, got '${answer.trim()}'`,
      ),
    ];
  },
  oracle: cells({}),
  nearMisses: [
    {
      id: "ignores-agreements",
      description: "Pays every contributor at the tier rates, ignoring signed agreements.",
      cells: cells({ ignoreAgreements: true }),
    },
    {
      id: "flat-kill-fee",
      description: "Pays the after-filing kill fee on work killed before it was filed.",
      cells: cells({ flatKillFee: true }),
    },
    {
      id: "pays-overlength",
      description: "Pays filed copy beyond the commissioned length.",
      cells: cells({ payFiledLength: true }),
    },
  ],
});
