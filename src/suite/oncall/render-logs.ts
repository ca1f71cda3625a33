/**
 * Raw log lines as real services write them: nginx combined access lines with the request time appended,
 * JSON events, syslog lines and multi-line Java and Python stack traces. Generic (nothing here knows the
 * oncall domain); a candidate for the domain kit.
 */
import { isoUtc, localFields } from "./clock.js";
import type { Zone } from "./clock.js";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

export interface AccessRequest {
  at: number;
  clientIp: string;
  method: string;
  path: string;
  status: number;
  bytes: number;
  userAgent: string;
  durationMs: number;
}

/** `10.0.3.17 - - [29/Jun/2025:14:02:11 +0000] "GET /api/cart HTTP/1.1" 200 512 "-" "curl/8.5" rt=0.087` */
export function nginxAccessLine(request: AccessRequest): string {
  const stamp = isoUtc(request.at);
  const date = `${stamp.slice(8, 10)}/${MONTHS[Number(stamp.slice(5, 7)) - 1]}/${stamp.slice(0, 4)}`;
  const rt = (request.durationMs / 1000).toFixed(3);
  return `${request.clientIp} - - [${date}:${stamp.slice(11, 19)} +0000] "${request.method} ${request.path} HTTP/1.1" ${request.status} ${request.bytes} "-" "${request.userAgent}" rt=${rt}`;
}

/** One JSON event line with a millisecond UTC timestamp first. */
export function jsonLogLine(at: number, millis: number, fields: Record<string, unknown>): string {
  return JSON.stringify({ ts: isoUtc(at).replace("Z", `.${String(millis).padStart(3, "0")}Z`), ...fields });
}

/** `Jun 29 07:02:11 ip-10-0-3-17 kernel: message`, in the host's local zone without saying which. */
export function syslogLine(at: number, zone: Zone, host: string, program: string, message: string): string {
  const local = localFields(at, zone);
  const day = String(Number(local.slice(8, 10))).padStart(2, " ");
  return `${MONTHS[Number(local.slice(5, 7)) - 1]} ${day} ${local.slice(11, 19)} ${host} ${program}: ${message}`;
}

export interface JavaException {
  className: string;
  message: string;
  frames: string[];
}

/** A logback error line and the trace under it; `causes` become `Caused by:` sections, innermost last. */
export function javaTrace(
  at: number,
  zone: Zone,
  thread: string,
  logger: string,
  message: string,
  top: JavaException,
  causes: JavaException[],
): string[] {
  const local = localFields(at, zone).replace("T", " ");
  const lines = [
    `${local}.${String(at % 1000).padStart(3, "0")} ${zone.abbreviation} ERROR [${thread}] ${logger} - ${message}`,
  ];
  lines.push(`${top.className}: ${top.message}`, ...top.frames.map((frame) => `\tat ${frame}`));
  for (const cause of causes) {
    lines.push(
      `Caused by: ${cause.className}: ${cause.message}`,
      ...cause.frames.map((frame) => `\tat ${frame}`),
    );
    lines.push(`\t... ${cause.frames.length + 9} more`);
  }
  return lines;
}

/** A Python logging error line and its traceback; the exception is named on the last line. */
export function pythonTraceback(
  at: number,
  logger: string,
  message: string,
  frames: Array<[file: string, line: number, func: string, code: string]>,
  exception: string,
  detail: string,
): string[] {
  const stamp = isoUtc(at).slice(0, 19).replace("T", " ");
  const lines = [
    `[${stamp},${String(at % 1000).padStart(3, "0")}] ERROR in ${logger}: ${message}`,
    "Traceback (most recent call last):",
  ];
  for (const [file, line, func, code] of frames)
    lines.push(`  File "${file}", line ${line}, in ${func}`, `    ${code}`);
  lines.push(`${exception}: ${detail}`);
  return lines;
}
