import { checkStateDiff, defineTask, flagNearMisses } from "../../../envs/index.js";
import { libraryDomain } from "../domain.js";
import { invoiceProblems } from "../facts.js";
import { checkCounts } from "./common.js";
import { LIBRARY_PY } from "./python.js";

function cells(near: string[]): string[] {
  return [
    LIBRARY_PY,
    `NEAR = set(${JSON.stringify(near)})
problems = invoice_problems()
print(len(problems))`,
    `approved = held = 0
for invoice, lines in problems.items():
    if lines:
        call("hold_invoice", invoice_id=invoice, reason="lines failing review: " + ", ".join(lines))
        held += 1
    else:
        call("approve_invoice", invoice_id=invoice)
        approved += 1
print(f"approved: {approved}, held: {held}")`,
  ];
}

export const reviewInvoicesTask = defineTask({
  id: "library.review-invoices",
  domain: libraryDomain,
  summary:
    "Approve or hold every pending invoice by the review policy's line checks (writes checked by state difference).",
  instruction:
    "Work through the pending invoices: check every line of each printout as our invoice review policy says, then approve the invoice or put it on hold as the policy's outcome section says. Change nothing else. Reply in the form `approved: 4, held: 2`.",
  tools: [
    "list_vendors",
    "list_invoices",
    "get_invoice_page",
    "list_order_lines",
    "approve_invoice",
    "hold_invoice",
  ],
  verify: ({ initial, final, answer }) => {
    const problems = [...invoiceProblems(initial)];
    const held = problems.filter(([, lines]) => lines.length > 0).length;
    if (held === 0 || held === problems.length)
      throw new Error("generation left no clean or no failing invoice");
    return [
      ...checkStateDiff(initial.db, final.db, [
        {
          table: "invoices",
          key: "invoice_id",
          changed: new Map(
            problems.map(([id, lines]) => [id, { status: lines.length > 0 ? "on_hold" : "approved" }]),
          ),
          ignoreColumns: ["hold_reason"],
        },
      ]),
      checkCounts(answer, { approved: problems.length - held, held }),
    ];
  },
  oracle: cells([]),
  nearMisses: flagNearMisses(cells, [
    [
      "gateway-errors-as-pages",
      "Takes the gateway's error answer as an empty page and approves.",
      "trust-status",
    ],
    ["no-tolerance", "Holds invoices whose prices differ within the tolerance.", "no-tolerance"],
    ["printed-discount", "Trusts the discount the vendor printed.", "printed-discount"],
    ["price-only", "Checks prices only, never the invoiced quantities.", "no-qty"],
  ]),
});
