import type { TaskDefinition } from "../../envs/index.js";
import { belowParTask } from "./tasks/below-par.js";
import { foodCostVarianceTask } from "./tasks/food-cost-variance.js";
import { inventoryValueTask } from "./tasks/inventory-value.js";
import { menuCostingTask } from "./tasks/menu-costing.js";
import { parReviewTask } from "./tasks/par-review.js";
import { priceBreachesTask } from "./tasks/price-breaches.js";
import { restoreParTask } from "./tasks/restore-par.js";
import { shortCreditsTask } from "./tasks/short-credits.js";
import { staleOrdersTask } from "./tasks/stale-orders.js";
import { wasteLimitsTask } from "./tasks/waste-limits.js";

export { restaurantDomain } from "./domain.js";

export const restaurantTasks: TaskDefinition[] = [
  belowParTask,
  restoreParTask,
  priceBreachesTask,
  shortCreditsTask,
  foodCostVarianceTask,
  menuCostingTask,
  wasteLimitsTask,
  inventoryValueTask,
  parReviewTask,
  staleOrdersTask,
];
