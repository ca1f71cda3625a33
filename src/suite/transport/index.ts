import type { TaskDefinition } from "../../envs/index.js";
import { closeStopsTask } from "./tasks/close-stops.js";
import { driverHoursTask } from "./tasks/driver-hours.js";
import { ineligibleRidersTask } from "./tasks/ineligible-riders.js";
import { lateArrivalsTask } from "./tasks/late-arrivals.js";
import { liftBusesTask } from "./tasks/lift-buses.js";
import { missedStopsTask } from "./tasks/missed-stops.js";
import { overcrowdedRoutesTask } from "./tasks/overcrowded-routes.js";
import { stateReportsTask } from "./tasks/state-reports.js";
import { speedingEpisodesTask } from "./tasks/speeding-episodes.js";
import { unqualifiedDriversTask } from "./tasks/unqualified-drivers.js";

export { transportDomain } from "./domain.js";

export const transportTasks: TaskDefinition[] = [
  lateArrivalsTask,
  speedingEpisodesTask,
  missedStopsTask,
  ineligibleRidersTask,
  overcrowdedRoutesTask,
  driverHoursTask,
  unqualifiedDriversTask,
  closeStopsTask,
  liftBusesTask,
  stateReportsTask,
];
