import { ERROR_CODES, ProgAgentError, errorMessage } from "../core/index.js";
import type { DomainDefinition, TaskDefinition } from "../envs/index.js";
import { builtinTaskFilter, noBuiltinTaskError } from "./builtin-task-filter.js";

/** The built-in domains, each loaded only when a task glob can match it. */
const DOMAIN_LOADERS = {
  retail: async () => (await import("./retail/index.js")).retailTasks,
  hr: async () => (await import("./hr/index.js")).hrTasks,
  university: async () => (await import("./university/index.js")).universityTasks,
  it_support: async () => (await import("./it_support/index.js")).itSupportTasks,
  logistics: async () => (await import("./logistics/index.js")).logisticsTasks,
  clinic: async () => (await import("./clinic/index.js")).clinicTasks,
  quality: async () => (await import("./quality/index.js")).qualityTasks,
  billing: async () => (await import("./billing/index.js")).billingTasks,
  claims: async () => (await import("./claims/index.js")).claimsTasks,
  payables: async () => (await import("./payables/index.js")).payablesTasks,
  airline: async () => (await import("./airline/index.js")).airlineTasks,
  property: async () => (await import("./property/index.js")).propertyTasks,
  pharmacy: async () => (await import("./pharmacy/index.js")).pharmacyTasks,
  customs: async () => (await import("./customs/index.js")).customsTasks,
  permits: async () => (await import("./permits/index.js")).permitsTasks,
  newsroom: async () => (await import("./newsroom/index.js")).newsroomTasks,
  oncall: async () => (await import("./oncall/index.js")).oncallTasks,
  grants: async () => (await import("./grants/index.js")).grantsTasks,
  vet: async () => (await import("./vet/index.js")).vetTasks,
  marketplace: async () => (await import("./marketplace/index.js")).marketplaceTasks,
  utility: async () => (await import("./utility/index.js")).utilityTasks,
  library: async () => (await import("./library/index.js")).libraryTasks,
  restaurant: async () => (await import("./restaurant/index.js")).restaurantTasks,
  transport: async () => (await import("./transport/index.js")).transportTasks,
  construction: async () => (await import("./construction/index.js")).constructionTasks,
  coop: async () => (await import("./coop/index.js")).coopTasks,
  hotel: async () => (await import("./hotel/index.js")).hotelTasks,
  court: async () => (await import("./court/index.js")).courtTasks,
} satisfies Record<string, () => Promise<TaskDefinition[]>>;

export const SUITE_DOMAINS = Object.keys(DOMAIN_LOADERS) as Array<keyof typeof DOMAIN_LOADERS>;

/** All tasks of one built-in domain, in definition order (the suite manifest's generator lists them so). */
export async function loadBuiltinDomainTasks(
  domain: (typeof SUITE_DOMAINS)[number],
): Promise<TaskDefinition[]> {
  try {
    return await DOMAIN_LOADERS[domain]();
  } catch (error) {
    throw new ProgAgentError(`cannot load suite domain '${domain}': ${errorMessage(error)}`, {
      code: ERROR_CODES.TASK_NOT_FOUND,
      category: "system",
      cause: error,
    });
  }
}

/**
 * Loads the built-in tasks matching a glob (`*`, `retail.*`, `hr.overtime*,clinic.*`). Only the domains the
 * glob can match are imported, so a filter stays cheap.
 */
export async function loadSuite(glob = "*"): Promise<TaskDefinition[]> {
  const filter = builtinTaskFilter(glob);
  const tasks: TaskDefinition[] = [];
  for (const domain of SUITE_DOMAINS) {
    if (!filter.domain.test(domain)) continue;
    const domainTasks = await loadBuiltinDomainTasks(domain);
    tasks.push(...domainTasks.filter((task) => filter.task.test(task.id)));
  }
  if (tasks.length === 0) throw noBuiltinTaskError(glob, SUITE_DOMAINS);
  return tasks;
}

/**
 * One built-in domain (schema, generator, tools), for a user's or a synthesised task that builds on it
 * without changing it: `defineTask({ domain: await loadBuiltinDomain("retail"), ... })`.
 */
export async function loadBuiltinDomain(id: string): Promise<DomainDefinition> {
  if (!(SUITE_DOMAINS as string[]).includes(id)) {
    throw new ProgAgentError(`no built-in domain '${id}' (domains: ${SUITE_DOMAINS.join(", ")})`, {
      code: ERROR_CODES.TASK_NOT_FOUND,
      category: "user",
    });
  }
  const [first] = await loadSuite(`${id}.*`);
  if (!first) throw new Error(`built-in domain '${id}' has no tasks`);
  return first.domain;
}

export {
  loadUserSuite,
  resolveSuiteEntry,
  combineSuites,
  markSuiteTasks,
  suiteNameOf,
  SUITE_INDEX_FILES,
} from "./user-suite.js";
export type { LoadedSuite, LoadUserSuiteOptions, TaskSource } from "./user-suite.js";
export { writeSuiteTemplate, suiteTemplateDir } from "./write-suite-template.js";
export type { WriteSuiteTemplateOptions, WrittenSuiteTemplate } from "./write-suite-template.js";
