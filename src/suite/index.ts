import { ERROR_CODES, ProgAgentError, errorMessage, globToRegExp } from "../core/index.js";
import type { TaskDefinition } from "../envs/index.js";

/** The built-in domains, each a folder exporting `<camelCase>Tasks`. */
export const SUITE_DOMAINS = ["retail", "hr", "university", "it_support", "logistics", "clinic"] as const;

function exportName(domain: string): string {
  return `${domain.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase())}Tasks`;
}

/**
 * Loads the built-in tasks matching a glob (`*`, `retail.*`, `hr.overtime*,clinic.*`). Only the domains the
 * glob can match are imported, so a filter stays cheap.
 */
export async function loadSuite(glob = "*"): Promise<TaskDefinition[]> {
  const matcher = globToRegExp(glob);
  const domainMatcher = globToRegExp(
    glob
      .split(",")
      .map((part) => part.trim().split(".")[0] ?? "*")
      .join(","),
  );
  const tasks: TaskDefinition[] = [];
  for (const domain of SUITE_DOMAINS) {
    if (!domainMatcher.test(domain)) continue;
    let module: Record<string, unknown>;
    try {
      module = (await import(`./${domain}/index.js`)) as Record<string, unknown>;
    } catch (error) {
      throw new ProgAgentError(`cannot load suite domain '${domain}': ${errorMessage(error)}`, {
        code: ERROR_CODES.TASK_NOT_FOUND,
        category: "system",
        cause: error,
      });
    }
    const domainTasks = module[exportName(domain)];
    if (!Array.isArray(domainTasks)) {
      throw new ProgAgentError(`suite domain '${domain}' does not export ${exportName(domain)}`, {
        code: ERROR_CODES.TASK_NOT_FOUND,
        category: "system",
      });
    }
    tasks.push(...(domainTasks as TaskDefinition[]).filter((task) => matcher.test(task.id)));
  }
  if (tasks.length === 0) {
    throw new ProgAgentError(`no built-in task matches '${glob}' (domains: ${SUITE_DOMAINS.join(", ")})`, {
      code: ERROR_CODES.TASK_NOT_FOUND,
      category: "user",
    });
  }
  return tasks;
}
