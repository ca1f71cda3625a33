import {
  allRows,
  defineTask,
  parseMarkdownTable,
  requireFile,
  type Check,
  type VerifyContext,
} from "../../../envs/index.js";
import { payablesDomain } from "../domain.js";
import { AP_POLICY_PATH } from "../rules.js";
import { PYTHON_PRELUDE, checkInvoiceIdArray, nearMisses } from "../task-support.js";

const QUARTER_START = "2025-04-01";
const QUARTER_END = "2025-06-30";

const dollars = (text: string): number => Number(text.replace(/[$,]/g, ""));

/** Q2 approved or paid invoices over their category threshold without a valid second approval. */
export function expectedApprovalGaps({ initial }: Pick<VerifyContext, "initial">): string[] {
  const policy = requireFile(initial, AP_POLICY_PATH);
  const thresholds = new Map(
    parseMarkdownTable(policy, "2. Approvals").map((row) => [row[0]!, dollars(row[1]!)]),
  );
  const cfoMatch = /total over (\$[\d,.]+) need their second approval from the CFO/.exec(policy);
  if (!cfoMatch || thresholds.size === 0) throw new Error("the AP policy states no approval thresholds");
  const cfoThreshold = dollars(cfoMatch[1]!);
  const invoices = allRows<{ invoice_id: string; total: number; category: string }>(
    initial.db,
    `SELECT i.invoice_id, i.total, v.category FROM invoices i JOIN vendors v ON v.vendor_id = i.vendor_id
      WHERE i.status IN ('approved', 'paid') AND i.invoice_date BETWEEN ? AND ? ORDER BY i.invoice_id`,
    QUARTER_START,
    QUARTER_END,
  );
  const gaps: string[] = [];
  for (const invoice of invoices) {
    const threshold = thresholds.get(invoice.category);
    if (threshold === undefined) throw new Error(`no threshold for category ${invoice.category}`);
    if (invoice.total <= threshold) continue;
    const entries = allRows<{ level: number; approver: string; role: string }>(
      initial.db,
      "SELECT level, approver, role FROM invoice_approvals WHERE invoice_id = ? ORDER BY level, id",
      invoice.invoice_id,
    );
    const first = entries.find((entry) => entry.level === 1)?.approver;
    const valid = entries.some(
      (entry) =>
        entry.level === 2 &&
        (entry.role === "controller" || entry.role === "cfo") &&
        entry.approver !== first &&
        (invoice.total <= cfoThreshold || entry.role === "cfo"),
    );
    if (!valid) gaps.push(invoice.invoice_id);
  }
  return gaps;
}

function verify(context: VerifyContext): Check[] {
  const expected = expectedApprovalGaps(context);
  if (expected.length === 0) throw new Error("generation produced no approval gap");
  return checkInvoiceIdArray(context.answer, expected, "approval-gaps", {
    success: `the ${expected.length} invoices without a valid second approval are listed`,
    prefix: `expected ${expected.length}; `,
    extraLabel: "not gaps:",
  });
}

const MISSES = {
  "single-threshold": "Applies the inventory threshold to every vendor category.",
  "threshold-inclusive": "Requires a second approval for an invoice exactly at the threshold.",
  "same-approver-accepted": "Accepts a second approval given by the person who gave the first.",
  "ignores-cfo-rule": "Accepts a controller's second approval on invoices that need the CFO.",
};

function cells(miss?: keyof typeof MISSES): string[] {
  return [
    PYTHON_PRELUDE,
    String.raw`
policy = read_text("policies/ap-policy.md")
section = policy.split("## 2. Approvals")[1].split("## 3.")[0]
thresholds = {m.group(1): float(m.group(2).replace(",", "")) for m in re.finditer(r"^\| (\w+) \| \$([\d,.]+) \|$", section, re.M)}
${miss === "single-threshold" ? 'thresholds = {name: thresholds["inventory"] for name in thresholds}' : ""}
cfo_threshold = float(re.search(r"total over \$([\d,.]+) need their second approval from the CFO", policy).group(1).replace(",", ""))
category = {vendor["vendor_id"]: vendor["category"] for vendor in fetch_all("list_vendors", "vendors")}
invoices = invoices_in(["approved", "paid"], invoice_date_from="2025-04-01", invoice_date_to="2025-06-30")
over = [invoice for invoice in invoices if invoice["total"] ${miss === "threshold-inclusive" ? ">=" : ">"} thresholds[category[invoice["vendor_id"]]]]
print(thresholds, cfo_threshold, len(invoices), "invoices,", len(over), "over threshold")
`,
    String.raw`
gaps = []
for invoice in sorted(over, key=lambda item: item["invoice_id"]):
    approvals = call("get_invoice", invoice_id=invoice["invoice_id"])["approvals"]
    first = next((a["approver"] for a in approvals if a["level"] == 1), None)
    valid = any(
        a["level"] == 2 and a["role"] in ("controller", "cfo")
        and ${miss === "same-approver-accepted" ? "True" : 'a["approver"] != first'}
        and (${miss === "ignores-cfo-rule" ? "True" : 'invoice["total"] <= cfo_threshold or a["role"] == "cfo"'})
        for a in approvals
    )
    if not valid:
        gaps.append(invoice["invoice_id"])
print(json.dumps(gaps))
`,
  ];
}

export const secondApprovalAuditTask = defineTask({
  id: "payables.second-approval-audit",
  domain: payablesDomain,
  summary:
    "Audit Q2 approved and paid invoices for the second approval the AP policy requires (category thresholds, approver role, not the same person, CFO over the top threshold).",
  instruction:
    'Internal audit is reviewing approvals for Q2 2025. Check every invoice dated April 1 to June 30, 2025 with status approved or paid against the approval rules of our AP policy, and find the ones that needed a second approval but do not have a valid one. Reply with only a JSON array of their AP invoice ids, sorted, e.g. ["AP-00031", "AP-00102"].',
  tools: ["list_invoices", "get_invoice", "list_vendors", "get_vendor"],
  verify,
  oracle: cells(),
  nearMisses: nearMisses(cells, MISSES),
});
