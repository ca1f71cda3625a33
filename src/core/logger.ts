export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Logs to stderr (stdout belongs to MCP stdio transports and command output). */
export function createLogger(
  level: LogLevel = (process.env.PROGAGENT_LOG_LEVEL as LogLevel | undefined) ?? "warn",
): Logger {
  const threshold = ORDER[level] ?? ORDER.warn;
  const write = (at: LogLevel, message: string): void => {
    if (ORDER[at] >= threshold) process.stderr.write(`[progagent ${at}] ${message}\n`);
  };
  return {
    debug: (message) => write("debug", message),
    info: (message) => write("info", message),
    warn: (message) => write("warn", message),
    error: (message) => write("error", message),
  };
}
