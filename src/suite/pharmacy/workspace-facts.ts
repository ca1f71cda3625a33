/**
 * The rules of an instance as its workspace documents state them, read back for the verifiers so that
 * expectations follow exactly the text the agent read.
 */
import { allRows, parseCsv, parseMarkdownTable, requireFile, type StateView } from "../../envs/index.js";
import {
  CABINET_PAR_FOLDER,
  CENTRAL_PAR,
  CONTROLLED_POLICY,
  COUNT_FOLDER,
  FORMULARY_MEMO,
  INBOX_FOLDER,
  INVENTORY_POLICY,
  RECALL_FOLDER,
} from "./documents.js";

function requireNumber(text: string, pattern: RegExp, what: string): number {
  const found = pattern.exec(text);
  if (!found?.[1]) throw new Error(`cannot read ${what}`);
  return Number(found[1]);
}

function filesUnder(state: StateView, folder: string): string[] {
  return state
    .listFiles()
    .filter((path) => path.startsWith(folder))
    .sort();
}

export function readInventoryRules(state: StateView): { shortDatedDays: number; returnWindowDays: number } {
  const text = requireFile(state, INVENTORY_POLICY);
  return {
    shortDatedDays: requireNumber(text, /through (\d+) days from today/, "the short-dated window"),
    returnWindowDays: requireNumber(text, /no more than (\d+) days before today/, "the returns window"),
  };
}

/** The count threshold, the override window in minutes and the audit period in days. */
export function readControlledRules(state: StateView) {
  const text = requireFile(state, CONTROLLED_POLICY);
  return {
    threshold: requireNumber(text, /reportable when it is (\d+) units or more/, "the count threshold"),
    overrideMinutes: requireNumber(text, /no later than (\d+) minutes after the pull/, "the override window"),
    auditDays: requireNumber(text, /made in the last (\d+) days/, "the audit period"),
  };
}

export interface Interchange {
  from: string;
  to: string;
  factor: number;
  approved: boolean;
}

export function readInterchanges(state: StateView): Interchange[] {
  return parseMarkdownTable(requireFile(state, FORMULARY_MEMO), "Therapeutic interchange").map((row) => ({
    from: row[0]!,
    to: row[2]!,
    factor: Number(row[4]),
    approved: row[5] === "approved",
  }));
}

export function readCentralPar(state: StateView): Map<string, { reorderPoint: number; par: number }> {
  return new Map(
    parseCsv(requireFile(state, CENTRAL_PAR)).map((row) => [
      row.drug_id!,
      { reorderPoint: Number(row.reorder_point), par: Number(row.par) },
    ]),
  );
}

/** Min and max by cabinet, then by drug id. */
export function readCabinetPars(state: StateView): Map<string, Map<string, { min: number; max: number }>> {
  return new Map(
    filesUnder(state, CABINET_PAR_FOLDER).map((path) => [
      path.slice(CABINET_PAR_FOLDER.length).replace(/\.csv$/, ""),
      new Map(
        parseCsv(requireFile(state, path)).map((row) => [
          row.drug_id!,
          { min: Number(row.min), max: Number(row.max) },
        ]),
      ),
    ]),
  );
}

/** Final counts (a recount replaces the first count) by cabinet, then by drug id, with the sheet's date. */
export function readCountSheets(
  state: StateView,
): Array<{ cabinet: string; date: string; counts: Map<string, number> }> {
  return filesUnder(state, COUNT_FOLDER).map((path) => {
    const text = requireFile(state, path);
    const cabinet = /^Cabinet: (LOC-\d+)/m.exec(text)?.[1];
    const date = /^Count date: (\d{4}-\d{2}-\d{2})/m.exec(text)?.[1];
    if (!cabinet || !date) throw new Error(`cannot read the header of ${path}`);
    const counts = new Map<string, number>();
    for (const found of text.matchAll(/^(D-\d{4}) .*?\.+\s+(\d+)$/gm))
      counts.set(found[1]!, Number(found[2]));
    for (const found of text.matchAll(/^RECOUNT (D-\d{4}) .*? = (\d+)/gm))
      counts.set(found[1]!, Number(found[2]));
    return { cabinet, date, counts };
  });
}

export interface RecallFacts {
  notice: string;
  recallClass: "I" | "II";
  ndc: string;
  lotNumbers: string[];
}

/** Every recall notice with the lots later e-mails added to it. */
export function readRecalls(state: StateView): RecallFacts[] {
  const recalls = filesUnder(state, RECALL_FOLDER).map((path): RecallFacts => {
    const text = requireFile(state, path);
    const lots = /^Affected lot numbers: (.+)$/m.exec(text)?.[1];
    const notice = /^Notice (RCL-[\d-]+)/m.exec(text)?.[1];
    const ndc = /^NDC: ([\d-]+)$/m.exec(text)?.[1];
    const recallClass = /CLASS (II|I)\b/.exec(text)?.[1];
    if (!lots || !notice || !ndc || !recallClass) throw new Error(`cannot read recall notice ${path}`);
    return { notice, recallClass: recallClass as "I" | "II", ndc, lotNumbers: lots.split(/,\s*/) };
  });
  for (const path of filesUnder(state, INBOX_FOLDER)) {
    const text = requireFile(state, path);
    const notice = /^Subject:.*?(RCL-[\d-]+)/m.exec(text)?.[1];
    const lot = /\b[Ll]ot(?: number)?:? ([A-Z]{2}\d{5})\b/.exec(text)?.[1];
    const recall = recalls.find((candidate) => candidate.notice === notice);
    if (lot && recall) recall.lotNumbers.push(lot);
  }
  return recalls;
}

/** Lot ids of the recalled lots: the lot number and the product's NDC both match a notice. */
export function recalledLotIds(
  state: StateView,
  classes: ReadonlyArray<"I" | "II"> = ["I", "II"],
): Set<string> {
  const lots = allRows<{ lot_id: string; lot_number: string; ndc: string }>(
    state.db,
    "SELECT l.lot_id, l.lot_number, d.ndc FROM lots l JOIN drugs d ON d.drug_id = l.drug_id",
  );
  const ids = new Set<string>();
  for (const recall of readRecalls(state).filter((candidate) => classes.includes(candidate.recallClass)))
    for (const lot of lots)
      if (lot.ndc === recall.ndc && recall.lotNumbers.includes(lot.lot_number)) ids.add(lot.lot_id);
  return ids;
}

/** The latest wholesaler invoice's lines and the dispute tolerance of the invoice review rule. */
export function readInvoice(state: StateView): {
  toleranceCents: number;
  lines: Array<{ po: string; packs: number; priceCents: number }>;
} {
  const path = filesUnder(state, INBOX_FOLDER).find((candidate) =>
    candidate.includes("-wholesaler-invoice-"),
  );
  if (!path) throw new Error("the wholesaler invoice is missing");
  const lines = [
    ...requireFile(state, path).matchAll(/^(PO-\d{5})\s+D-\d{4}\s.*?\s(\d+) pk\s+@ \$([\d,]+\.\d{2})\/pk/gm),
  ].map((found) => ({
    po: found[1]!,
    packs: Number(found[2]),
    priceCents: Math.round(Number(found[3]!.replace(/,/g, "")) * 100),
  }));
  const tolerance = /more than \$(\d+\.\d{2}) above the catalog pack cost/.exec(
    requireFile(state, INVENTORY_POLICY),
  );
  if (!tolerance?.[1] || lines.length === 0) throw new Error("cannot read the invoice or its review rule");
  return { toleranceCents: Math.round(Number(tolerance[1]) * 100), lines };
}
