import {
  allRows,
  checkStateDiff,
  defineTask,
  getRow,
  roundCents,
  type StateView,
} from "../../../envs/index.js";
import { grantsDomain } from "../domain.js";
import { readInvoice, scans } from "../facts.js";
import { checkCount, checkTotal } from "./expect.js";
import { grantsCells, nearMisses } from "./python.js";

/** Each pending invoice with the decision the review rules give it (and what an approval pays). */
export function invoiceDecisions(state: StateView) {
  const decisions = scans(state, "subaward_invoice")
    .filter((doc) => doc.status === "pending")
    .map((doc) => {
      const invoice = readInvoice(doc.text);
      const subaward = getRow<{ obligated: number; end_date: string }>(
        state.db,
        "SELECT * FROM subawards WHERE subaward_id = ?",
        invoice.subaward,
      )!;
      const payments = allRows<{ invoice_no: string; amount: number }>(
        state.db,
        "SELECT * FROM subaward_payments WHERE subaward_id = ?",
        invoice.subaward,
      );
      const paid = payments.reduce((sum, payment) => sum + payment.amount, 0);
      const approve =
        !payments.some((payment) => payment.invoice_no === invoice.invoiceNo) &&
        invoice.periodEnd <= subaward.end_date &&
        roundCents(paid + invoice.amount) <= subaward.obligated &&
        invoice.signed;
      return {
        doc_id: doc.doc_id,
        approve,
        subaward_id: invoice.subaward,
        invoice_no: invoice.invoiceNo,
        amount: invoice.amount,
      };
    });
  if (!decisions.some((item) => item.approve) || decisions.every((item) => item.approve))
    throw new Error("generation produced no mix of invoices to approve and hold");
  return decisions;
}

const cells = grantsCells(String.raw`
approved, held, total = 0, 0, 0.0
for doc in fetch("list_documents", "documents", doc_type="subaward_invoice", status="pending"):
    invoice = read_invoice(doc_text(doc))
    if invoice is None or invoice["amount"] is None:
        continue
    found = call("get_subaward", subaward_id=invoice["subaward"])
    subaward, payments = found["subaward"], found["payments"]
    problems = []
    if any(p["invoice_no"] == invoice["invoice"] for p in payments):
        problems.append("invoice number already paid")
    if invoice["end"] > subaward["end_date"]:
        problems.append("bills a period after the subaward ends")
    prior = 0 if "ignore-prior" in NEAR else sum(p["amount"] for p in payments)
    if money(prior + invoice["amount"]) > subaward["obligated"]:
        problems.append("payments would exceed the obligated amount")
    if not invoice["signed"]:
        problems.append("certification not signed")
    if problems:
        call("hold_subaward_invoice", doc_id=doc["doc_id"], reason="; ".join(problems))
        held += 1
    else:
        call("approve_subaward_invoice", doc_id=doc["doc_id"], subaward_id=invoice["subaward"], invoice_number=invoice["invoice"], amount=invoice["amount"])
        approved, total = approved + 1, total + invoice["amount"]
print(f"Approved {approved} invoices totalling ${"$"}{total:,.2f}; held {held}")
`);

export const reviewSubawardInvoicesTask = defineTask({
  id: "grants.review-subaward-invoices",
  domain: grantsDomain,
  summary:
    "Approve or hold each pending scanned subaward invoice by the review rules: duplicate number, period past the subaward's end, payments over the obligation, unsigned certification (misread amounts in the OCR).",
  instruction:
    "Work through the pending subaward invoices in the document register. Approve for payment, for its current-period total, each invoice that passes our invoice review rules, and put every other one on hold with the reason. Reply with how many you approved, their total and how many you held, e.g. `Approved 4 invoices totalling $61,204.17; held 3`.",
  tools: [
    "list_documents",
    "get_document_page",
    "get_subaward",
    "approve_subaward_invoice",
    "hold_subaward_invoice",
  ],
  verify: ({ initial, final, answer }) => {
    const decisions = invoiceDecisions(initial);
    const approved = decisions.filter((item) => item.approve);
    return [
      ...checkStateDiff(initial.db, final.db, [
        {
          table: "documents",
          key: "doc_id",
          changed: new Map(
            decisions.map((item) => [item.doc_id, { status: item.approve ? "paid" : "held" }]),
          ),
        },
        {
          table: "subaward_payments",
          key: "payment_id",
          added: approved.map(({ subaward_id, invoice_no, amount }) => ({ subaward_id, invoice_no, amount })),
        },
      ]),
      checkCount(answer, approved.length),
      checkTotal(answer, roundCents(approved.reduce((sum, item) => sum + item.amount, 0))),
    ];
  },
  oracle: cells([]),
  nearMisses: nearMisses(cells, [
    [
      "naive-amount",
      "Reads the invoice total with a plain number pattern, so a misread amount ('12,4 50.00', 'l2,450.00') comes out wrong.",
      "naive-amount",
    ],
    [
      "ignores-prior-payments",
      "Checks only the invoice itself against the obligated amount, not the payments already made.",
      "ignore-prior",
    ],
    [
      "reads-queued-pages",
      "Takes a page still queued for OCR as the page's text and skips the invoice.",
      "queued",
    ],
  ]),
});
