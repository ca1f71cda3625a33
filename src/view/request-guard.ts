import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

/** The names a loopback server answers to; a Host header naming anything else is a DNS-rebinding attempt. */
export const LOOPBACK_HOST_NAMES = ["127.0.0.1", "localhost", "[::1]"] as const;

/** Host header values (`name:port`) of a loopback server on `port`. */
export function loopbackHosts(port: number): Set<string> {
  return new Set(LOOPBACK_HOST_NAMES.map((name) => `${name}:${port}`));
}

/** A token for the printed URL: 128 random bits, URL-safe. */
export function createAccessToken(): string {
  return randomBytes(16).toString("base64url");
}

export function sameToken(given: string, expected: string): boolean {
  const digest = (text: string): Buffer => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * The page's policy: its own scripts, styles and requests only; no inline script or style, no frames, no
 * forms, no plugins. Trajectory text is inserted as text nodes, so even markup that slipped through could
 * not run.
 */
export const PAGE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** report.html styles itself inline and has no script; served here, it still may not load or run anything. */
export const REPORT_CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Headers every answer carries. */
export function securityHeaders(
  contentSecurityPolicy = PAGE_CONTENT_SECURITY_POLICY,
): Record<string, string> {
  return {
    "content-security-policy": contentSecurityPolicy,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "cross-origin-resource-policy": "same-origin",
    "cross-origin-opener-policy": "same-origin",
  };
}

export interface GuardOptions {
  port: number;
  /** Null: no token (`--no-token`, for a trusted machine). */
  token: string | null;
}

export type GuardOutcome =
  | { kind: "pass" }
  /** The request carried the token in its URL: set the cookie and send the browser to the URL without it. */
  | { kind: "redirect"; location: string; cookie: string }
  | { kind: "refuse"; status: number; message: string };

/** The cookie of the viewer on this port (cookies are per host, not per port: two viewers must not mix). */
export function tokenCookieName(port: number): string {
  return `progagent_view_${port}`;
}

function cookieValue(request: IncomingMessage, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=");
  }
  return undefined;
}

/**
 * Decides whether a request may reach the viewer: its Host must be this loopback server's (DNS rebinding),
 * a cross-site fetch is refused (Sec-Fetch-Site), and with a token it must carry it (the printed URL's
 * `?token=`, then the cookie set from it, or `Authorization: Bearer`).
 */
export function guardRequest(request: IncomingMessage, options: GuardOptions): GuardOutcome {
  const host = (request.headers.host ?? "").toLowerCase();
  if (!loopbackHosts(options.port).has(host))
    return {
      kind: "refuse",
      status: 421,
      message: `Host '${host.slice(0, 200)}' is not this viewer's loopback address (DNS rebinding protection); open http://127.0.0.1:${options.port}/`,
    };
  const site = request.headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin" && site !== "none")
    return { kind: "refuse", status: 403, message: "Cross-site requests are refused" };
  if (request.method !== "GET" && request.method !== "HEAD")
    return { kind: "refuse", status: 405, message: "The viewer only reads: GET and HEAD" };
  if (options.token === null) return { kind: "pass" };
  const url = new URL(request.url ?? "/", "http://localhost");
  const given = url.searchParams.get("token");
  if (given !== null) {
    if (!sameToken(given, options.token))
      return { kind: "refuse", status: 401, message: "Wrong token: open the URL progagent view printed" };
    url.searchParams.delete("token");
    return {
      kind: "redirect",
      location: `${url.pathname}${url.search}`,
      cookie: `${tokenCookieName(options.port)}=${options.token}; HttpOnly; SameSite=Strict; Path=/`,
    };
  }
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? "")?.[1];
  const presented = bearer ?? cookieValue(request, tokenCookieName(options.port));
  if (presented !== undefined && sameToken(presented, options.token)) return { kind: "pass" };
  return {
    kind: "refuse",
    status: 401,
    message: "This viewer needs its token: open the URL progagent view printed (it ends with ?token=...)",
  };
}

/** Sends a short plain-text answer with the security headers. */
export function sendText(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, {
    ...securityHeaders(),
    "content-type": "text/plain; charset=utf-8",
    "cache-control": "no-store",
  });
  response.end(`${text}\n`);
}
