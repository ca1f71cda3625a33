import type { TaskDefinition } from "../../envs/index.js";
import { airlineDomain } from "./domain.js";
import { crewRosterCheckTask } from "./tasks/crew-roster-check.js";
import { delayCompensationTask } from "./tasks/delay-compensation.js";
import { escortIncidentsTask } from "./tasks/escort-incidents.js";
import { fleetStatusEmailsTask } from "./tasks/fleet-status-emails.js";
import { groundedAircraftSwapTask } from "./tasks/grounded-aircraft-swap.js";
import { missedConnectionsTask } from "./tasks/missed-connections.js";
import { rebookCancelledFlightsTask } from "./tasks/rebook-cancelled-flights.js";
import { routeLoadFactorTask } from "./tasks/route-load-factor.js";

export { airlineDomain };

export const airlineTasks: TaskDefinition[] = [
  delayCompensationTask,
  routeLoadFactorTask,
  groundedAircraftSwapTask,
  rebookCancelledFlightsTask,
  missedConnectionsTask,
  escortIncidentsTask,
  crewRosterCheckTask,
  fleetStatusEmailsTask,
];
