/**
 * The back office's HTML, as its server renders it (elements from the kit's html.ts): the page chrome every page
 * carries (head with styles and analytics scripts, top navigation, cookie banner, breadcrumbs, footer), so
 * the content an agent wants sits inside markup it must parse.
 */
import { escapeHtml, htmlElement, htmlLink } from "../../envs/index.js";
import { BACK_OFFICE } from "./rules.js";

/** What the browser tools return: the address, the HTTP status and the page's HTML. */
export type WebPage = { url: string; status: number; html: string } & Record<string, unknown>;

const el = htmlElement;
const link = htmlLink;

const STYLE = `<style>
  body{font-family:Inter,system-ui,sans-serif;margin:0;color:#1c2733}
  .topbar{background:#0d3b66;color:#fff;display:flex;gap:1rem;padding:.5rem 1rem}
  .grid td,.grid th{padding:.25rem .5rem;border-bottom:1px solid #e3e8ee}
  .flash{background:#e7f7ed;border-left:4px solid #2e9d58;padding:.5rem}
  .error{background:#fdecea;border-left:4px solid #c0392b;padding:.5rem}
</style>`;
const SCRIPT = `<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag("js",new Date());gtag("config","HB-4417-2");</script>
<script src="/static/js/backoffice.bundle.3f9a1c.js" defer></script>`;

/** A full page: head, navigation, cookie banner, breadcrumb trail, the main content and the footer. */
export function layout(title: string, main: string, crumbs: Array<[string, string?]> = []): string {
  const nav = ["Disputes:/disputes", "Sellers:/sellers", "Refunds:/refunds", "Help:/help"].map((item) => {
    const [name, href] = item.split(":") as [string, string];
    return el("li", {}, link(href, name));
  });
  const trail = [
    link("/", "Back office"),
    ...crumbs.map(([text, href]) => (href ? link(href, text) : escapeHtml(text))),
  ];
  return [
    "<!DOCTYPE html>",
    `<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · Harborline Seller Desk</title>`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">${STYLE}${SCRIPT}</head><body>`,
    el(
      "header",
      { class: "topbar" },
      link("/", "Harborline Market · Seller Disputes Desk", { class: "brand" }),
      el("nav", { "aria-label": "Main" }, el("ul", {}, ...nav)),
      el(
        "span",
        { class: "user" },
        "Signed in as desk.agent@harborline.market · ",
        link("/logout", "Sign out"),
      ),
    ),
    el(
      "div",
      { id: "cookie-banner", role: "dialog" },
      "We use cookies to keep you signed in. ",
      el("button", { type: "button" }, "Accept"),
    ),
    el("nav", { class: "breadcrumbs", "aria-label": "Breadcrumb" }, trail.join(" › ")),
    "<!-- main content -->",
    el("main", { id: "content" }, el("h1", {}, escapeHtml(title)), main),
    el("footer", {}, "© 2025 Harborline Market Ltd · Internal use only · ", link("/help/privacy", "Privacy")),
    "</body></html>",
  ].join("\n");
}

export function webPage(
  url: string,
  title: string,
  main: string,
  crumbs?: Array<[string, string?]>,
  status = 200,
): WebPage {
  return { url, status, html: layout(title, main, crumbs) };
}

/** A stable short token for a string (CSRF tokens, which pages misbehave). */
export function stableHash(text: string): number {
  let hash = 2166136261;
  for (const char of text) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
  return hash;
}

/** The bot-check page a CDN shows now and then instead of the page asked for: HTTP 200, no data on it. */
export function interstitial(url: string): WebPage {
  const html = [
    "<!DOCTYPE html>",
    '<html lang="en"><head><meta charset="utf-8"><title>Just a moment...</title>',
    '<meta http-equiv="refresh" content="5"></head><body>',
    el(
      "div",
      { class: "challenge" },
      el("h1", {}, "Checking your browser before accessing backoffice.harborline.market"),
      el("p", {}, "This process is automatic. Your browser will redirect to your requested content shortly."),
    ),
    "<script>setTimeout(function(){location.reload()},5000)</script>",
    "</body></html>",
  ].join("\n");
  return { url, status: 200, html };
}

export const absolute = (path: string): string => `${BACK_OFFICE}${path}`;
