import { defineBillingTask } from "./python.js";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import {
  addDays,
  daysBetween,
  renderEmail,
  roundCents,
  type GenerateContext,
  type StateView,
} from "../../../envs/index.js";
import { PATHS } from "../rules.js";
import { creditNotesVerifier } from "./expectations.js";

interface Request {
  sender: string;
  sent: string;
  invoiceId: string;
  requested: number;
}

export function readRequests(state: StateView): Request[] {
  const requests: Request[] = [];
  for (const path of state.listFiles().filter((file) => file.startsWith(`${PATHS.inboxDir}/`))) {
    const text = state.readFile(path) ?? "";
    const sender = /^From: .*<([^>]+)>/m.exec(text)?.[1];
    const sent = /^Date: (\d{4}-\d{2}-\d{2})/m.exec(text)?.[1];
    const invoice = /Regarding invoice (INV-\d{6})/.exec(text)?.[1];
    const requested = /credit of \$([\d,]+\.\d{2})/.exec(text)?.[1];
    if (!sender || !sent || !invoice || !requested) throw new Error(`unreadable credit request ${path}`);
    requests.push({ sender, sent, invoiceId: invoice, requested: Number(requested.replace(/,/g, "")) });
  }
  return requests;
}

function policyTerms(state: StateView): { windowDays: number; capPct: number } {
  const text = state.readFile(PATHS.creditPolicy) ?? "";
  const windowDays = /no more than (\d+) days after/.exec(text)?.[1];
  const capPct = /capped at (\d+)% of the invoice total/.exec(text)?.[1];
  if (!windowDays || !capPct) throw new Error("the credit request policy lost its terms");
  return { windowDays: Number(windowDays), capPct: Number(capPct) };
}

export function expectedRequestCredits(
  state: StateView,
): Array<{ invoice_id: string; customer_id: string; amount: number }> {
  const { windowDays, capPct } = policyTerms(state);
  const granted: Array<{ invoice_id: string; customer_id: string; amount: number }> = [];
  for (const request of readRequests(state)) {
    const invoice = state.db
      .prepare("SELECT customer_id, issued_on, status, total FROM invoices WHERE invoice_id = ?")
      .get(request.invoiceId) as
      { customer_id: string; issued_on: string; status: string; total: number } | undefined;
    if (!invoice || invoice.status === "void") continue;
    const contact = state.db
      .prepare(
        "SELECT 1 FROM billing_contacts WHERE customer_id = ? AND lower(email) = lower(?) AND role = 'billing'",
      )
      .get(invoice.customer_id, request.sender);
    if (!contact) continue;
    const days = daysBetween(invoice.issued_on, request.sent);
    if (days < 0 || days > windowDays) continue;
    granted.push({
      invoice_id: request.invoiceId,
      customer_id: invoice.customer_id,
      amount: Math.min(request.requested, roundCents((invoice.total * capPct) / 100)),
    });
  }
  return granted;
}

/**
 * Plants a credit request that qualifies in every way except that its invoice was voided: the policy's
 * "the invoice is not void" rule is what keeps it from being granted.
 */
function prepare(context: GenerateContext): void {
  const { db } = context;
  const named = new Set(
    readdirSync(join(context.workspaceDir, PATHS.inboxDir)).map(
      (file) => /invoice (INV-\d{6})/.exec(context.readFile(`${PATHS.inboxDir}/${file}`) ?? "")?.[1],
    ),
  );
  const invoice = (
    db
      .prepare(
        `SELECT i.invoice_id, i.customer_id, i.issued_on, i.total FROM invoices i
          WHERE i.status = 'open' AND i.issued_on BETWEEN '2025-04-01' AND '2025-05-15'
            AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.invoice_id = i.invoice_id AND p.status = 'succeeded')
          ORDER BY i.invoice_id`,
      )
      .all() as Array<{ invoice_id: string; customer_id: string; issued_on: string; total: number }>
  ).find((row) => !named.has(row.invoice_id));
  if (!invoice) throw new Error("no open invoice to void for the credit request inbox");
  const contact = db
    .prepare(
      "SELECT name, email FROM billing_contacts WHERE customer_id = ? AND role = 'billing' ORDER BY contact_id LIMIT 1",
    )
    .get(invoice.customer_id) as { name: string; email: string };
  db.prepare("UPDATE invoices SET status = 'void' WHERE invoice_id = ?").run(invoice.invoice_id);
  const sent = addDays(invoice.issued_on, 9);
  const requested = roundCents(invoice.total * 0.1);
  context.writeFile(
    `${PATHS.inboxDir}/${sent}-900.md`,
    renderEmail(
      {
        From: `${contact.name} <${contact.email}>`,
        Date: sent,
        Subject: `Credit request for invoice ${invoice.invoice_id}`,
      },
      [
        "Hello billing team,",
        `Regarding invoice ${invoice.invoice_id}: we were charged for the wrong plan this month. We'd like to request a credit of $${requested.toFixed(2)}.`,
        `Thanks,\n${contact.name}`,
      ],
    ),
  );
}

