import type { Command } from "commander";
import { ERROR_CODES, ProgAgentError, parseChoiceList } from "../core/index.js";
import type { KernelOptions } from "../kernel/index.js";
import { INTERFACE_PROFILES, SCALES, type InterfaceProfileName, type Scale } from "../envs/names.js";

import { DEFAULT_AGENT_LIMITS } from "../harness/agent-limits.js";
import type { SuiteSelection } from "./load-tasks.js";

/** Bounds of a numeric option; `min` defaults to 1 (a count), 0 for "non-negative". */
export interface NumberOptionBounds {
  min?: number;
  max?: number;
}

function invalidOption(flag: string, expected: string, text: string): ProgAgentError {
  return new ProgAgentError(`${flag} expects ${expected}, got '${text}'`, {
    code: ERROR_CODES.INVALID_ARGUMENT,
    category: "user",
    details: { flag, value: text },
  });
}

function describeBounds(kind: string, bounds: NumberOptionBounds): string {
  const min = bounds.min ?? 1;
  const lower = min === 0 ? `a non-negative ${kind}` : min === 1 ? `a positive ${kind}` : `${kind} >= ${min}`;
  return bounds.max === undefined ? lower : `${lower} <= ${bounds.max}`;
}

/** Parses a whole number written in decimal digits (`3`, not `2.5`, `1e3` or `0x10`) within bounds. */
export function parseIntegerOption(text: string, flag: string, bounds: NumberOptionBounds = {}): number {
  const trimmed = text.trim();
  const value = /^\+?\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  const min = bounds.min ?? 1;
  if (!Number.isSafeInteger(value) || value < min || (bounds.max !== undefined && value > bounds.max))
    throw invalidOption(flag, describeBounds("integer", bounds), text);
  return value;
}

/** Parses a decimal number (`2`, `0.5`) within bounds; for quantities that may be fractional (seconds, temperature). */
export function parseNumberOption(text: string, flag: string, bounds: NumberOptionBounds = {}): number {
  const trimmed = text.trim();
  const value = /^\+?(\d+(\.\d*)?|\.\d+)$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  const min = bounds.min ?? Number.MIN_VALUE;
  if (!Number.isFinite(value) || value < min || (bounds.max !== undefined && value > bounds.max))
    throw invalidOption(
      flag,
      min === 0
        ? "a non-negative number"
        : min === Number.MIN_VALUE
          ? "a positive number"
          : `a number >= ${min}`,
      text,
    );
  return value;
}

/** A positive (or, with allowZero, non-negative) decimal number. Prefer parseIntegerOption for counts. */
export function parsePositiveNumber(text: string, flag: string, allowZero = false): number {
  return parseNumberOption(text, flag, allowZero ? { min: 0 } : {});
}

/** Seconds given on the command line as milliseconds (`--timeout 1.5` is 1500). */
export function parseSecondsOption(text: string, flag: string): number {
  return Math.round(parseNumberOption(text, flag) * 1000);
}

/** A list of scales (`v0,v2` or `all`). */
export function parseScalesOption(text: string | undefined, fallback: readonly Scale[] = SCALES): Scale[] {
  return text === undefined ? [...fallback] : parseChoiceList(text, SCALES, "scale");
}

/** Exactly one scale (`v2`); a list or `all` is an error where one instance is meant. */
export function parseScaleOption(text: string, flag = "--scale"): Scale {
  const trimmed = text.trim();
  if (!(SCALES as readonly string[]).includes(trimmed))
    throw invalidOption(flag, `one scale (${SCALES.join(", ")})`, text);
  return trimmed as Scale;
}

export function kernelOptionsFrom(
  options: Record<string, unknown>,
): Omit<KernelOptions, "workspaceDir" | "timeoutMs"> {
  return {
    ...(typeof options.interpreter === "string" ? { interpreter: options.interpreter } : {}),
    ...(options.unsafeNoSandbox === true ? { unsafeNoSandbox: true } : {}),
  };
}

