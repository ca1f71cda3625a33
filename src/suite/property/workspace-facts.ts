/**
 * The rules of an instance as its workspace documents state them, read back for the verifiers so that
 * expectations follow exactly the text the agent read.
 */
import type { StateView } from "../../envs/index.js";
import { parseCsv, parseMarkdownTable, requireFile } from "../../envs/index.js";
import {
  ADDENDA_FOLDER,
  CORRESPONDENCE_FOLDER,
  LATE_FEE_POLICY,
  RATE_CARD,
  RENEWAL_MEMO,
  SLA_POLICY,
} from "./documents.js";

function requireMatch(text: string, pattern: RegExp, what: string): string {
  const found = pattern.exec(text);
  if (!found?.[1]) throw new Error(`cannot read ${what}`);
  return found[1].replace(/,/g, "");
}

export interface LatePolicy {
  graceDays: number;
  pct: number;
  min: number;
  max: number;
  threshold: number;
}

export function readLatePolicy(state: StateView): LatePolicy {
  const text = requireFile(state, LATE_FEE_POLICY);
  return {
    graceDays: Number(requireMatch(text, /grace period of (\d+) calendar days/, "the grace period")),
    pct: Number(requireMatch(text, /late fee is ([\d.]+)% of the monthly rent/, "the late-fee percentage")),
    min: Number(requireMatch(text, /never less than \$(\d[\d,]*\.\d{2})/, "the minimum late fee")),
    max: Number(requireMatch(text, /never more than \$(\d[\d,]*\.\d{2})/, "the maximum late fee")),
    threshold: Number(requireMatch(text, /is less than \$(\d[\d,]*\.\d{2})/, "the late-fee threshold")),
  };
}

/** Due days and renewal limits that lease addenda set, by lease id. */
export function readAddenda(state: StateView): {
  dueDay: Map<string, number>;
  renewalLimit: Map<string, number>;
} {
  const dueDay = new Map<string, number>();
  const renewalLimit = new Map<string, number>();
  for (const path of state.listFiles().filter((file) => file.startsWith(ADDENDA_FOLDER))) {
    const text = requireFile(state, path);
    const lease = requireMatch(text, /lease (L-\d{5})/, `the lease of ${path}`);
    const due = /due on day (\d+) of each month/.exec(text);
    if (due) dueDay.set(lease, Number(due[1]));
    const limit = /limited to ([\d.]+)%/.exec(text);
    if (limit) renewalLimit.set(lease, Number(limit[1]));
  }
  return { dueDay, renewalLimit };
}

/** Lease ids whose late fee for the current month the property manager waived in writing. */
export function readApprovedWaivers(state: StateView): Set<string> {
  const waived = new Set<string>();
  for (const path of state.listFiles().filter((file) => file.startsWith(CORRESPONDENCE_FOLDER))) {
    const approved = /property manager: Approved\. .*?lease (L-\d{5}) is waived/.exec(
      requireFile(state, path),
    );
    if (approved) waived.add(approved[1]!);
  }
  return waived;
}

export function readSlaDays(state: StateView): Map<string, number> {
  const rows = parseMarkdownTable(requireFile(state, SLA_POLICY), "Resolution targets");
  return new Map(rows.map((row) => [row[0]!, Number(row[1])]));
}

export function readRenewalCaps(state: StateView): Map<string, number> {
  const rows = parseMarkdownTable(requireFile(state, RENEWAL_MEMO), "Caps by building");
  return new Map(rows.map((row) => [row[0]!, Number(row[2])]));
}

export function readRateCard(state: StateView): Map<string, number> {
  return new Map(
    parseCsv(requireFile(state, RATE_CARD)).map((row) => [row.vendor_id!, Number(row.hourly_rate)]),
  );
}
