/** The generated world the database rows and the workspace documents are both written from. */
import type { GenerateContext } from "../../envs/index.js";
import type { Zone } from "./clock.js";
import { onCallHandle } from "./schedule.js";
import type { Schedule } from "./schedule.js";

export type Random = GenerateContext["random"];
export type Role = "primary" | "secondary";

export const TEAMS = ["platform", "payments", "growth"] as const;
export const SEVERITIES = ["sev1", "sev2", "sev3"] as const;
export type Severity = (typeof SEVERITIES)[number];
/** Minutes within which a page must be acknowledged, by severity (the paging policy). */
export const ACK_LIMIT_MINUTES: Record<Severity, number> = { sev1: 5, sev2: 15, sev3: 60 };
/** Minutes a triggered incident may stay unacknowledged before it is escalated to the secondary. */
export const ESCALATE_AFTER_MINUTES: Record<Severity, number> = { sev1: 10, sev2: 30, sev3: 120 };
export const SLO_TARGETS: Record<number, number> = { 1: 99.9, 2: 99.5, 3: 99.0 };
export const LOG_DATES = ["2025-06-28", "2025-06-29", "2025-06-30"] as const;
export const LOG_PAGE_LINES = 20;
/** Rotation weeks (Monday, handover 09:00 UTC) covering June. */
export const ROTATION_WEEKS = "2025-05-26 2025-06-02 2025-06-09 2025-06-16 2025-06-23 2025-06-30".split(" ");

export interface Engineer {
  id: string;
  name: string;
  handle: string;
  email: string;
  team: string;
  /** The home zone the engineer's own writing (timelines, requests) prints times in. */
  zone: Zone;
}

export interface Service {
  name: string;
  team: string;
  tier: number;
  runtime: "java" | "python";
}

export interface RotationWeek {
  week: string;
  team: string;
  primary: Engineer;
  secondary: Engineer;
}

export interface Override {
  team: string;
  role: Role;
  engineer: Engineer;
  covers: Engineer;
  start: number;
  end: number;
  cancelled: boolean;
  reason: string;
}

export interface Page {
  id: string;
  service: Service;
  alert: string;
  severity: Severity;
  fired: number;
  acked: number | null;
  ackedBy: Engineer | null;
  resolved: number | null;
  assigned: Engineer | null;
}

export interface Deploy {
  id: string;
  service: Service;
  version: string;
  at: number;
  zone: Zone;
  by: Engineer;
  summary: string;
}

export interface Incident {
  id: string;
  page: Page;
  status: "triggered" | "acknowledged" | "resolved";
  opened: number;
  resolved: number | null;
  escalatedTo: Engineer | null;
  timeline: string;
  title: string;
}

export interface ActionItem {
  title: string;
  owner: Engineer;
  due: string | null;
  done: boolean;
  filed: boolean;
}

export interface Postmortem {
  incident: Incident;
  reviewed: string;
  author: Engineer;
  items: ActionItem[];
}

export interface OverrideRequest {
  team: string;
  role: Role;
  engineer: Engineer;
  start: number;
  end: number;
  zone: Zone;
  approved: boolean;
  alreadySet: boolean;
}

export interface RequestThread {
  requester: Engineer;
  manager: string;
  requests: OverrideRequest[];
}

export interface OncallWorld {
  engineers: Engineer[];
  services: Service[];
  rotation: RotationWeek[];
  overrides: Override[];
  pages: Page[];
  deploys: Deploy[];
  incidents: Incident[];
  postmortems: Postmortem[];
  threads: RequestThread[];
  /** Pages whose times a task's planted case depends on: nothing may change them. */
  pinned: Set<Page>;
  /** The service held to a stricter SLO by contract, and its target. */
  sloException: { service: string; target: number };
}

/** Who is on call under the world's schedule, as `(team, role, at) => Engineer` (overrides included). */
export function onCallIn(world: Pick<OncallWorld, "engineers" | "rotation" | "overrides">) {
  const schedule: Schedule = {
    rotation: world.rotation.map((row) => ({
      week: row.week,
      team: row.team,
      primary: row.primary.handle,
      secondary: row.secondary.handle,
    })),
    overrides: world.overrides.map((item) => ({ ...item, handle: item.engineer.handle })),
  };
  return (team: string, role: Role, at: number): Engineer => {
    const handle = onCallHandle(schedule, team, role, at);
    return world.engineers.find((engineer) => engineer.handle === handle)!;
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
