import {
  allRows,
  checkStateDiff,
  defineTask,
  type Check,
  type StateView,
  type VerifyContext,
} from "../../../envs/index.js";
import { MEMOS_DIR } from "../documents.js";
import { payablesDomain } from "../domain.js";
import { PYTHON_PRELUDE, checkAnswerCountOf, nearMisses } from "../task-support.js";

export const HOLD_REASON = "vendor payment hold";

/** The vendors on payment hold after reading Treasury's memos in date order (holds, then releases). */
export function heldVendorNames(state: StateView): Set<string> {
  const held = new Set<string>();
  for (const path of state.listFiles().filter((file) => file.startsWith(MEMOS_DIR) && file.endsWith(".md"))) {
    const text = state.readFile(path) ?? "";
    const title = text.split("\n")[0] ?? "";
    if (title === "# Vendor payment holds") {
      for (const match of text.matchAll(/^- (.+?): .+$/gm)) held.add(match[1]!);
    } else if (title === "# Payment hold released") {
      for (const name of [...held]) if (text.includes(`payment hold on ${name} is lifted`)) held.delete(name);
    }
  }
  return held;
}

function expectedHolds(initial: StateView): string[] {
  const held = heldVendorNames(initial);
  const vendors = allRows<{ vendor_id: string; name: string }>(
    initial.db,
    "SELECT vendor_id, name FROM vendors",
  )
    .filter((vendor) => held.has(vendor.name))
    .map((vendor) => vendor.vendor_id);
  if (vendors.length !== held.size) throw new Error("a held vendor name is not in the vendor master");
  return allRows<{ invoice_id: string }>(
    initial.db,
    `SELECT invoice_id FROM invoices WHERE status IN ('pending_approval', 'approved')
        AND vendor_id IN (${vendors.map(() => "?").join(", ")}) ORDER BY invoice_id`,
    ...vendors,
  ).map((row) => row.invoice_id);
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const expected = expectedHolds(initial);
  if (expected.length === 0) throw new Error("generation produced no invoice to hold");
  return [
    ...checkStateDiff(initial.db, final.db, [
      {
        table: "invoices",
        key: "invoice_id",
        changed: new Map(expected.map((id) => [id, { status: "on_hold", hold_reason: HOLD_REASON }])),
      },
    ]),
    checkAnswerCountOf(answer, expected.length),
  ];
}

const MISSES = {
  "ignores-releases": "Applies every hold memo but not the memos that lift holds.",
  "approved-only": "Holds only approved invoices, leaving those pending approval payable later.",
};

function cells(miss?: keyof typeof MISSES): string[] {
  return [
    PYTHON_PRELUDE,
    String.raw`
held = {}
for path in workspace_files("memos/"):
    text = read_text(path)
    title = text.splitlines()[0]
    if title == "# Vendor payment holds":
        for name, reason in re.findall(r"^- (.+?): (.+)$", text, re.M):
            held[name] = reason
    elif title == "# Payment hold released" and ${miss === "ignores-releases" ? "False" : "True"}:
        for name in list(held):
            if "payment hold on " + name + " is lifted" in text:
                del held[name]
vendors = {vendor["name"]: vendor["vendor_id"] for vendor in fetch_all("list_vendors", "vendors")}
print(sorted(held))
`,
    String.raw`
holdable = ${miss === "approved-only" ? '("approved",)' : '("pending_approval", "approved")'}
count = 0
for name in sorted(held):
    for invoice in fetch_all("list_invoices", "invoices", vendor_id=vendors[name]):
        if invoice["status"] in holdable:
            call("place_invoice_hold", invoice_id=invoice["invoice_id"], reason="${HOLD_REASON}")
            count += 1
print(count)
`,
  ];
}

export const applyVendorHoldsTask = defineTask({
  id: "payables.apply-vendor-holds",
  domain: payablesDomain,
  summary:
    "Read Treasury's hold and release memos in order, then put every unpaid invoice of the vendors still on payment hold on hold.",
  instruction: `Treasury has been sending memos about vendor payment holds (see memos/). Bring the ledger in line with them: every unpaid invoice (pending approval or approved) of a vendor that is currently on payment hold must be put on hold, with the reason "${HOLD_REASON}". Leave every other invoice as it is. Reply with only the number of invoices you put on hold.`,
  tools: [
    "list_vendors",
    "get_vendor",
    "list_invoices",
    "get_invoice",
    "place_invoice_hold",
    "release_invoice_hold",
  ],
  verify,
  oracle: cells(),
  nearMisses: nearMisses(cells, MISSES),
});
