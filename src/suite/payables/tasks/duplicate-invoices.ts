import { allRows, defineTask, type Check, type VerifyContext } from "../../../envs/index.js";
import { payablesDomain } from "../domain.js";
import { normaliseInvoiceNumber } from "../rules.js";
import { PYTHON_PRELUDE, checkInvoiceIdArray, nearMisses } from "../task-support.js";

interface InvoiceRow {
  invoice_id: string;
  tax_id: string;
  vendor_invoice_no: string;
  po_id: string;
  total: number;
}

/** The later invoice of every duplicate pair under the AP policy's rules (vendor = tax id; void ignored). */
export function expectedDuplicates({ initial }: Pick<VerifyContext, "initial">): string[] {
  const invoices = allRows<InvoiceRow>(
    initial.db,
    `SELECT i.invoice_id, v.tax_id, i.vendor_invoice_no, i.po_id, i.total
       FROM invoices i JOIN vendors v ON v.vendor_id = i.vendor_id
      WHERE i.status != 'void' ORDER BY i.invoice_id`,
  );
  const lines = new Map<string, string[]>();
  for (const line of allRows<{ invoice_id: string; sku: string; quantity: number; unit_price: number }>(
    initial.db,
    "SELECT invoice_id, sku, quantity, unit_price FROM invoice_lines WHERE line_type = 'merchandise'",
  )) {
    const list = lines.get(line.invoice_id) ?? [];
    list.push(`${line.sku}|${line.quantity}|${Math.round(line.unit_price * 100)}`);
    lines.set(line.invoice_id, list);
  }
  const signature = (id: string): string => [...(lines.get(id) ?? [])].sort().join(";");
  const duplicates = new Set<string>();
  invoices.forEach((later, index) => {
    for (const earlier of invoices.slice(0, index)) {
      if (
        earlier.tax_id !== later.tax_id ||
        Math.round(earlier.total * 100) !== Math.round(later.total * 100)
      )
        continue;
      const sameNumber =
        normaliseInvoiceNumber(earlier.vendor_invoice_no) === normaliseInvoiceNumber(later.vendor_invoice_no);
      const sameLines =
        earlier.po_id === later.po_id && signature(earlier.invoice_id) === signature(later.invoice_id);
      if (sameNumber || sameLines) duplicates.add(later.invoice_id);
    }
  });
  return [...duplicates].sort();
}

function verify(context: VerifyContext): Check[] {
  const expected = expectedDuplicates(context);
  if (expected.length === 0) throw new Error("generation produced no duplicate invoice");
  return checkInvoiceIdArray(context.answer, expected, "duplicates", {
    success: `the ${expected.length} duplicate invoices are listed`,
    prefix: `expected ${expected.length}; `,
    extraLabel: "not duplicates:",
  });
}

const MISSES = {
  "exact-numbers-only": "Compares vendor invoice numbers as typed, without the policy's normalisation.",
  "ignores-total": "Treats a corrected invoice (same number, different total) as a duplicate.",
  "vendor-by-record": "Groups by vendor id, missing the vendor entered twice under another record.",
  "includes-void": "Reports a duplicate that was already voided.",
};

function cells(miss?: keyof typeof MISSES): string[] {
  return [
    PYTHON_PRELUDE,
    String.raw`
policy = read_text("policies/ap-policy.md")
vendors = fetch_all("list_vendors", "vendors")
tax_id = {}
for vendor in vendors:
    tax_id[vendor["vendor_id"]] = ${miss === "vendor-by-record" ? 'vendor["vendor_id"]' : 'call("get_vendor", vendor_id=vendor["vendor_id"])["vendor"]["tax_id"]'}
invoices = [invoice for invoice in fetch_all("list_invoices", "invoices") if ${miss === "includes-void" ? "True" : 'invoice["status"] != "void"'}]
lines = fetch_all("list_invoice_lines", "invoice_lines", line_type="merchandise")
print(len(vendors), "vendors,", len(invoices), "invoices,", len(lines), "merchandise lines")
`,
    String.raw`
def normalise(number):
    text = re.sub(r"[\s\-/.]", "", number.upper())
    return ${miss === "exact-numbers-only" ? "number" : 're.sub(r"(^|[^0-9])0+(?=[0-9])", r"\\1", text)'}

signature = {}
for line in lines:
    signature.setdefault(line["invoice_id"], []).append((line["sku"], line["quantity"], round(line["unit_price"] * 100)))
for key in signature:
    signature[key].sort()

invoices.sort(key=lambda invoice: invoice["invoice_id"])
duplicates = set()
for j, later in enumerate(invoices):
    for earlier in invoices[:j]:
        if tax_id[earlier["vendor_id"]] != tax_id[later["vendor_id"]]:
            continue
        if ${miss === "ignores-total" ? "False" : 'round(earlier["total"] * 100) != round(later["total"] * 100)'}:
            continue
        same_number = normalise(earlier["vendor_invoice_no"]) == normalise(later["vendor_invoice_no"])
        same_lines = earlier["po_id"] == later["po_id"] and signature.get(earlier["invoice_id"]) == signature.get(later["invoice_id"])
        if same_number or same_lines:
            duplicates.add(later["invoice_id"])
print(json.dumps(sorted(duplicates)))
`,
  ];
}

export const duplicateInvoicesTask = defineTask({
  id: "payables.duplicate-invoices",
  domain: payablesDomain,
  summary:
    "Scan the whole invoice register for duplicates under the AP policy's rules (normalised invoice numbers or same PO and lines, same total, same vendor by tax id, void ignored).",
  instruction:
    'Audit asked us to check the entire AP invoice register for duplicate invoices, using the duplicate rules in our AP policy. Note that the vendor master has some vendors entered more than once; treat records with the same tax id as the same vendor. Reply with only a JSON array of the AP invoice ids that are duplicates (the later invoice of each pair), sorted, e.g. ["AP-00077"].',
  tools: [
    "list_invoices",
    "get_invoice",
    "list_invoice_lines",
    "list_vendors",
    "get_vendor",
    "list_purchase_orders",
  ],
  verify,
  oracle: cells(),
  nearMisses: nearMisses(cells, MISSES),
});
