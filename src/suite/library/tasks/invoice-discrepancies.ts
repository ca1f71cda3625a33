import { checkAnswerIdLists, defineTask, flagNearMisses } from "../../../envs/index.js";
import { libraryDomain } from "../domain.js";
import { invoiceProblems } from "../facts.js";
import { LIBRARY_PY } from "./python.js";

function cells(near: string[]): string[] {
  return [
    LIBRARY_PY,
    `NEAR = set(${JSON.stringify(near)})
problems = invoice_problems()
print(len(problems))`,
    `print(json.dumps({invoice: lines for invoice, lines in problems.items() if lines}))`,
  ];
}

export const invoiceDiscrepanciesTask = defineTask({
  id: "library.invoice-discrepancies",
  domain: libraryDomain,
  summary:
    "Pending invoices' printout lines failing the review policy (vendor-record discount, tolerance, over-quantity; multi-page printouts, gateway errors).",
  instruction:
    'Review the printouts of all pending invoices against their order lines using the line checks in our invoice review policy. Do not change anything. Reply with only a JSON object mapping each pending invoice that has at least one failing line to the list of the failing PO line ids, e.g. {"INV-00004": ["POL-000031"]}.',
  tools: ["list_vendors", "list_invoices", "get_invoice_page", "list_order_lines"],
  verify: ({ initial, answer }) => {
    const expected = new Map([...invoiceProblems(initial)].filter(([, lines]) => lines.length > 0));
    return [checkAnswerIdLists(answer, expected)];
  },
  oracle: cells([]),
  nearMisses: flagNearMisses(cells, [
    [
      "printed-discount",
      "Computes the expected price with the discount the vendor printed.",
      "printed-discount",
    ],
    ["first-page-only", "Reads only page 1 of each printout.", "first-page"],
    ["no-tolerance", "Flags every price difference, even within the tolerance.", "no-tolerance"],
    ["short-shipments-flagged", "Flags invoiced quantities below the ordered quantity too.", "any-qty"],
    ["price-only", "Checks prices only, never the invoiced quantities.", "no-qty"],
    ["gateway-errors-as-pages", "Takes the gateway's error answer as an empty page.", "trust-status"],
  ]),
});
