/**
 * What an instance's documents say, read back for the verifiers: the OCR pages of the scanned documents
 * (with the same patterns the oracles use) and the rules in the workspace memos. Expectations follow the
 * text the agent read, never the generator's drafts.
 */
import type { StateView } from "../../envs/index.js";
import { allRows, groupBy, parseMarkdownTable, roundCents, requireFile } from "../../envs/index.js";
import { PATHS } from "./rules.js";

export const INVOICE_LINE =
  /^\s*(\d{1,2})\s+(\d{4}\.\d{2}\.\d{4})\s+(.*?)\s+([\d,]+)\s+([\d,]+\.\d{2})\s+([\d,]+\.\d{2})\s*$/;
export const PACKING_LINE =
  /^\s*(\d{1,2})\s+(.*?)\s+(\d+) (CTN|PLT|BOX)\s+([\d,]+)\s+([\d.]+)\s+([\d.]+)\s*$/;
const TOTAL = /TOTAL INVOICE VALUE:\s+([A-Z]{3}) ([\d,]+\.\d{2})/;

const number = (text: string): number => Number(text.replace(/,/g, ""));

export interface InvoiceLine {
  no: number;
  hs: string;
  qty: number;
  amount: number;
}

export interface ShipmentFacts {
  shipment_id: string;
  status: string;
  origin: string;
  mode: string;
  claimed: string | null;
  declared: number;
  currency: string;
  total: number;
  lines: InvoiceLine[];
  packed: Map<number, number> | null;
  certificates: string[];
}

function pagesOf(state: StateView, shipment: string, type: string): string[][] {
  const rows = allRows<{ doc_id: string; ocr_text: string }>(
    state.db,
    `SELECT d.doc_id, p.ocr_text FROM documents d JOIN document_pages p ON p.doc_id = d.doc_id
      WHERE d.shipment_id = ? AND d.doc_type = ? ORDER BY d.doc_id, p.page_no`,
    shipment,
    type,
  );
  return [...groupBy(rows, (row) => row.doc_id).values()].map((doc) => doc.map((row) => row.ocr_text));
}

/** Every shipment with what its scanned documents say. */
export function readShipments(state: StateView): ShipmentFacts[] {
  const shipments = allRows<
    Pick<ShipmentFacts, "shipment_id" | "status" | "origin" | "mode" | "claimed" | "declared">
  >(
    state.db,
    `SELECT shipment_id, status, origin_country AS origin, mode, preference_claimed AS claimed,
       declared_value AS declared FROM shipments ORDER BY shipment_id`,
  );
  return shipments.map((row) => {
    const invoice = (pagesOf(state, row.shipment_id, "commercial_invoice")[0] ?? []).join("\n");
    const lines = invoice
      .split("\n")
      .map((line) => INVOICE_LINE.exec(line))
      .filter((match) => match !== null)
      .map((match) => ({
        no: Number(match[1]),
        hs: match[2]!,
        qty: number(match[4]!),
        amount: number(match[6]!),
      }));
    const total = TOTAL.exec(invoice);
    if (!total || lines.length === 0) throw new Error(`cannot read the invoice of ${row.shipment_id}`);
    const packing = pagesOf(state, row.shipment_id, "packing_list")[0];
    const packed = packing
      ? new Map(
          packing
            .join("\n")
            .split("\n")
            .map((line) => PACKING_LINE.exec(line))
            .filter((match) => match !== null)
            .map((match) => [Number(match[1]), number(match[5]!)] as [number, number]),
        )
      : null;
    const certificates = pagesOf(state, row.shipment_id, "certificate_of_origin").map(
      (pages) => /Preference program: ([A-Z]+)/.exec(pages.join("\n"))?.[1] ?? "",
    );
    return {
      ...row,
      currency: total[1]!,
      total: number(total[2]!),
      lines,
      packed,
      certificates,
    };
  });
}

export interface Rules {
  rates: Map<string, number>;
  members: Map<string, string[]>;
  general: Map<string, number>;
  special: Map<string, Map<string, number>>;
  threshold: number;
  excludedChapters: Set<string>;
  tolerance: number;
}

export function readRules(state: StateView): Rules {
  const duty = requireFile(state, PATHS.dutyRules);
  const deMinimis = requireFile(state, PATHS.deMinimis);
  const special = new Map<string, Map<string, number>>();
  for (const row of allRows<{ hs_code: string; program: string; rate_pct: number }>(
    state.db,
    "SELECT * FROM special_rates",
  ))
    special.set(
      row.hs_code,
      (special.get(row.hs_code) ?? new Map<string, number>()).set(row.program, row.rate_pct),
    );
  return {
    rates: new Map(
      parseMarkdownTable(requireFile(state, PATHS.rates), "Currency rates").map((row) => [
        row[0]!,
        Number(row[2]),
      ]),
    ),
    members: new Map(
      parseMarkdownTable(duty, "Preference programs").map((row) => [row[0]!, row[1]!.split(", ")]),
    ),
    general: new Map(
      allRows<{ hs_code: string; general_rate_pct: number }>(
        state.db,
        "SELECT hs_code, general_rate_pct FROM tariff_lines",
      ).map((row) => [row.hs_code, row.general_rate_pct]),
    ),
    special,
    threshold: number(/customs value .*? is \$([\d,]+\.\d{2}) or less/.exec(deMinimis)![1]!),
    excludedChapters: new Set(parseMarkdownTable(deMinimis, "Excluded chapters").map((row) => row[0]!)),
    tolerance: Number(/by less than ([\d.]+) of that currency/.exec(duty)![1]),
  };
}

export interface Valuation {
  value: number;
  duty: number;
  program: string | null;
  deMinimis: boolean;
}

/** Customs value, duty, the program applied and de-minimis qualification, per the memos. */
export function valuate(shipment: ShipmentFacts, rules: Rules): Valuation {
  const rate = rules.rates.get(shipment.currency)!;
  const claimed = shipment.claimed;
  const eligible =
    claimed !== null &&
    rules.members.get(claimed)?.includes(shipment.origin) === true &&
    shipment.certificates.includes(claimed);
  let value = 0;
  let duty = 0;
  let program: string | null = null;
  for (const line of shipment.lines) {
    const usd = roundCents(line.amount * rate);
    const special = eligible ? rules.special.get(line.hs)?.get(claimed) : undefined;
    if (special !== undefined) program = claimed;
    value += usd;
    duty += roundCents((usd * (special ?? rules.general.get(line.hs)!)) / 100);
  }
  value = roundCents(value);
  const excluded = shipment.lines.some((line) => rules.excludedChapters.has(line.hs.slice(0, 2)));
  return { value, duty: roundCents(duty), program, deMinimis: value <= rules.threshold && !excluded };
}

/** Whether the declared value disagrees with the invoice total beyond the tolerance. */
export function hasDiscrepancy(shipment: ShipmentFacts, rules: Rules): boolean {
  return Math.abs(shipment.declared - shipment.total) >= rules.tolerance - 1e-9;
}

/** Shipment ids with an open hold. */
export function openHolds(
  state: StateView,
): Array<{ hold_id: string; shipment_id: string; hold_type: string; reason: string }> {
  return allRows(
    state.db,
    "SELECT hold_id, shipment_id, hold_type, reason FROM holds WHERE released_on IS NULL ORDER BY hold_id",
  );
}
