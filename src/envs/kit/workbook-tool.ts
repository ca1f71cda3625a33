import { z } from "zod";
import { ToolFailure, defineTool } from "../../runtime/index.js";
import type { ToolContext } from "../define-domain.js";
import { readWorkspaceBytesSync } from "../workspace-fs-sync.js";
import { WorkspaceFsError } from "../workspace-path.js";
import { columnLetter, readXlsx } from "./xlsx.js";

/**
 * `read_workbook`: a workspace .xlsx as a spreadsheet export API gives it, so that an agent calling tools
 * one at a time can read what sandbox code reads with openpyxl. Cells come row by row as they are (title
 * and notes rows, blank rows, merged ranges listed but not filled in, values not interpreted); the rows of
 * the chosen sheets (all by default) are paginated.
 */
export const readWorkbookTool = defineTool({
  name: "read_workbook",
  description:
    "Read a spreadsheet workbook (.xlsx) from the workspace, row by row as it is: each row as `{row, cells}` where `cells` maps column letters to values (empty cells left out, a blank row has no cells), plus each sheet's `merged` ranges. Paginated over the rows of the chosen sheets (all sheets in tab order by default): returns `sheet_names`, `sheets` [{name, merged, rows}] for the page, `page`, `per_page`, `total_rows`, `has_more`.",
  kind: "read",
  inputSchema: z.object({
    path: z
      .string()
      .min(1)
      .describe("Workbook path relative to the workspace root, e.g. counts/x/2025-W26.xlsx"),
    sheet: z.string().min(1).optional().describe("Only this sheet (by name); all sheets when omitted"),
    page: z.number().int().min(1).default(1).describe("Page number, starting at 1"),
    per_page: z.number().int().min(1).max(500).default(200).describe("Rows per page (1-500)"),
  }),
  handler: ({ path, sheet, page, per_page }, { workspaceDir }: ToolContext) => {
    let book;
    try {
      book = readXlsx(readWorkspaceBytesSync(workspaceDir, path));
    } catch (error) {
      if (error instanceof WorkspaceFsError)
        throw new ToolFailure(
          `workbook '${path}' cannot be read (${error.message}); use list_files to see what exists`,
        );
      throw new ToolFailure(`'${path}' is not an .xlsx workbook`);
    }
    const chosen = sheet === undefined ? book : book.filter((s) => s.name === sheet);
    if (chosen.length === 0)
      throw new ToolFailure(
        `workbook '${path}' has no sheet '${sheet}'; its sheets: ${book.map((s) => s.name).join(", ")}`,
      );
    const flat = chosen.flatMap((s) => s.rows.map((cells, index) => ({ sheet: s, row: index + 1, cells })));
    const slice = flat.slice((page - 1) * per_page, page * per_page);
    const sheets = chosen
      .filter((s) => slice.some((entry) => entry.sheet === s))
      .map((s) => ({
        name: s.name,
        merged: s.merges,
        rows: slice
          .filter((entry) => entry.sheet === s)
          .map(({ row, cells }) => ({
            row,
            cells: Object.fromEntries(
              cells.flatMap((value, col) =>
                value === null || value === "" ? [] : [[columnLetter(col), value]],
              ),
            ),
          })),
      }));
    return {
      path,
      sheet_names: book.map((s) => s.name),
      sheets,
      page,
      per_page,
      total_rows: flat.length,
      has_more: page * per_page < flat.length,
    };
  },
});
