import { z } from "zod";
import type { DomainTool, ToolContext } from "../../envs/index.js";
import { withSilentFailures, withTransientFailures } from "../../envs/index.js";
import { ToolFailure, defineTool } from "../../runtime/index.js";
import { submitForm } from "./forms.js";
import { interstitial, stableHash } from "./html.js";
import type { WebPage } from "./html.js";
import { parseUrl, renderPage } from "./pages.js";

const urlSchema = z
  .string()
  .min(1)
  .max(500)
  .describe(
    "A back-office address: a path such as /disputes?status=escalated&page=2, or the full https://backoffice.harborline.market/... URL",
  );

const navigate = defineTool({
  name: "browser_navigate",
  description:
    'Open a page of Harborline Market\'s seller-disputes back office in the browser and return it as the server rendered it: `url`, `status` (HTTP) and `html` (the whole document, navigation, scripts and all). Start at `/` for the map of pages. Listings (/disputes, /sellers, /refunds) take parameters in the query string, show 10 rows a page (cases and refunds newest first) and link to the next page (`rel="next"`). Record pages: /disputes/<case>, /orders/<order>, /sellers/<seller>, /tracking/<tracking number>. As with any busy site, a listing can answer `503 Service Unavailable` (an error; open it again), and the CDN sometimes returns its `Just a moment...` browser-check page instead of the page asked for (status 200, no data; open the page again).',
  kind: "read",
  inputSchema: z.object({ url: urlSchema }),
  handler: ({ url }, { db }: ToolContext): WebPage => {
    const parsed = parseUrl(url);
    const page = renderPage(db, parsed);
    if (!page) throw new ToolFailure(`404 Not Found: no page at ${parsed.path}; open / for the map of pages`);
    return page;
  },
});

const submit = defineTool({
  name: "browser_submit_form",
  description:
    "Submit a back-office form by POST: the form's `action` address and its fields by `name` (include the hidden `csrf_token` from the form on the page). Returns the page shown next (`url`, `status`, `html`): the record with a confirmation banner when it worked; the record with an alert (status 422) when the values were refused; a `403 Forbidden` page when the token was missing or stale. Nothing is saved in the last two cases.",
  kind: "write",
  inputSchema: z.object({
    url: urlSchema,
    fields: z
      .record(z.string(), z.union([z.string(), z.number()]))
      .describe('Field name to value, e.g. {"csrf_token": "…", "action": "escalate", "reason_code": "…"}'),
  }),
  handler: ({ url, fields }, { db }: ToolContext): WebPage => {
    const values = Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, String(value)]));
    return submitForm(db, parseUrl(url), values);
  },
});

const RECORD = /^(https:\/\/backoffice\.harborline\.market)?\/(disputes|orders|sellers|tracking)\/[A-Z]/;

/** The marketplace domain's tools, in the order agents see them. */
export const marketplaceTools: DomainTool[] = [
  withSilentFailures(
    // Deep listing pages are slow to build and the load balancer answers some with a 503 once.
    withTransientFailures(navigate, { when: (input) => /[?&]page=(2|5|9|14)\b/.test(input.url) }),
    // The CDN's browser check stands in for every tracking page and some other record pages once; opening them again works.
    {
      when: ({ url }) =>
        RECORD.test(url) &&
        (url.includes("/tracking/") || stableHash(url.replace(/^https:\/\/[^/]+/, "")) % 6 === 1),
      body: ({ url }) => interstitial(url),
    },
  ),
  submit,
] as DomainTool[];
