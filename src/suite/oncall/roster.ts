/** Who the generated engineers are beyond their rows: their home zone, and the schedule the world implies. */
import { ZONES } from "./clock.js";
import type { Zone } from "./clock.js";
import type { Schedule } from "./schedule.js";
import type { Engineer, OncallWorld, Page, Service, Severity } from "./world.js";

/** Engineers have a home zone; the people's documents and timelines print times in it. */
export const engineerZones = new WeakMap<Engineer, Zone>();

export function zoneOf(engineer: Engineer): Zone {
  return engineerZones.get(engineer) ?? ZONES[0];
}

export function scheduleOf(world: Pick<OncallWorld, "rotation" | "overrides">): Schedule {
  return {
    rotation: world.rotation.map((row) => ({
      week: row.week,
      team: row.team,
      primary: row.primary.handle,
      secondary: row.secondary.handle,
    })),
    overrides: world.overrides.map((item) => ({ ...item, handle: item.engineer.handle })),
  };
}

export function makePage(service: Service, alert: string, severity: Severity, fired: number): Page {
  return {
    id: "",
    service,
    alert,
    severity,
    fired,
    acked: null,
    ackedBy: null,
    resolved: null,
    assigned: null,
  };
}
