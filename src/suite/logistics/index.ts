import type { TaskDefinition } from "../../envs/index.js";
import { logisticsDomain } from "./domain.js";
import { replenishLowStockTask } from "./tasks/replenish-low-stock.js";
import { tenderPendingShipmentsTask } from "./tasks/tender-pending-shipments.js";

export { logisticsDomain };

export const logisticsTasks: TaskDefinition[] = [replenishLowStockTask, tenderPendingShipmentsTask];
