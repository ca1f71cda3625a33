/** The utility's fixed facts: "now", time helpers, and the policy documents' tables read back for verifiers. */
import { addBusinessDays, addDays, parseMarkdownTable } from "../../envs/index.js";
import type { StateView } from "../../envs/index.js";

/** The moment every task happens in (the reference date, start of the day shift). */
export const NOW = "2025-06-30T08:00:00Z";
/** NOW as a user states it in an instruction: the tools and documents give only the date. */
export const NOW_TEXT = "Monday, June 30, 2025, 08:00 UTC";
export const PRIORITIES = ["P1", "P2", "P3", "P4"] as const;
/** Handheld notes are written in the service territory's local time. */
export const LOCAL_OFFSET_HOURS = -5;

export const POLICY = {
  reads: "policies/meter-read-policy.md",
  sla: "policies/work-order-sla.md",
  dispatch: "policies/dispatch.md",
  outages: "policies/outage-reporting.md",
  stock: "policies/truck-stock.md",
} as const;

/** Seconds since the epoch of a UTC ISO timestamp. */
export function secondsOf(iso: string): number {
  return Date.parse(iso.endsWith("Z") ? iso : `${iso}Z`) / 1000;
}

/** `YYYY-MM-DDTHH:MM:SSZ` of seconds since the epoch. */
export function isoAt(seconds: number): string {
  return `${new Date(Math.round(seconds) * 1000).toISOString().slice(0, 19)}Z`;
}

/** A policy document's table under a heading, as rows of cells. */
export function policyTable(state: StateView, path: string, heading: string): string[][] {
  return parseMarkdownTable(state.readFile(path) ?? "", heading);
}

/** Consecutive estimated reads that send a meter for a field visit, by customer class. */
export function readThresholds(state: StateView): Map<string, number> {
  return new Map(
    policyTable(state, POLICY.reads, "Field visit thresholds").map(([cls, n]) => [cls!, Number(n)]),
  );
}

/** Completion targets by priority: hours (clock) or business days. */
export function slaTargets(state: StateView): Map<string, { amount: number; unit: string }> {
  return new Map(
    policyTable(state, POLICY.sla, "Completion targets").map(([priority, amount, unit]) => [
      priority!,
      { amount: Number(amount), unit: unit! },
    ]),
  );
}

/** Crews not available today and why ("truck in shop", "training", ...). */
export function unavailableCrews(state: StateView): Map<string, string> {
  return new Map(
    policyTable(state, POLICY.dispatch, "Unavailable today").map(([crew, why]) => [crew!, why!]),
  );
}

/** Restock levels per part: reorder point and par, for trucks of one skill. */
export function stockLevels(state: StateView): Map<string, { skill: string; reorder: number; par: number }> {
  const levels = new Map<string, { skill: string; reorder: number; par: number }>();
  for (const skill of ["electric", "water"])
    for (const [sku, , reorder, par] of policyTable(state, POLICY.stock, `${skill} trucks`))
      levels.set(sku!, { skill, reorder: Number(reorder), par: Number(par) });
  return levels;
}

/** The outage-reporting thresholds in minutes: below `momentary` is momentary; `followUp` calls critical care. */
export function outageThresholds(state: StateView): { momentary: number; followUp: number } {
  const rows = new Map(
    policyTable(state, POLICY.outages, "Thresholds").map(([name, n]) => [name!, Number(n)]),
  );
  return {
    momentary: rows.get("momentary interruption under")!,
    followUp: rows.get("critical-care follow-up at")!,
  };
}

export type Target = { amount: number; unit: string };

/** The SLA the generator writes into the policy (verifiers read the document instead). */
export const SLA_TARGETS: Record<string, Target> = {
  P1: { amount: 4, unit: "hours" },
  P2: { amount: 24, unit: "hours" },
  P3: { amount: 3, unit: "business days" },
  P4: { amount: 10, unit: "business days" },
};

/** When a work order created at `created` must be completed: clock hours, or business days at the same time of day. */
export function deadlineOf(created: string, target: Target, calendar = false): number {
  if (target.unit === "hours") return secondsOf(created) + target.amount * 3600;
  const day = calendar
    ? addDays(created.slice(0, 10), target.amount)
    : addBusinessDays(created.slice(0, 10), target.amount);
  return secondsOf(`${day}${created.slice(10)}`);
}
