import { ERROR_CODES, ProgAgentError } from "../core/index.js";
import type { KernelOptions } from "../kernel/index.js";
import {
  INTERFACE_PROFILES,
  SCALES,
  interfaceProfileNameSchema,
  parseScaleList,
  type InterfaceProfileName,
  type Scale,
} from "../envs/index.js";

export function parsePositiveNumber(text: string, flag: string, allowZero = false): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new ProgAgentError(
      `${flag} expects a ${allowZero ? "non-negative" : "positive"} number, got '${text}'`,
      {
        code: ERROR_CODES.INVALID_ARGUMENT,
        category: "user",
      },
    );
  }
  return value;
}

export function parseScalesOption(text: string | undefined, fallback: readonly Scale[] = SCALES): Scale[] {
  return text === undefined ? [...fallback] : parseScaleList(text);
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
  const parsed = interfaceProfileNameSchema.safeParse(text ?? "default");
  if (!parsed.success)
    throw new ProgAgentError(`--interface expects ${INTERFACE_PROFILES.join(" or ")}, got '${text}'`, {
      code: ERROR_CODES.INVALID_ARGUMENT,
      category: "user",
    });
  return parsed.data;
}
