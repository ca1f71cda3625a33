import type { TaskDefinition } from "../../envs/index.js";
import { chargeNoShowsTask } from "./tasks/charge-no-shows.js";
import { cityTaxTask } from "./tasks/city-tax.js";
import { groupAttritionTask } from "./tasks/group-attrition.js";
import { lateCancellationsTask } from "./tasks/late-cancellations.js";
import { noShowFeesTask } from "./tasks/no-show-fees.js";
import { openBalancesTask } from "./tasks/open-balances.js";
import { rateParityTask } from "./tasks/rate-parity.js";
import { roomMovesTask } from "./tasks/room-moves.js";

export { hotelDomain } from "./domain.js";

export const hotelTasks: TaskDefinition[] = [
  noShowFeesTask,
  chargeNoShowsTask,
  lateCancellationsTask,
  cityTaxTask,
  roomMovesTask,
  groupAttritionTask,
  rateParityTask,
  openBalancesTask,
];
