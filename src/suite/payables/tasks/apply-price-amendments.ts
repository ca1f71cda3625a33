import {
  allRows,
  checkStateDiff,
  defineTask,
  parseMarkdownTable,
  type Check,
  type StateView,
  type VerifyContext,
} from "../../../envs/index.js";
import { AMENDMENTS_DIR } from "../documents.js";
import { payablesDomain } from "../domain.js";
import { PYTHON_PRELUDE, checkAnswerCountOf, nearMisses } from "../task-support.js";

/** Each amendment's vendor and revised prices (SKU to new price), as the documents state them. */
export function readAmendments(state: StateView): Array<{ vendorId: string; prices: Map<string, number> }> {
  return state
    .listFiles()
    .filter((file) => file.startsWith(AMENDMENTS_DIR) && file.endsWith(".md"))
    .map((path) => {
      const text = state.readFile(path) ?? "";
      const vendorId = /\(vendor (V-\d{4})\)/.exec(text)?.[1];
      if (!vendorId) throw new Error(`${path} names no vendor`);
      const prices = new Map(
        parseMarkdownTable(text, "Revised unit prices").map((row) => [
          row[0]!,
          Number(row[3]!.replace(/[$,]/g, "")),
        ]),
      );
      return { vendorId, prices };
    });
}

function expectedUpdates(initial: StateView): Map<number, { unit_price: number }> {
  const expected = new Map<number, { unit_price: number }>();
  for (const amendment of readAmendments(initial)) {
    const lines = allRows<{ id: number; sku: string; unit_price: number; received: number }>(
      initial.db,
      `SELECT l.id, l.sku, l.unit_price,
              (SELECT COALESCE(SUM(r.quantity_received), 0) FROM receipts r
                WHERE r.po_id = l.po_id AND r.line_no = l.line_no) AS received
         FROM po_lines l JOIN purchase_orders o ON o.po_id = l.po_id
        WHERE o.vendor_id = ? AND o.status = 'open'`,
      amendment.vendorId,
    );
    for (const line of lines) {
      const price = amendment.prices.get(line.sku);
      if (price !== undefined && line.received === 0 && Math.abs(price - line.unit_price) > 1e-9)
        expected.set(line.id, { unit_price: price });
    }
  }
  return expected;
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const expected = expectedUpdates(initial);
  if (expected.size === 0) throw new Error("generation produced no PO line to reprice");
  return [
    ...checkStateDiff(initial.db, final.db, [{ table: "po_lines", key: "id", changed: expected }]),
    checkAnswerCountOf(answer, expected.size),
  ];
}

const MISSES = {
  "reprices-received-lines":
    "Reprices every line of a revised SKU on open orders, including lines already (partly) received.",
  "sku-across-vendors":
    "Finds lines by SKU alone and reprices another vendor's order for the same part number.",
};

function cells(miss?: keyof typeof MISSES): string[] {
  const findLines =
    miss === "sku-across-vendors"
      ? String.raw`
targets = []
for vendor_id, prices in amendments:
    for sku, price in prices.items():
        for line in fetch_all("list_po_lines", "po_lines", sku=sku, po_status="open"):
            received = sum(r["quantity_received"] for r in fetch_all("list_receipts", "receipts", po_id=line["po_id"]) if r["line_no"] == line["line_no"])
            if received == 0 and line["unit_price"] != price:
                targets.append((line["po_id"], line["line_no"], price))
`
      : String.raw`
targets = []
for vendor_id, prices in amendments:
    for order in fetch_all("list_purchase_orders", "purchase_orders", vendor_id=vendor_id, status="open"):
        detail = call("get_purchase_order", po_id=order["po_id"])
        received = received_by_line(detail)
        for line in detail["lines"]:
            price = prices.get(line["sku"])
            if price is not None and ${miss === "reprices-received-lines" ? "True" : 'received.get(line["line_no"], 0) == 0'} and line["unit_price"] != price:
                targets.append((order["po_id"], line["line_no"], price))
`;
  return [
    PYTHON_PRELUDE,
    String.raw`
amendments = []
for path in workspace_files("contracts/amendments/"):
    text = read_text(path)
    vendor_id = re.search(r"\(vendor (V-\d{4})\)", text).group(1)
    prices = {sku: float(new.replace(",", "")) for sku, new in re.findall(r"^\| (\S+) \| [^|]+ \| \$[\d,.]+ \| \$([\d,.]+) \|$", text, re.M)}
    amendments.append((vendor_id, prices))
print(amendments)
`,
    findLines + 'print(len(targets), "lines to reprice")\n',
    String.raw`
for po_id, line_no, price in targets:
    call("update_po_line_price", po_id=po_id, line_no=line_no, unit_price=price)
print(len(targets))
`,
  ];
}

export const applyPriceAmendmentsTask = defineTask({
  id: "payables.apply-price-amendments",
  domain: payablesDomain,
  summary:
    "Apply signed vendor price amendments to the open purchase orders they cover: only the vendor's lines for revised SKUs with nothing received yet.",
  instruction:
    "Some vendors have signed price amendments to their supply agreements (contracts/amendments/). Apply each amendment to our purchase orders exactly as the amendment says it applies, and change nothing else. Reply with only the number of PO lines you repriced.",
  tools: [
    "list_vendors",
    "list_purchase_orders",
    "get_purchase_order",
    "list_po_lines",
    "list_receipts",
    "update_po_line_price",
  ],
  verify,
  oracle: cells(),
  nearMisses: nearMisses(cells, MISSES),
});
