import { cachedStatement, defineTask, type Check, type VerifyContext } from "../../../envs/index.js";
import { INBOX_DIR } from "../documents.js";
import { payablesDomain } from "../domain.js";
import { discountDeadline } from "../rules.js";
import { PYTHON_PRELUDE, checkAmountsAnswer, governingTerms, nearMisses } from "../task-support.js";

/** What we owe on each disputed invoice: the discount taken when the governing terms did not allow it. */
export function expectedRefunds({ initial }: Pick<VerifyContext, "initial">): Map<string, number> {
  const governing = governingTerms(initial);
  const lookup = cachedStatement(
    initial.db,
    `SELECT p.paid_on, p.discount_taken, i.invoice_date, i.vendor_invoice_no, v.vendor_id, v.terms_code
       FROM payments p JOIN invoices i ON i.invoice_id = p.invoice_id JOIN vendors v ON v.vendor_id = i.vendor_id
      WHERE p.reference = ?`,
  );
  const owed = new Map<string, number>();
  for (const path of initial.listFiles().filter((file) => file.startsWith(INBOX_DIR))) {
    const text = initial.readFile(path) ?? "";
    const match = /your payment (\S+) dated .+? for our invoice (\S+)\. It is short/.exec(text);
    if (!match) throw new Error(`${path} names no payment`);
    const row = lookup.get(match[1]) as
      | {
          paid_on: string;
          discount_taken: number;
          invoice_date: string;
          vendor_invoice_no: string;
          vendor_id: string;
          terms_code: string;
        }
      | undefined;
    if (!row || row.vendor_invoice_no !== match[2])
      throw new Error(`${path} disputes a payment the ledger does not have`);
    const terms = governing(row.vendor_id, row.terms_code);
    const deadline = discountDeadline(row.invoice_date, terms);
    const allowed = deadline !== null && row.paid_on <= deadline;
    owed.set(match[2], allowed ? 0 : row.discount_taken);
  }
  return owed;
}

function verify(context: VerifyContext): Check[] {
  const expected = expectedRefunds(context);
  if (![...expected.values()].some((amount) => amount > 0))
    throw new Error("generation produced no valid dispute");
  return checkAmountsAnswer(context.answer, expected, {
    wanted: "a JSON object of invoice number to amount",
    normaliseKey: (number) => number.trim(),
    keysId: "disputes",
    keys: { success: `all ${expected.size} disputes answered`, extraLabel: "not disputed:" },
    amountsRight: "every amount owed is right",
  });
}

const MISSES = {
  "ignores-contract-terms":
    "Judges the discount by the vendor master terms where the vendor contract has none.",
  "deadline-day-late": "Treats a payment released on the deadline day itself as late.",
};

function cells(miss?: keyof typeof MISSES): string[] {
  return [
    PYTHON_PRELUDE,
    String.raw`
vendors, governing_of = governing_terms(${miss === "ignores-contract-terms" ? "False" : "True"})
by_email = {}
for vendor in vendors.values():
    by_email.setdefault(vendor["remit_email"], []).append(vendor)
emails = []
for path in workspace_files("inbox/"):
    text = read_text(path)
    sender = re.search(r"^From: (\S+)", text, re.M).group(1)
    reference, number = re.search(r"your payment (\S+) dated .+? for our invoice (\S+)\. It is short", text).groups()
    emails.append((sender, reference, number))
print(len(emails), "dispute emails")
`,
    String.raw`
owed = {}
for sender, reference, number in emails:
    found = None
    for vendor in by_email[sender]:
        for payment in fetch_all("list_payments", "payments", vendor_id=vendor["vendor_id"]):
            if payment["reference"] == reference:
                found = (vendor, payment)
    vendor, payment = found
    invoice = call("get_invoice", invoice_id=payment["invoice_id"])["invoice"]
    governing = governing_of(vendor["vendor_id"])
    allowed = False
    if governing["discount_percent"] > 0:
        deadline = plus_days(invoice["invoice_date"], governing["discount_days"])
        allowed = payment["paid_on"] ${miss === "deadline-day-late" ? "<" : "<="} deadline
    owed[number] = 0 if allowed else payment["discount_taken"]
print(json.dumps(owed))
`,
  ];
}

export const discountDisputesTask = defineTask({
  id: "payables.discount-disputes",
  domain: payablesDomain,
  summary:
    "Read vendor emails disputing early-payment discounts, find each payment and invoice, and decide under the governing terms (contracts override) whether the discount was allowed.",
  instruction:
    'Several vendors have emailed us (inbox/) disputing early-payment discounts we deducted from their payments. Check each one against our records and the payment terms that govern the invoice under our AP policy: the discount was allowed only if the governing terms have a discount and the payment was released on or before the discount deadline; otherwise we owe the vendor the discount we took. Reply with only a JSON object mapping each disputed vendor invoice number, exactly as the email writes it, to the amount we owe in dollars (0 when the discount stands), e.g. {"INV-48213": 0, "77120": 41.5}.',
  tools: [
    "list_vendors",
    "get_vendor",
    "list_payments",
    "list_invoices",
    "get_invoice",
    "list_payment_terms",
  ],
  verify,
  oracle: cells(),
  nearMisses: nearMisses(cells, MISSES),
});
