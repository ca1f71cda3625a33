import { z } from "zod";
import type { DomainTool, ToolContext } from "../../envs/index.js";
import { snapshotText, withSilentFailures, withTransientFailures } from "../../envs/index.js";
import { ToolFailure, defineTool } from "../../runtime/index.js";
import { renderFormPage, submitPortalForm } from "./forms.js";
import { parsePortalUrl, portalPage, renderPortalPage } from "./pages.js";
import type { PortalPage } from "./pages.js";

const urlSchema = z
  .string()
  .min(1)
  .max(500)
  .describe(
    "A portal address: a path such as /permits?status=issued&page=2, or the full https://permits.riverton.gov/... URL",
  );

const openPage = defineTool({
  name: "open_page",
  description:
    'Open a page of the city\'s permits staff portal in the browser and return its accessibility snapshot (`url`, `title`, `snapshot`: the page as an indented role tree, links shown as `link "text" [ref=eN] -> /path`). Start at `/` for the map of pages. Search pages (/permits, /inspections, /contractors, /fees) take filters in the query string, show 10 rows a page and link to the `Next page`. Detail pages: /permits/<permit>, /permits/<permit>/fees, /inspections/<inspection>, /contractors/<license>. Form pages (opening one shows its fields): /permits/<permit>/inspections/new, /permits/<permit>/stop-work, /permits/<permit>/fees/waiver, /inspections/<inspection>/reassign. Faults, as with any web portal: a busy search page can answer `503 Service Unavailable` (an error; open it again), and a page can come back as the `Session expired` page with no data on it (not an error; open the page again).',
  kind: "read",
  inputSchema: z.object({ url: urlSchema }),
  handler: ({ url }, { db }: ToolContext): PortalPage => {
    const parsed = parsePortalUrl(url);
    const page = renderPortalPage(db, parsed) ?? renderFormPage(db, parsed);
    if (!page) throw new ToolFailure(`404 Not Found: no page at ${parsed.path}; open / for the map of pages`);
    return page;
  },
});

const submitForm = defineTool({
  name: "submit_form",
  description:
    "Fill in and submit a portal form (the form page's address, and its fields by their `name`, as text). Returns the page shown next: the record with a confirmation line (`status`) when it worked, or the form again with an `alert` naming the problem (nothing is saved then). A post made after the sign-in lapsed comes back as the `Session expired` page: nothing was saved, submit the same values again.",
  kind: "write",
  inputSchema: z.object({
    url: urlSchema,
    fields: z
      .record(z.string(), z.union([z.string(), z.number()]))
      .describe(
        'Field name to value, e.g. {"inspection_type": "Framing", "date": "2025-07-03", "inspector": "Priya Raman"}',
      ),
  }),
  handler: ({ url, fields }, { db }: ToolContext): PortalPage => {
    const values = Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, String(value)]));
    return submitPortalForm(db, parsePortalUrl(url), values);
  },
});

/** A stable small number per address, so the same pages misbehave in every run. */
function addressBucket(url: string, buckets: number): number {
  let hash = 0;
  for (const char of url.replace(/^https:\/\/permits\.riverton\.gov/, ""))
    hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash % buckets;
}

/** The page a portal shows when the sign-in lapsed: an ordinary page, with no data on it. */
function sessionExpired(url: string): PortalPage {
  return portalPage(url, "Session expired", [
    snapshotText("Session expired — please reload the page to continue. Unsaved changes were not submitted."),
  ]);
}

const DETAIL = /^[^?]*\/(permits|inspections|contractors)\/[A-Z]/;

/** The permits domain's tools, in the order agents see them. */
export const permitsTools: DomainTool[] = [
  // Deep listing pages are slow to build and the portal's load balancer answers some with a 503 once.
  withSilentFailures(
    withTransientFailures(openPage, { when: (input) => /[?&]page=(3|7|12)\b/.test(input.url) }),
    // Some detail pages come back as the session-expired page once; reloading them works.
    {
      when: ({ url }) => DETAIL.test(url) && addressBucket(url, 7) === 2,
      body: ({ url }) => sessionExpired(url),
    },
  ),
  // The stop-work and waiver forms carry a token that has always lapsed by the first post: that post comes
  // back as the session-expired page and saves nothing; posting again works.
  withSilentFailures(submitForm, {
    when: (input) => /\/(stop-work|fees\/waiver)$/.test(input.url),
    body: (input) => sessionExpired(input.url),
  }),
] as DomainTool[];