/** Resolves on SIGINT or SIGTERM, so that commands can end what they started. */
export function waitForShutdown(): Promise<void> {
  return new Promise((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });
}

/** `--interface <profile>`: default or paper. */
export function parseInterfaceOption(text: string | undefined): InterfaceProfileName {
  const name = text ?? "default";
  if (!(INTERFACE_PROFILES as readonly string[]).includes(name))
    throw new ProgAgentError(`--interface expects ${INTERFACE_PROFILES.join(" or ")}, got '${text}'`, {
      code: ERROR_CODES.INVALID_ARGUMENT,
      category: "user",
    });
  return name as InterfaceProfileName;
}

/**
 * `--suite <path|package>` (repeatable) and `--no-builtin`: the options of every command that takes tasks,
 * read back with {@link suiteSelectionFrom} and given to `loadTasks`.
 */
export function addSuiteOptions(command: Command): Command {
  return command
    .option(
      "--suite <path|package>",
      "add a user's suite: a folder, a module file or an installed npm package (repeatable)",
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option("--no-builtin", "leave out the built-in suite (with --suite)");
}

/**
 * `--max-connections`, `--header-timeout` and `--body-timeout` of a command that serves HTTP (`rollout serve`,
 * `serve --http`), read back with {@link httpGuardOptionsFrom}.
 */
export function addHttpGuardOptions(command: Command, prefix = ""): Command {
  return command
    .option(
      "--max-connections <n>",
      `${prefix}connections open at once; at the cap a new one closes the oldest that serves no admitted request (default: from the sessions and the open-file limit)`,
    )
    .option("--header-timeout <seconds>", `${prefix}a request's headers must arrive within this`, "10")
    .option(
      "--body-timeout <seconds>",
      `${prefix}a request's body must arrive within this after its headers`,
      "60",
    );
}

/** The HTTP guard of a command's parsed options (see {@link addHttpGuardOptions}). */
export function httpGuardOptionsFrom(options: Record<string, unknown>): {
  maxConnections?: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
} {
  return {
    ...(options.maxConnections === undefined
      ? {}
      : { maxConnections: parseIntegerOption(String(options.maxConnections), "--max-connections") }),
    headersTimeoutMs: parseSecondsOption(String(options.headerTimeout), "--header-timeout"),
    bodyTimeoutMs: parseSecondsOption(String(options.bodyTimeout), "--body-timeout"),
  };
}

/** The suite selection of a command's parsed options (see {@link addSuiteOptions}). */
export function suiteSelectionFrom(options: Record<string, unknown>): SuiteSelection {
  return {
    suites: Array.isArray(options.suite) ? options.suite.map(String) : [],
    builtin: options.builtin !== false,
  };
}

/** Which endpoint a pair of `--base-url` / `--api-key-env` flags configures (see {@link addEndpointOptions}). */
export interface EndpointOptionsSpec {
  /** Flag prefix of a further endpoint: `auditor` gives `--auditor-base-url` and `--auditor-api-key-env`. */
  prefix?: string;
  /** Whose endpoint, for the help: `the auditor's` (default: `the model's`). */
  whose?: string;
  /** The unprefixed flags are the default when these are not given (said in the help). */
  fallsBack?: boolean;
}

/** A model endpoint's connection as the commands give it to model clients. */
export interface EndpointOptions {
  baseUrl?: string;
  apiKeyEnv?: string;
}

/**
 * `--base-url <url>` and `--api-key-env <name>` of one model endpoint (with a prefix for a further one),
 * read back with {@link endpointFrom}.
 */
export function addEndpointOptions(command: Command, spec: EndpointOptionsSpec = {}): Command {
  const flag = (name: string): string => (spec.prefix ? `--${spec.prefix}-${name}` : `--${name}`);
  const whose = spec.whose ?? "the model's";
  const fallback = (name: string): string => (spec.fallsBack ? ` (default: --${name})` : "");
  return command
    .option(
      `${flag("base-url")} <url>`,
      `base URL of ${whose} API${spec.prefix ? "" : " (OpenAI-compatible for openai:<model>)"}${fallback("base-url")}`,
    )
    .option(
      `${flag("api-key-env")} <name>`,
      `environment variable holding ${whose} API key${fallback("api-key-env")}`,
    );
}

/** The endpoint of a command's parsed options (see {@link addEndpointOptions}); unset flags are left out. */
export function endpointFrom(options: Record<string, unknown>, prefix?: string): EndpointOptions {
  // Commander's attribute names: `--auditor-base-url` is `auditorBaseUrl`.
  const text = (flag: string): string | undefined => {
    const value =
      options[
        (prefix ? `${prefix}-${flag}` : flag).replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase())
      ];
    return typeof value === "string" && value !== "" ? value : undefined;
  };
  const baseUrl = text("base-url");
  const apiKeyEnv = text("api-key-env");
  return { ...(baseUrl ? { baseUrl } : {}), ...(apiKeyEnv ? { apiKeyEnv } : {}) };
}

