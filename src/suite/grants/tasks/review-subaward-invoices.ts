import { allRows, checkAnswerCount, checkAnswerTotal, checkStateDiff } from "../../../envs/index.js";
import { defineTask, getRow, roundCents, sumCents, type StateView } from "../../../envs/index.js";
import { grantsDomain } from "../domain.js";
import { readInvoice, scans, nonEmpty } from "../facts.js";
import { grantsCells, nearMisses } from "./python.js";

/** Each pending invoice with the decision the review rules give it (and what an approval pays). */
export function invoiceDecisions(state: StateView) {
  const decisions = scans(state, "subaward_invoice")
    .filter((doc) => doc.status === "pending")
    .map(({ doc_id, text }) => {
      const { invoiceNo: invoice_no, subaward: subaward_id, amount, periodEnd, signed } = readInvoice(text);
      const [subawards, payments] = ["subawards", "subaward_payments"].map(
        (table) => `SELECT * FROM ${table} WHERE subaward_id = ?`,
      );
      const subaward = getRow<{ obligated: number; end_date: string }>(state.db, subawards!, subaward_id)!;
      const paid = allRows<{ invoice_no: string; amount: number }>(state.db, payments!, subaward_id);
      const fresh = !paid.some((payment) => payment.invoice_no === invoice_no);
      const covered =
        roundCents(paid.reduce((sum, payment) => sum + payment.amount, amount)) <= subaward.obligated;
      const approve = fresh && covered && signed && periodEnd <= subaward.end_date;
      return { doc_id, approve, payment: { subaward_id, invoice_no, amount } };
    });
  if (decisions.every((item) => item.approve)) throw new Error("generation produced no invoice to hold");
  return nonEmpty(decisions, "pending invoice");
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
    prior = 0 if "ignores-prior-payments" in NEAR else sum(p["amount"] for p in payments)
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
    const paid = decisions.filter((item) => item.approve).map((item) => item.payment);
    const changed = new Map(
      decisions.map((item) => [item.doc_id, { status: item.approve ? "paid" : "held" }]),
    );
    return [
      ...checkStateDiff(initial.db, final.db, [
        { table: "documents", key: "doc_id", changed },
        { table: "subaward_payments", key: "payment_id", added: paid },
      ]),
      checkAnswerCount(answer, paid.length),
      checkAnswerTotal(answer, sumCents(paid.map((payment) => payment.amount))),
    ];
  },
  oracle: cells([]),
  nearMisses: nearMisses(cells, [
    "naive-amount: Reads the invoice total with a plain number pattern, so a misread amount ('12,4 50.00', 'l2,450.00') comes out wrong.",
    "ignores-prior-payments: Checks only the invoice itself against the obligated amount, not the payments already made.",
    "reads-queued-pages: Takes a page still queued for OCR as the page's text and skips the invoice.",
  ]),
});
