/** Writes the generated world into the oncall database. */
import { addDays, insertDrafts, insertRecords } from "../../envs/index.js";
import type { GenerateContext } from "../../envs/index.js";
import { isoUtc, isoWithOffset } from "./clock.js";
import { generateLogs } from "./generate-logs.js";
import { actionItemId, overrideId } from "./ids.js";
import type { Incident, OncallWorld } from "./world.js";

type Db = GenerateContext["db"];

function insertPeople(db: Db, world: OncallWorld): void {
  insertDrafts(db, "engineers", "engineer_id, name, handle, email, team", world.engineers, (item) => ({
    engineer_id: item.id,
  }));
  insertDrafts(db, "services", "service, team, tier, runtime", world.services, (item) => ({
    service: item.name,
  }));
}

const at = (value: number | null): string | null => (value === null ? null : isoUtc(value));

function insertPagesAndDeploys(db: Db, world: OncallWorld): void {
  const pageColumns =
    "page_id, service, alert_name, severity, fired_at, acked_at, acked_by, resolved_at, assigned_to, summary";
  insertDrafts(db, "pages", pageColumns, world.pages, (item) => ({
    page_id: item.id,
    service: item.service.name,
    alert_name: item.alert,
    fired_at: isoUtc(item.fired),
    acked_at: at(item.acked),
    acked_by: item.ackedBy?.id ?? null,
    resolved_at: at(item.resolved),
    assigned_to: item.assigned?.id ?? null,
    summary: `[${item.severity.toUpperCase()}] ${item.alert} firing for ${item.service.name}`,
  }));
  const deployColumns = "deploy_id, service, version, deployed_at, utc_day, deployed_by, change_summary";
  insertDrafts(db, "deploys", deployColumns, world.deploys, (item) => ({
    deploy_id: item.id,
    service: item.service.name,
    deployed_at: isoWithOffset(item.at, item.zone),
    utc_day: isoUtc(item.at).slice(0, 10),
    deployed_by: item.by.handle,
    change_summary: item.summary,
  }));
}

const escalatedAt = (item: Incident): string | null => (item.escalatedTo ? isoUtc(item.opened + 900) : null);

function insertIncidents(db: Db, world: OncallWorld): void {
  const columns =
    "incident_id, service, severity, title, status, page_id, opened_at, escalated_to, escalated_at, resolved_at, timeline";
  insertDrafts(db, "incidents", columns, world.incidents, (item) => ({
    incident_id: item.id,
    service: item.page.service.name,
    severity: item.page.severity,
    page_id: item.page.id,
    opened_at: isoUtc(item.opened),
    escalated_to: item.escalatedTo?.id ?? null,
    escalated_at: escalatedAt(item),
    resolved_at: at(item.resolved),
  }));
  const events: object[] = [];
  for (const item of world.incidents) {
    const event = (at: string | null, kind: string, actor: string | null, note: string | null): number =>
      events.push({ incidentId: item.id, at, kind, actor, note });
    event(isoUtc(item.opened), "opened", null, `Opened from page ${item.page.id}`);
    if (item.page.acked !== null) event(isoUtc(item.page.acked), "acknowledged", item.page.ackedBy!.id, null);
    if (item.escalatedTo)
      event(escalatedAt(item), "escalated", item.escalatedTo.id, "Escalated to the secondary on call");
    if (item.resolved !== null) event(isoUtc(item.resolved), "resolved", item.page.ackedBy!.id, null);
  }
  insertRecords(db, "incident_events", events);
}

function insertTracker(context: GenerateContext, world: OncallWorld): void {
  const { db, random, factors } = context;
  const items: Array<Record<string, string>> = [];
  for (const postmortem of world.postmortems)
    for (const entry of postmortem.items.filter((candidate) => candidate.filed))
      items.push({
        incidentId: postmortem.incident.id,
        title: entry.title,
        ownerId: entry.owner.id,
        dueDate: entry.due ?? addDays(postmortem.reviewed, 14),
        status: "open",
      });
  const others = world.incidents.filter(
    (incident) =>
      incident.status === "resolved" &&
      !world.postmortems.some((postmortem) => postmortem.incident === incident),
  );
  for (const incident of others.slice(0, 3 * factors.rows))
    items.push({
      incidentId: incident.id,
      title: `Follow up on ${incident.title}`,
      ownerId: random.pick(world.engineers).id,
      dueDate: addDays(isoUtc(incident.resolved!).slice(0, 10), 21),
      status: random.pick(["open", "done"]),
    });
  insertRecords(
    db,
    "action_items",
    items.map((item, index) => ({ actionItemId: actionItemId.format(index + 1), ...item })),
  );
  const set = world.threads.flatMap((thread) => thread.requests.filter((request) => request.alreadySet));
  insertRecords(
    db,
    "schedule_overrides",
    set.map((request, index) => ({
      overrideId: overrideId.format(index + 1),
      team: request.team,
      role: request.role,
      engineerId: request.engineer.id,
      startsAt: isoUtc(request.start),
      endsAt: isoUtc(request.end),
    })),
  );
}

export function insertWorld(context: GenerateContext, world: OncallWorld): void {
  insertPeople(context.db, world);
  insertPagesAndDeploys(context.db, world);
  insertIncidents(context.db, world);
  insertTracker(context, world);
  generateLogs(context, world);
}