/** What the options of {@link addModelOptions} parse into. */
export interface ModelRunOptions {
  modelOptions: EndpointOptions;
  concurrency: number;
  seed: number;
  maxTurns?: number;
  temperature?: number;
}

/**
 * The options of every command that runs a model on episodes (`eval`, `tasks calibrate`): the endpoint
 * (`--base-url`, `--api-key-env`), sampling (`--temperature`, `--max-turns`) and the run (`--concurrency`,
 * `--seed`), read back with {@link modelRunFrom}.
 */
export function addModelOptions(command: Command): Command {
  return addEndpointOptions(command)
    .option("--temperature <t>", "sampling temperature")
    .option("--max-turns <n>", `turn limit per episode (default ${DEFAULT_AGENT_LIMITS.maxTurns})`)
    .option("--concurrency <n>", "episodes in parallel", "2")
    .option("--seed <n>", "instance seed", "0");
}

/** The model run of a command's parsed options (see {@link addModelOptions}); bad values name their flag. */
export function modelRunFrom(options: Record<string, unknown>): ModelRunOptions {
  const text = (name: string): string | undefined =>
    typeof options[name] === "string" ? options[name] : undefined;
  const maxTurns = text("maxTurns");
  const temperature = text("temperature");
  return {
    modelOptions: endpointFrom(options),
    concurrency: parseIntegerOption(text("concurrency") ?? "2", "--concurrency"),
    seed: parseIntegerOption(text("seed") ?? "0", "--seed", { min: 0 }),
    ...(maxTurns ? { maxTurns: parseIntegerOption(maxTurns, "--max-turns") } : {}),
    ...(temperature ? { temperature: parseNumberOption(temperature, "--temperature", { min: 0 }) } : {}),
  };
}

/** `--force-new`: start over in an `--out` that holds an earlier run; `removes` says what goes. */
export function addForceNewOption(command: Command, removes: string): Command {
  return command.option(
    "--force-new",
    `start over in an --out directory that holds an earlier run (removes ${removes})`,
  );
}

/**
 * What an episode offers the model, shared by `eval` and `env serve`: `--timeout`, `--interface`, `--terminal`,
 * `--reveal-verdict` (`shownTo` says where its check messages appear: `in`, `to the model in`).
 */
export function addEpisodeInterfaceOptions(command: Command, subject: string, shownTo: string): Command {
  return command
    .option("--timeout <seconds>", `per ${subject} (default: the profile's, 60)`)
    .option("--interface <profile>", "default | paper (the meta-tools as the paper's runtime presented them)")
    .option(
      "--terminal",
      "offer terminal (ls, find, cat in the workspace); on by default with --interface paper",
    )
    .option(
      "--reveal-verdict",
      `DEBUGGING: show the verifier's check messages (expected values) ${shownTo} claim_done's reply`,
    );
}
