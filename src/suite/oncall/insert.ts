/** Writes the generated world into the oncall database. */
import { addDays } from "../../envs/index.js";
import type { GenerateContext } from "../../envs/index.js";
import { isoUtc, isoWithOffset } from "./clock.js";
import { generateLogs } from "./generate-logs.js";
import { actionItemId, overrideId } from "./ids.js";
import type { OncallWorld } from "./world.js";

function insertPeople(context: GenerateContext, world: OncallWorld): void {
  const { db } = context;
  const engineer = db.prepare(
    "INSERT INTO engineers (engineer_id, name, handle, email, team) VALUES (?, ?, ?, ?, ?)",
  );
  for (const item of world.engineers) engineer.run(item.id, item.name, item.handle, item.email, item.team);
  const service = db.prepare("INSERT INTO services (service, team, tier, runtime) VALUES (?, ?, ?, ?)");
  for (const item of world.services) service.run(item.name, item.team, item.tier, item.runtime);
}

function insertPagesAndDeploys(context: GenerateContext, world: OncallWorld): void {
  const { db } = context;
  const page = db.prepare(
    "INSERT INTO pages (page_id, service, alert_name, severity, fired_at, acked_at, acked_by, resolved_at, assigned_to, summary) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const at = (value: number | null): string | null => (value === null ? null : isoUtc(value));
  for (const item of world.pages)
    page.run(
      item.id,
      item.service.name,
      item.alert,
      item.severity,
      isoUtc(item.fired),
      at(item.acked),
      item.ackedBy?.id ?? null,
      at(item.resolved),
      item.assigned?.id ?? null,
      `[${item.severity.toUpperCase()}] ${item.alert} firing for ${item.service.name}`,
    );
  const deploy = db.prepare(
    "INSERT INTO deploys (deploy_id, service, version, deployed_at, utc_day, deployed_by, change_summary) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  for (const item of world.deploys)
    deploy.run(
      item.id,
      item.service.name,
      item.version,
      isoWithOffset(item.at, item.zone),
      isoUtc(item.at).slice(0, 10),
      item.by.handle,
      item.summary,
    );
}

function insertIncidents(context: GenerateContext, world: OncallWorld): void {
  const { db } = context;
  const incident = db.prepare(
    "INSERT INTO incidents (incident_id, service, severity, title, status, page_id, opened_at, escalated_to, escalated_at, resolved_at, timeline) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const event = db.prepare(
    "INSERT INTO incident_events (incident_id, at, kind, actor, note) VALUES (?, ?, ?, ?, ?)",
  );
  for (const item of world.incidents) {
    const escalatedAt = item.escalatedTo ? isoUtc(item.opened + 900) : null;
    incident.run(
      item.id,
      item.page.service.name,
      item.page.severity,
      item.title,
      item.status,
      item.page.id,
      isoUtc(item.opened),
      item.escalatedTo?.id ?? null,
      escalatedAt,
      item.resolved === null ? null : isoUtc(item.resolved),
      item.timeline,
    );
    event.run(item.id, isoUtc(item.opened), "opened", null, `Opened from page ${item.page.id}`);
    if (item.page.acked !== null)
      event.run(item.id, isoUtc(item.page.acked), "acknowledged", item.page.ackedBy!.id, null);
    if (item.escalatedTo)
      event.run(item.id, escalatedAt, "escalated", item.escalatedTo.id, "Escalated to the secondary on call");
    if (item.resolved !== null)
      event.run(item.id, isoUtc(item.resolved), "resolved", item.page.ackedBy!.id, null);
  }
}

function insertTracker(context: GenerateContext, world: OncallWorld): void {
  const { db, random, factors } = context;
  const item = db.prepare(
    "INSERT INTO action_items (action_item_id, incident_id, title, owner_id, due_date, status) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const rows: Array<[string, string, string, string, string]> = [];
  for (const postmortem of world.postmortems)
    for (const entry of postmortem.items.filter((candidate) => candidate.filed))
      rows.push([
        postmortem.incident.id,
        entry.title,
        entry.owner.id,
        entry.due ?? addDays(postmortem.reviewed, 14),
        "open",
      ]);
  const others = world.incidents.filter(
    (incident) =>
      incident.status === "resolved" &&
      !world.postmortems.some((postmortem) => postmortem.incident === incident),
  );
  for (const incident of others.slice(0, 3 * factors.rows))
    rows.push([
      incident.id,
      `Follow up on ${incident.title}`,
      random.pick(world.engineers).id,
      addDays(isoUtc(incident.resolved!).slice(0, 10), 21),
      random.pick(["open", "done"]),
    ]);
  rows.forEach((row, index) => item.run(actionItemId.format(index + 1), ...row));
  const override = db.prepare(
    "INSERT INTO schedule_overrides (override_id, team, role, engineer_id, starts_at, ends_at) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const set = world.threads.flatMap((thread) => thread.requests.filter((request) => request.alreadySet));
  set.forEach((request, index) =>
    override.run(
      overrideId.format(index + 1),
      request.team,
      request.role,
      request.engineer.id,
      isoUtc(request.start),
      isoUtc(request.end),
    ),
  );
}

export function insertWorld(context: GenerateContext, world: OncallWorld): void {
  insertPeople(context, world);
  insertPagesAndDeploys(context, world);
  insertIncidents(context, world);
  insertTracker(context, world);
  generateLogs(context, world);
}
