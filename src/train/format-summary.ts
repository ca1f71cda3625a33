import type { RlExportSummary } from "./export-rl.js";
import type { SftExportSummary } from "./export-sft.js";

const number = (value: number): string => value.toLocaleString("en-US");

/** The summary `export sft` prints. */
export function formatSftSummary(summary: SftExportSummary, seconds?: number): string {
  const dropped = Object.entries(summary.dropped)
    .filter(([, count]) => count > 0)
    .map(([reason, count]) => `${reason} ${count}`);
  const tokens = summary.tokensPerRow;
  const lines = [
    `episodes read ${summary.episodesRead}, kept ${summary.kept} (train ${summary.rows.train}, val ${summary.rows.val}), dropped ${dropped.length > 0 ? dropped.join(", ") : "none"}`,
    `tokens per row: mean ${number(tokens.mean)}, p95 ${number(tokens.p95)}, max ${number(tokens.max)}; ${number(tokens.total)} tokens, ${number(tokens.trained)} trained (${(tokens.trainedShare * 100).toFixed(1)}%)`,
  ];
  if (summary.msSwift)
    lines.push(
      `ms-swift: ${summary.msSwift.callsReserialised} tool calls re-serialised by ms-swift, ${summary.msSwift.callsUnparseable} unparseable, ${summary.msSwift.rowsTextDiffers} rows whose ms-swift text differs from the chat template's`,
    );
  for (const file of summary.files) lines.push(`wrote ${file}`);
  lines.push(`wrote ${summary.manifestPath}${seconds === undefined ? "" : ` in ${seconds.toFixed(1)} s`}`);
  return lines.join("\n");
}

/** The summary `export rl` prints. */
export function formatRlSummary(summary: RlExportSummary, seconds?: number): string {
  return [
    `rows: train ${summary.rows.train}, val ${summary.rows.val} (tasks: train ${summary.tasks.train}, val ${summary.tasks.val})`,
    `prompt tokens: mean ${number(summary.promptTokens.mean)}, p95 ${number(summary.promptTokens.p95)}, max ${number(summary.promptTokens.max)}`,
    ...summary.files.map((file) => `wrote ${file}`),
    `wrote ${summary.manifestPath}${seconds === undefined ? "" : ` in ${seconds.toFixed(1)} s`}`,
  ].join("\n");
}
