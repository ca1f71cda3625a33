import { allRows, defineTask, requireFile, type Check, type VerifyContext } from "../../../envs/index.js";
import { payablesDomain } from "../domain.js";
import { AP_POLICY_PATH } from "../rules.js";
import { PYTHON_PRELUDE, checkInvoiceIdArray, nearMisses } from "../task-support.js";

/** The match exceptions among invoices pending approval, by the policy's price tolerance and received quantities. */
export function expectedMatchExceptions({ initial }: Pick<VerifyContext, "initial">): string[] {
  const policy = requireFile(initial, AP_POLICY_PATH);
  const tolerance = Number(/more than (\d+(?:\.\d+)?)% above the PO unit price/.exec(policy)?.[1]);
  if (!Number.isFinite(tolerance)) throw new Error("the AP policy states no price tolerance");
  const rows = allRows<{
    invoice_id: string;
    quantity: number;
    unit_price: number;
    po_price: number;
    received: number;
  }>(
    initial.db,
    `SELECT l.invoice_id, l.quantity, l.unit_price, p.unit_price AS po_price,
            (SELECT COALESCE(SUM(r.quantity_received), 0) FROM receipts r
              WHERE r.po_id = i.po_id AND r.line_no = l.po_line_no) AS received
       FROM invoice_lines l
       JOIN invoices i ON i.invoice_id = l.invoice_id
       JOIN po_lines p ON p.po_id = i.po_id AND p.line_no = l.po_line_no
      WHERE i.status = 'pending_approval' AND l.line_type = 'merchandise'`,
  );
  const exceptions = new Set<string>();
  for (const row of rows) {
    const priceOver =
      Math.round(row.unit_price * 100) * 100 > Math.round(row.po_price * 100) * (100 + tolerance);
    if (priceOver || row.quantity > row.received) exceptions.add(row.invoice_id);
  }
  return [...exceptions].sort();
}

function verify(context: VerifyContext): Check[] {
  const expected = expectedMatchExceptions(context);
  if (expected.length === 0) throw new Error("generation produced no match exception");
  return checkInvoiceIdArray(context.answer, expected, "exceptions", {
    success: `the ${expected.length} match exceptions are listed`,
    prefix: `expected ${expected.length} invoices; `,
    extraLabel: "not exceptions:",
  });
}

const MISSES = {
  "flags-any-price-difference":
    "Treats every price difference from the PO as an exception, ignoring the tolerance (and lower prices).",
  "tolerance-inclusive": "Flags a price exactly at the tolerance limit, which the policy accepts.",
  "ordered-not-received":
    "Compares invoiced quantities with the quantity ordered instead of the quantity received.",
};

function cells(miss?: keyof typeof MISSES): string[] {
  const priceRule =
    miss === "flags-any-price-difference"
      ? "inv_cents != po_cents"
      : miss === "tolerance-inclusive"
        ? "inv_cents * 100 >= po_cents * (100 + tolerance)"
        : "inv_cents * 100 > po_cents * (100 + tolerance)";
  return [
    PYTHON_PRELUDE,
    String.raw`
policy = read_text("policies/ap-policy.md")
tolerance = float(re.search(r"more than ([\d.]+)% above the PO unit price", policy).group(1))
pending = fetch_all("list_invoices", "invoices", status="pending_approval")
lines = fetch_all("list_invoice_lines", "invoice_lines", invoice_status="pending_approval", line_type="merchandise")
po_of = {invoice["invoice_id"]: invoice["po_id"] for invoice in pending}
print(len(pending), "pending invoices,", len(lines), "merchandise lines, tolerance", tolerance)
`,
    String.raw`
orders = {}
for po_id in sorted(set(po_of.values())):
    detail = call("get_purchase_order", po_id=po_id)
    orders[po_id] = ({line["line_no"]: line for line in detail["lines"]}, received_by_line(detail))

exceptions = set()
for line in lines:
    po_lines, received = orders[po_of[line["invoice_id"]]]
    po_line = po_lines[line["po_line_no"]]
    inv_cents = round(line["unit_price"] * 100)
    po_cents = round(po_line["unit_price"] * 100)
    limit = ${miss === "ordered-not-received" ? 'po_line["quantity"]' : 'received.get(line["po_line_no"], 0)'}
    if ${priceRule} or line["quantity"] > limit:
        exceptions.add(line["invoice_id"])
print(json.dumps(sorted(exceptions)))
`,
  ];
}

export const threeWayMatchExceptionsTask = defineTask({
  id: "payables.three-way-match-exceptions",
  domain: payablesDomain,
  summary:
    "Three-way match every invoice pending approval against its PO lines and goods receipts, with the AP policy's price tolerance, and list the exceptions.",
  instruction:
    'Before approvals go out, run the three-way match on every invoice that is pending approval: compare each merchandise line with its purchase order line and with what we have received on that line so far, using the tolerances in our AP policy. Reply with only a JSON array of the AP invoice ids (e.g. ["AP-00012", "AP-00345"]) of the invoices that fail the match, sorted.',
  tools: [
    "list_invoices",
    "get_invoice",
    "list_invoice_lines",
    "get_purchase_order",
    "list_po_lines",
    "list_receipts",
    "list_vendors",
  ],
  verify,
  oracle: cells(),
  nearMisses: nearMisses(cells, MISSES),
});
