import { defineNewsroomTask } from "./python.js";
import { checkAnswerAmounts, roundCents, type StateView } from "../../../envs/index.js";
import { pendingFees } from "./expectations.js";
import { feeCells } from "./freelancer-payments.js";
import { threadsIn } from "./mail.js";

/** Commission id -> amount the latest invoice in its thread bills beyond the rate card's fee. */
export function expectedOverbilling(state: StateView): Map<string, number> {
  const fees = new Map(pendingFees(state).map((row) => [row.commission_id, row.fee]));
  const over = new Map<string, number>();
  for (const thread of threadsIn(state, "freelance")) {
    const invoice = thread.findLast((message) => message.attachment_text)?.attachment_text ?? "";
    const commission = /^Commission ref: (COM-\d{5})/m.exec(invoice)?.[1];
    const total = /^TOTAL DUE: \$([\d,.]+)/m.exec(invoice)?.[1];
    if (!commission || !total) throw new Error(`thread ${thread[0]?.thread_id} has no readable invoice`);
    const fee = fees.get(commission);
    if (fee === undefined) throw new Error(`invoice for ${commission}, which is not awaiting payment`);
    const difference = roundCents(Number(total.replace(/,/g, "")) - fee);
    if (difference > 0) over.set(commission, difference);
  }
  if (over.size === 0) throw new Error("generation produced no overbilled invoice");
  return over;
}

function cells({ firstInvoice = false, ignoreAgreements = false }): string[] {
  return [
    feeCells({ ignoreAgreements }),
    `commissions = {c["commission_id"]: c for c in fetch_all("list_commissions", "commissions")}
over = {}
for t in fetch_all("list_threads", "threads", mailbox="freelance"):
    invoices = [m for m in tools.get_thread(thread_id=t["thread_id"])["messages"] if m["attachment"]]
    invoice = attachment_of(call("get_message", message_id=invoices[${firstInvoice ? "0" : "-1"}]["message_id"])["text"])
    ref = re.search(r"^Commission ref: (COM-\\d{5})", invoice, re.M).group(1)
    billed = money(re.search(r"^TOTAL DUE: (\\$[\\d,]+\\.\\d\\d)", invoice, re.M).group(1))
    difference = round(billed - fee(commissions[ref]), 2)
    if difference > 0:
        over[ref] = difference
print(json.dumps(dict(sorted(over.items()))))`,
  ];
}

export const invoiceAuditTask = defineNewsroomTask({
  id: "newsroom.invoice-audit",
  summary:
    "Check the freelancers' invoices (text attachments, some re-issued) against the rate card and report the overbilling.",
  instruction:
    'Before finance pays, audit the freelancer invoices in the freelance mailbox. Each thread is about one commission; when an invoice was re-issued, only the latest invoice in the thread counts. Compare each invoice\'s total with the fee our freelance rate card allows for that commission. Reply with only a JSON object mapping each overbilled commission id to the amount billed above the allowed fee, in USD (e.g. {"COM-00012": 45.5}); leave out invoices that are not above the fee.',
  tools: ["list_threads", "get_thread", "get_message", "list_commissions", "list_freelancers"],
  verify: ({ initial, answer }) => [
    checkAnswerAmounts("answer", answer, expectedOverbilling(initial), 0.011),
  ],
  cells,
  nearMisses: {
    "first-invoice": [{ firstInvoice: true }, "Audits the first invoice of a thread, not the re-issued one."],
    "ignores-agreements": [
      { ignoreAgreements: true },
      "Prices every commission at the tier rates, ignoring contributor agreements.",
    ],
  },
});
