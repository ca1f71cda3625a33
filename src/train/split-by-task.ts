import { createHash } from "node:crypto";
import { ERROR_CODES, ProgAgentError } from "../core/index.js";

export type Split = "train" | "val";

/**
 * A deterministic train/validation split by task: tasks are ordered by a hash of their id and the first
 * round(share x tasks) go to validation (at least one when the share is positive and there are two tasks or
 * more), so every scale and sample of a task lands on the same side.
 */
export function splitTasks(taskIds: Iterable<string>, valShare: number): Map<string, Split> {
  if (!(valShare >= 0 && valShare < 1))
    throw new ProgAgentError(`--val-share must be in [0, 1): got ${valShare}`, {
      code: ERROR_CODES.INVALID_ARGUMENT,
      category: "user",
    });
  const unique = [...new Set(taskIds)];
  const ordered = unique
    .map((task) => ({ task, key: createHash("sha256").update(`progagent-split:${task}`).digest("hex") }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  let valCount = Math.round(valShare * unique.length);
  if (valShare > 0 && valCount === 0 && unique.length >= 2) valCount = 1;
  const split = new Map<string, Split>();
  ordered.forEach(({ task }, index) => split.set(task, index < valCount ? "val" : "train"));
  return split;
}
