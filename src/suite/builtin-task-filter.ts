import { ERROR_CODES, ProgAgentError, globToRegExp } from "../core/index.js";

/** Which built-in domains and task ids a task glob selects. */
export interface BuiltinTaskFilter {
  /** Whether a domain can hold a matching task (its tasks are loaded only then). */
  domain: RegExp;
  task: RegExp;
}

/**
 * The filter of a task glob (`*`, `retail.*`, `hr.overtime*,clinic.*`) over the built-in suite. The suite loader
 * and the suite manifest both select with it, so a listing from the manifest is the one the definitions give.
 */
export function builtinTaskFilter(glob: string): BuiltinTaskFilter {
  return {
    task: globToRegExp(glob),
    domain: globToRegExp(
      glob
        .split(",")
        .map((part) => part.trim().split(".")[0] ?? "*")
        .join(","),
    ),
  };
}

/** The error of a glob that matches no built-in task. */
export function noBuiltinTaskError(glob: string, domains: readonly string[]): ProgAgentError {
  return new ProgAgentError(`no built-in task matches '${glob}' (domains: ${domains.join(", ")})`, {
    code: ERROR_CODES.TASK_NOT_FOUND,
    category: "user",
  });
}
