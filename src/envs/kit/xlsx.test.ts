import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bindTool } from "../../runtime/index.js";
import { readWorkbookTool } from "./workbook-tool.js";
import { columnLetter, readXlsx, writeXlsx, type XlsxSheet } from "./xlsx.js";

const PYTHON = "/usr/bin/python3";
const SHEETS: XlsxSheet[] = [
  {
    name: "Walk-in & cooler",
    rows: [["Count <week 26>"], [], ["Item code", "Count", "Unit"], ["ITM-0001", 2.5, "cs"], [null, 3, "ea"]],
    merges: ["A1:C1"],
    widths: [14, 8, 6],
    boldRows: [1, 3],
  },
  { name: "Dry store", rows: [["ünïcode", 0, -1.25]] },
];

describe("xlsx writer", () => {
  it("names columns as spreadsheets do", () => {
    expect([0, 25, 26, 27, 701, 702].map(columnLetter)).toEqual(["A", "Z", "AA", "AB", "ZZ", "AAA"]);
  });

  it("writes identical bytes for identical sheets and reads them back", () => {
    const bytes = writeXlsx(SHEETS);
    expect(Buffer.compare(Buffer.from(bytes), Buffer.from(writeXlsx(SHEETS)))).toBe(0);
    expect(readXlsx(bytes)).toEqual([
      {
        name: "Walk-in & cooler",
        rows: [
          ["Count <week 26>"],
          [],
          ["Item code", "Count", "Unit"],
          ["ITM-0001", 2.5, "cs"],
          [null, 3, "ea"],
        ],
        merges: ["A1:C1"],
      },
      { name: "Dry store", rows: [["ünïcode", 0, -1.25]], merges: [] },
    ]);
  });

  it("read_workbook gives a workspace workbook row by row, blank rows and merges as they are, paginated", async () => {
    const folder = mkdtempSync(join(tmpdir(), "kit-xlsx-"));
    try {
      writeFileSync(join(folder, "count.xlsx"), writeXlsx(SHEETS));
      const tool = bindTool(readWorkbookTool, { db: undefined as never, workspaceDir: folder });
      const call = (args: Record<string, unknown>) =>
        tool.call(args, { signal: AbortSignal.timeout(5_000), timeoutMs: 5_000 });
      const first = await call({ path: "count.xlsx", per_page: 4 });
      expect(JSON.stringify(first)).toContain('"sheet_names":["Walk-in & cooler","Dry store"]');
      expect(JSON.stringify(first)).toContain('{"row":2,"cells":{}}');
      expect(JSON.stringify(first)).toContain('"merged":["A1:C1"]');
      expect(JSON.stringify(first)).toContain('"total_rows":6,"has_more":true');
      const second = JSON.stringify(await call({ path: "count.xlsx", per_page: 4, page: 2 }));
      expect(second).toContain('{"row":5,"cells":{"B":3,"C":"ea"}}');
      expect(second).toContain(
        '"name":"Dry store","merged":[],"rows":[{"row":1,"cells":{"A":"ünïcode","B":0,"C":-1.25}}]',
      );
      expect(JSON.stringify(await call({ path: "count.xlsx", sheet: "Pantry" }))).toContain(
        "has no sheet 'Pantry'",
      );
      expect(JSON.stringify(await call({ path: "missing.xlsx" }))).toContain("cannot be read");
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it.runIf(existsSync(PYTHON))("opens in openpyxl with its merged cells and without warnings", () => {
    const folder = mkdtempSync(join(tmpdir(), "kit-xlsx-"));
    try {
      const path = join(folder, "count.xlsx");
      writeFileSync(path, writeXlsx(SHEETS));
      const program = [
        "import json, sys, openpyxl",
        "wb = openpyxl.load_workbook(sys.argv[1])",
        "print(json.dumps([[ws.title, [str(r) for r in ws.merged_cells.ranges], [list(r) for r in ws.iter_rows(values_only=True)]] for ws in wb.worksheets]))",
      ].join("\n");
      const output = execFileSync(PYTHON, ["-W", "error", "-c", program, path]).toString();
      expect(JSON.parse(output)).toEqual([
        [
          "Walk-in & cooler",
          ["A1:C1"],
          [
            ["Count <week 26>", null, null],
            [null, null, null],
            ["Item code", "Count", "Unit"],
            ["ITM-0001", 2.5, "cs"],
            [null, 3, "ea"],
          ],
        ],
        ["Dry store", [], [["ünïcode", 0, -1.25]]],
      ]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
