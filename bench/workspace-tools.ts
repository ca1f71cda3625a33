/**
 * npm run bench:workspace — latency of the host-side workspace file tools (read_file, list_files,
 * search_files, write_file) called directly, on a workspace shaped like a v3 instance (40 files in a few
 * directories). Measures the cost of the descriptor-relative, no-follow file operations.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatTable } from "../src/cli/format-table.js";
import { WORKSPACE_READ_TOOLS, WORKSPACE_WRITE_TOOL, type ToolContext } from "../src/envs/index.js";
import { formatNumber, percentile } from "./stats.js";

const SAMPLES = Number(process.env.BENCH_WORKSPACE_SAMPLES ?? 2000);

const workspace = mkdtempSync(join(tmpdir(), "bench-workspace-"));
try {
  for (const directory of ["policies", "reports", "notes"]) mkdirSync(join(workspace, directory));
  for (let index = 0; index < 40; index += 1) {
    const directory = ["policies", "reports", "notes", "."][index % 4]!;
    const lines = Array.from(
      { length: 60 },
      (_, line) => `line ${line} of document ${index}: some policy text`,
    );
    writeFileSync(join(workspace, directory, `document-${index}.md`), `${lines.join("\n")}\n`);
  }
  const context = { workspaceDir: workspace } as unknown as ToolContext;
  const tools = new Map([...WORKSPACE_READ_TOOLS, WORKSPACE_WRITE_TOOL].map((tool) => [tool.name, tool]));
  const cases: Array<[string, string, Record<string, unknown>]> = [
    ["read_file", "read_file", { path: "policies/document-0.md", offset: 0 }],
    ["list_files (40 files)", "list_files", { path: ".", page: 1, per_page: 50 }],
    ["search_files (40 files)", "search_files", { query: "document 7:", path: ".", page: 1, per_page: 50 }],
    ["write_file (overwrite)", "write_file", { path: "reports/out.md", content: "a short report\n" }],
  ];
  const rows: Array<Array<string | number>> = [];
  for (const [label, name, args] of cases) {
    const tool = tools.get(name)!;
    const times: number[] = [];
    for (let index = 0; index < SAMPLES; index += 1) {
      const started = performance.now();
      await (tool.handler as (input: unknown, context: ToolContext) => Promise<unknown>)(args, context);
      times.push((performance.now() - started) * 1000);
    }
    rows.push([
      label,
      `${formatNumber(percentile(times, 0.5), 0)} us`,
      `${formatNumber(percentile(times, 0.95), 0)} us`,
    ]);
  }
  console.log(formatTable(["workspace tool (direct handler call)", "p50", "p95"], rows));
} finally {
  rmSync(workspace, { recursive: true, force: true });
}
