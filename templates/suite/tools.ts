// The domain's tools: what an agent may call (directly under DTC, as tools.<name>(...) from Python under
// PTC). One definition gives the JSON Schema, the Python signature and the MCP tool; keep each tool single-
// purpose and say in its description what it returns.
import { z } from "zod";
import {
  ToolFailure,
  cachedStatement,
  defineListTool,
  defineTool,
  optionalChoice,
  optionalDate,
  requireRow,
  roundCents,
  when,
  type ToolContext,
} from "progagent";
import { loanId, memberId } from "./schema.js";

// A paginated read tool from a declaration (kit): input { status?, due_before?, member_id?, page, per_page },
// result { loans, page, per_page, total, has_more }, which PYTHON_WORKSPACE_HELPERS' fetch_all pages through.
export const listLoans = defineListTool({
  name: "list_loans",
  description:
    "List loans by due date, each with the borrowing member's tier and the late fee charged so far. Filter by status (out: not returned yet; returned), due_before (YYYY-MM-DD, exclusive) or member_id. Paginated: returns `loans`, `page`, `per_page`, `total`, `has_more`.",
  // Each filter is a zod field with a description: the model reads it in the tool's schema and signature.
  filters: {
    status: optionalChoice(["out", "returned"], "Only loans still out, or only returned loans"),
    due_before: optionalDate("Only loans due before this date, YYYY-MM-DD"),
    member_id: memberId.schema("Only this member's loans").optional(),
  },
  key: "loans",
  from: "loans l JOIN members m ON m.member_id = l.member_id",
  select:
    "l.loan_id, l.member_id, m.tier AS member_tier, l.title, l.borrowed_on, l.due_on, l.returned_on, l.late_fee",
  // Conditions for the filters given; `when` skips a filter the caller left out. When every filter maps to
  // one condition on its own value, a record says the same: where: { due_before: "l.due_on < ?", ... }.
  where: ({ status, due_before, member_id }) => [
    status === "out" && "l.returned_on IS NULL",
    status === "returned" && "l.returned_on IS NOT NULL",
    when(due_before, "l.due_on < ?"),
    when(member_id, "l.member_id = ?"),
  ],
  // A total order (ending with a unique column), so pages never overlap.
  orderBy: "l.due_on, l.loan_id",
});

// A write tool. Errors the model should read and act on are ToolFailure: say what was wrong and what to do.
export const chargeLateFee = defineTool({
  name: "charge_late_fee",
  description:
    "Charge a late fee on a loan that is still out: sets the loan's late_fee to the amount, in dollars. A loan is charged once. Returns the loan id and its late fee.",
  kind: "write",
  inputSchema: z.object({
    loan_id: loanId.schema("The loan to charge"),
    amount: z.number().positive().max(1000).describe("The fee in dollars, e.g. 2.75"),
  }),
  handler: ({ loan_id, amount }, { db }: ToolContext) => {
    // requireRow: the row, or a ToolFailure with the not-found message (which names list_loans).
    const loan = requireRow<{ returned_on: string | null; late_fee: number }>(
      db,
      "SELECT returned_on, late_fee FROM loans WHERE loan_id = ?",
      [loan_id],
      loanId.notFound(loan_id).message,
    );
    if (loan.returned_on !== null)
      throw new ToolFailure(
        `loan ${loan_id} was returned on ${loan.returned_on}; returned loans are settled at the desk`,
      );
    if (loan.late_fee > 0)
      throw new ToolFailure(
        `loan ${loan_id} already has a late fee of ${loan.late_fee.toFixed(2)}; a loan is charged once`,
      );
    const fee = roundCents(amount);
    // cachedStatement: one prepared statement per SQL text per episode database.
    cachedStatement(db, "UPDATE loans SET late_fee = ? WHERE loan_id = ?").run(fee, loan_id);
    return { loan_id, late_fee: fee };
  },
});
