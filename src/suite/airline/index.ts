import type { TaskDefinition } from "../../envs/index.js";
import { airlineDomain } from "./domain.js";
import { delayCompensationTask } from "./tasks/delay-compensation.js";
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
];