interface Variant {
  creditVoid?: boolean;
  anyRole?: boolean;
  uncapped?: boolean;
  strictWindow?: boolean;
}

function cells(variant: Variant): string[] {
  return [
    `policy = read_text("${PATHS.creditPolicy}")
print(policy)
window = int(re.search(r"no more than (\\d+) days after", policy).group(1))
cap_pct = int(re.search(r"capped at (\\d+)%", policy).group(1))
emails = []
for path in workspace_files("${PATHS.inboxDir}"):
    text = read_text(path)
    emails.append({
        "path": path,
        "sender": re.search(r"^From: .*<([^>]+)>", text, re.M).group(1),
        "sent": re.search(r"^Date: (\\d{4}-\\d{2}-\\d{2})", text, re.M).group(1),
        "invoice_id": re.search(r"Regarding invoice (INV-\\d{6})", text).group(1),
        "requested": float(re.search(r"credit of \\$([\\d,]+\\.\\d{2})", text).group(1).replace(",", "")),
    })
print(len(emails), "requests")`,
    `granted = 0
for email in emails:
    invoice = tools.get_invoice(invoice_id=email["invoice_id"])["invoice"]
    if ${variant.creditVoid ? "False" : 'invoice["status"] == "void"'}:
        continue
    contacts = tools.find_contact_by_email(email=email["sender"])["contacts"]
    if not any(c["customer_id"] == invoice["customer_id"] and ${variant.anyRole ? "True" : 'c["role"] == "billing"'} for c in contacts):
        continue
    days = days_between(invoice["issued_on"], email["sent"])
    if days < 0 or days ${variant.strictWindow ? ">=" : ">"} window:
        continue
    amount = email["requested"] ${variant.uncapped ? "" : '; amount = min(amount, round(invoice["total"] * cap_pct / 100 + 1e-9, 2))'}
    tools.create_credit_note(invoice_id=email["invoice_id"], amount=amount, reason=f"credit request {email['path']}")
    granted += 1
print(granted)`,
  ];
}

export const supportCreditRequestsTask = defineBillingTask({
  id: "billing.support-credit-requests",
  summary:
    "Read the support inbox's credit requests, grant those the credit request policy allows (sender, window, cap).",
  instruction:
    "Work through the credit requests in the support inbox (support/inbox). For each request the credit request policy allows, create a credit note against the invoice the email names, for the amount the policy grants; skip the others and change nothing else. Reply with only the number of credit notes you created.",
  tools: [
    "get_customer",
    "find_contact_by_email",
    "list_invoices",
    "get_invoice",
    "list_credit_notes",
    "create_credit_note",
  ],
  prepare,
  verify: creditNotesVerifier(expectedRequestCredits, "qualifying credit request"),
  cells,
  nearMisses: {
    "credits-void-invoice": [{ creditVoid: true }, "Grants a request against an invoice that was voided."],
    "any-contact-role": [{ anyRole: true }, "Grants requests from technical or executive contacts too."],
    uncapped: [{ uncapped: true }, "Grants the requested amount without the policy's cap."],
    "window-exclusive": [
      { strictWindow: true },
      "Rejects a request sent exactly on the last day of the window.",
    ],
  },
});
