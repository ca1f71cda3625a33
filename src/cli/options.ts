import type { Command } from "commander";
import { ERROR_CODES, ProgAgentError, parseChoiceList } from "../core/index.js";
import type { KernelOptions } from "../kernel/index.js";
import { INTERFACE_PROFILES, SCALES, type InterfaceProfileName, type Scale } from "../envs/names.js";

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

/** The suite selection of a command's parsed options (see {@link addSuiteOptions}). */
export function suiteSelectionFrom(options: Record<string, unknown>): SuiteSelection {
  return {
    suites: Array.isArray(options.suite) ? options.suite.map(String) : [],
    builtin: options.builtin !== false,
  };
}
