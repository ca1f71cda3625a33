import type { TaskDefinition } from "../../envs/index.js";
import { threeWayMatchExceptionsTask } from "./tasks/three-way-match-exceptions.js";

export { payablesDomain } from "./domain.js";

export const payablesTasks: TaskDefinition[] = [threeWayMatchExceptionsTask];
