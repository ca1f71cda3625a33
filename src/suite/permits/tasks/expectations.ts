/**
 * What the permits tasks expect, computed from an instance's initial state: the database and the workspace
 * documents as the agent read them.
 */
import type { StateView } from "../../../envs/index.js";
import { REFERENCE_DATE, addBusinessDays, allRows, parseCsv, requireFile } from "../../../envs/index.js";
import { INSPECTION_POLICY, ROSTER } from "../documents.js";
import { ORDINALS } from "../rules.js";

/** Issued permits whose contractor's license is suspended, expired, or past its expiry date. */
export function stopWorkTargets(state: StateView): string[] {
  const ids = allRows<{ permit_id: string }>(
    state.db,
    `SELECT p.permit_id FROM permits p JOIN contractors c ON c.license_id = p.contractor_id
      WHERE p.status = 'issued' AND (c.status <> 'active' OR c.license_expires < ?) ORDER BY p.permit_id`,
    REFERENCE_DATE,
  ).map((row) => row.permit_id);
  if (ids.length === 0) throw new Error("generation produced no permit under a lapsed license");
  return ids;
}

/** The re-inspection booking date the memo sets (its business-day lead counted from today). */
export function reinspectionDate(state: StateView): string {
  const found = /for the (\w+) business day/.exec(requireFile(state, INSPECTION_POLICY));
  const lead = ORDINALS.indexOf(found?.[1] ?? "") + 1;
  if (lead === 0) throw new Error("cannot read the re-inspection lead from the memo");
  return addBusinessDays(REFERENCE_DATE, lead);
}

export const NO_REVISIT = /photo verification accepted|verified at final/i;

/** Per issued permit and inspection type, the latest inspection when it failed and its notes ask for a visit. */
export function reinspectionTargets(
  state: StateView,
): Array<{ permit_id: string; inspection_type: string; inspector: string }> {
  const rows = allRows<{
    permit_id: string;
    inspection_type: string;
    inspector: string;
    result: string;
    notes: string;
  }>(
    state.db,
    `SELECT i.permit_id, i.inspection_type, i.inspector, i.result, i.notes FROM inspections i
       JOIN permits p ON p.permit_id = i.permit_id
      WHERE p.status = 'issued' ORDER BY i.permit_id, i.scheduled_for, i.inspection_id`,
  );
  const latest = new Map<string, (typeof rows)[number]>();
  for (const row of rows) latest.set(`${row.permit_id}|${row.inspection_type}`, row);
  const targets = [...latest.values()]
    .filter((row) => row.result === "fail" && !NO_REVISIT.test(row.notes))
    .map(({ permit_id, inspection_type, inspector }) => ({ permit_id, inspection_type, inspector }));
  if (targets.length === 0) throw new Error("generation produced no failed inspection to follow up");
  return targets;
}

/** The roster's backup inspector for each inspector. */
export function rosterBackups(state: StateView): Map<string, string> {
  return new Map(parseCsv(requireFile(state, ROSTER)).map((row) => [row.inspector!, row.backup_inspector!]));
}
