import type { DomainDefinition } from "./define-domain.js";
import type { TaskDefinition } from "./define-task.js";

/**
 * A suite: a named set of tasks, the unit a user's folder or npm package exports (its default export, or a
 * named export `suite`). Tasks may come from the user's own domains or build on a built-in one
 * (`loadBuiltinDomain`).
 */
export interface SuiteDefinition {
  /** Lower-case name, shown beside each task it contributes (`[my-suite]`). */
  name: string;
  description?: string;
  tasks: TaskDefinition[];
}

const SUITE_NAME = /^[a-z][a-z0-9_-]{0,63}$/;

/** Checks a suite's shape; every error names the suite and what was expected. */
export function defineSuite(definition: SuiteDefinition): SuiteDefinition {
  if (typeof definition !== "object" || definition === null) {
    throw new Error("defineSuite expects an object { name, tasks }");
  }
  if (typeof definition.name !== "string" || !SUITE_NAME.test(definition.name)) {
    throw new Error(
      `suite name must be lower-case letters, digits, '_' or '-' (1-64, starting with a letter); got ${JSON.stringify(definition.name)}`,
    );
  }
  if (!Array.isArray(definition.tasks) || definition.tasks.length === 0) {
    throw new Error(`suite '${definition.name}' has no tasks: expected tasks: [defineTask(...), ...]`);
  }
  const ids = new Set<string>();
  const domainsById = new Map<string, DomainDefinition>();
  for (const [index, task] of definition.tasks.entries()) {
    if (typeof task !== "object" || task === null || typeof task.id !== "string" || !task.domain) {
      throw new Error(`suite '${definition.name}': tasks[${index}] is not a task made by defineTask`);
    }
    if (ids.has(task.id)) throw new Error(`suite '${definition.name}': task id '${task.id}' appears twice`);
    ids.add(task.id);
    const known = domainsById.get(task.domain.id);
    if (known && known !== task.domain) {
      throw new Error(
        `suite '${definition.name}': two different domains are both called '${task.domain.id}' (tasks must share one defineDomain object per domain)`,
      );
    }
    domainsById.set(task.domain.id, task.domain);
  }
  return definition;
}
