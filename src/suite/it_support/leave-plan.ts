import { addDays } from "../../envs/index.js";
import type Database from "better-sqlite3";
import { createSeededRandom, hashString } from "../../core/index.js";
import type { LeaveEntry } from "./workspace-documents.js";

export interface PlannedAgent {
  id: number;
  fullName: string;
  email: string;
  teamId: number;
  teamName: string;
  role: string;
  status: string;
}

export interface LeavePlan {
  entries: LeaveEntry[];
  /** Agents away today, with the cover their entry names (null when none is named). */
  awayToday: Array<{ agentId: number; coverAgentId: number | null }>;
  /** Active non-lead agents, by id. */
  workers: PlannedAgent[];
  agents: PlannedAgent[];
}

/**
 * Decides who is on leave, for the leave calendar. It depends only on the database as the generator left
 * it and on its own seeded stream, so that a task preparation can recompute the same plan without
 * reading the workspace. Scenarios planted on purpose: an absentee whose named cover is away too, an
 * absentee with no cover named, leave ending today and starting today (dates are inclusive), and
 * distractors whose leave ended yesterday or starts tomorrow.
 */
export function planLeave(db: Database.Database, seed: number, today: string, rows: number): LeavePlan {
  const random = createSeededRandom(hashString(`it_support:leave:${seed}`));
  const agents = db
    .prepare(
      `SELECT agents.id, agents.full_name AS fullName, agents.email, agents.team_id AS teamId, teams.name AS teamName,
         agents.role, agents.status
       FROM agents JOIN teams ON teams.id = agents.team_id ORDER BY agents.id`,
    )
    .all() as PlannedAgent[];
  const unresolved = new Map(
    (
      db
        .prepare(
          `SELECT assignee_agent_id AS id, COUNT(*) AS count FROM tickets
           WHERE status IN ('new', 'open', 'pending', 'on_hold') AND assignee_agent_id IS NOT NULL
           GROUP BY assignee_agent_id`,
        )
        .all() as Array<{ id: number; count: number }>
    ).map((row) => [row.id, row.count]),
  );
  const workers = agents.filter((agent) => agent.status === "active" && agent.role !== "lead");
  const leadName = (teamId: number): string =>
    agents.find((agent) => agent.teamId === teamId && agent.role === "lead")?.fullName ?? "";
  const entries: LeaveEntry[] = [];
  const addLeave = (agent: PlannedAgent, start: string, end: string, cover: PlannedAgent | null): void => {
    entries.push({
      agentEmail: agent.email,
      agentName: agent.fullName,
      team: agent.teamName,
      leaveType: random.pick(["annual", "annual", "sick", "training", "parental"]),
      startDate: start,
      endDate: end,
      coverAgentEmail: cover?.email ?? "",
      approvedBy: leadName(agent.teamId),
    });
  };

  const withWork = random
    .shuffle(workers.filter((agent) => (unresolved.get(agent.id) ?? 0) > 0))
    .sort((left, right) => (unresolved.get(right.id) ?? 0) - (unresolved.get(left.id) ?? 0));
  const unavailable = new Set<number>();
  const availableCover = (agent: PlannedAgent): PlannedAgent | null => {
    const options = workers.filter(
      (candidate) =>
        candidate.teamId === agent.teamId && candidate.id !== agent.id && !unavailable.has(candidate.id),
    );
    return options.length > 0 ? random.pick(options) : null;
  };

  const current: Array<{ agent: PlannedAgent; cover: PlannedAgent | null }> = [];
  // A chain inside the Service Desk: the first absentee's named cover is also away today.
  const desk = workers.filter((agent) => agent.teamName === "Service Desk");
  const deskFirst = [...withWork.filter((agent) => agent.teamName === "Service Desk"), ...desk];
  const first = deskFirst[0] as PlannedAgent;
  const second = deskFirst.find((agent) => agent.id !== first.id) as PlannedAgent;
  current.push({ agent: first, cover: second }, { agent: second, cover: null });
  unavailable.add(first.id).add(second.id);
  const target = 2 + 2 * rows;
  // The rest come from the specialist teams first, so the Service Desk keeps people on call.
  const bySpecialistFirst = [
    ...withWork.filter((agent) => agent.teamName !== "Service Desk"),
    ...withWork.filter((agent) => agent.teamName === "Service Desk"),
  ];
  for (const agent of bySpecialistFirst) {
    if (current.length >= target) break;
    if (unavailable.has(agent.id)) continue;
    unavailable.add(agent.id);
    current.push({ agent, cover: null });
  }
  // Covers are chosen once everyone away today is known, so a named cover is away only when planted so.
  current.forEach((entry, index) => {
    if (entry.cover === null && index % 3 !== 2) entry.cover = availableCover(entry.agent);
    if (entry.cover) unavailable.add(entry.cover.id);
    const start = index === 2 ? today : addDays(today, -random.int(1, 4));
    const end = index === 1 ? today : addDays(today, random.int(1, 6));
    addLeave(entry.agent, start, end, entry.cover);
  });

  const others = bySpecialistFirst.filter((agent) => !unavailable.has(agent.id));
  const endedYesterday = others[0];
  const startsTomorrow = others[1];
  if (endedYesterday) {
    addLeave(
      endedYesterday,
      addDays(today, -random.int(3, 9)),
      addDays(today, -1),
      availableCover(endedYesterday),
    );
  }
  if (startsTomorrow) {
    addLeave(
      startsTomorrow,
      addDays(today, 1),
      addDays(today, random.int(2, 10)),
      availableCover(startsTomorrow),
    );
  }
  const awayIds = new Set(current.map((entry) => entry.agent.id));
  for (let count = 3 * rows; count > 0; count -= 1) {
    const agent = random.pick(workers);
    if (awayIds.has(agent.id)) continue;
    const past = random.chance(0.6);
    const start = past ? addDays(today, -random.int(12, 90)) : addDays(today, random.int(3, 60));
    addLeave(
      agent,
      start,
      addDays(start, random.int(0, 9)),
      random.chance(0.6) ? availableCover(agent) : null,
    );
  }
  entries.sort(
    (left, right) =>
      left.startDate.localeCompare(right.startDate) || left.agentEmail.localeCompare(right.agentEmail),
  );
  return {
    entries,
    awayToday: current.map((entry) => ({ agentId: entry.agent.id, coverAgentId: entry.cover?.id ?? null })),
    workers,
    agents,
  };
}
