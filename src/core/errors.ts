/** Who is at fault: the user (bad input or config), the system (a bug or broken infrastructure) or an upstream service. */
export type ErrorCategory = "user" | "system" | "upstream";

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface ProgAgentErrorOptions {
  code: string;
  category: ErrorCategory;
  cause?: unknown;
  details?: Record<string, JsonValue>;
}

/** The one base error of progagent: a stable code, a category, a cause and JSON-safe details. */
export class ProgAgentError extends Error {
  readonly code: string;
  readonly category: ErrorCategory;
  readonly details: Record<string, JsonValue>;

  constructor(message: string, options: ProgAgentErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ProgAgentError";
    this.code = options.code;
    this.category = options.category;
    this.details = options.details ?? {};
  }

  toJSON(): Record<string, JsonValue> {
    return {
      name: this.name,
      code: this.code,
      category: this.category,
      message: this.message,
      details: this.details,
    };
  }
}

export const ERROR_CODES = {
  SANDBOX_UNAVAILABLE: "SANDBOX_UNAVAILABLE",
  KERNEL_START_FAILED: "KERNEL_START_FAILED",
  KERNEL_BUSY: "KERNEL_BUSY",
  KERNEL_DISPOSED: "KERNEL_DISPOSED",
  CONFIG_INVALID: "CONFIG_INVALID",
  UPSTREAM_CONNECT_FAILED: "UPSTREAM_CONNECT_FAILED",
  TIMEOUT: "TIMEOUT",
  ABORTED: "ABORTED",
  FILE_FORMAT_INVALID: "FILE_FORMAT_INVALID",
  TASK_NOT_FOUND: "TASK_NOT_FOUND",
  EPISODE_FINISHED: "EPISODE_FINISHED",
  MODEL_REQUEST_FAILED: "MODEL_REQUEST_FAILED",
  INVALID_ARGUMENT: "INVALID_ARGUMENT",
  REQUEST_INVALID: "REQUEST_INVALID",
  REQUEST_TOO_LARGE: "REQUEST_TOO_LARGE",
  UNAUTHORIZED: "UNAUTHORIZED",
  HOST_NOT_ALLOWED: "HOST_NOT_ALLOWED",
  NOT_FOUND: "NOT_FOUND",
  EPISODE_NOT_FOUND: "EPISODE_NOT_FOUND",
  SERVICE_FULL: "SERVICE_FULL",
  SERVICE_CLOSED: "SERVICE_CLOSED",
  RUN_CONFIG_MISMATCH: "RUN_CONFIG_MISMATCH",
  MODEL_ERRORS: "MODEL_ERRORS",
  SUITE_NOT_FOUND: "SUITE_NOT_FOUND",
  SUITE_INVALID: "SUITE_INVALID",
  TASK_ID_CONFLICT: "TASK_ID_CONFLICT",
  TOKEN_COUNTING_FAILED: "TOKEN_COUNTING_FAILED",
  WORKSPACE_COPY_FAILED: "WORKSPACE_COPY_FAILED",
  EXTERNAL_TASK_SKIPPED: "EXTERNAL_TASK_SKIPPED",
  EXTERNAL_ENVIRONMENT_FAILED: "EXTERNAL_ENVIRONMENT_FAILED",
} as const;

/** Exit code for the CLI's one top-level catch. */
export function exitCodeForError(error: unknown): number {
  if (error instanceof ProgAgentError) {
    if (error.category === "user") return 2;
    if (error.category === "upstream") return 3;
    return 1;
  }
  return 1;
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
