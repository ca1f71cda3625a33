import { z } from "zod";
import type { DomainTool, ToolContext } from "../../envs/index.js";
import {
  REFERENCE_DATE,
  defineListTool,
  isoDateSchema,
  withSilentFailures,
  withTransientFailures,
} from "../../envs/index.js";
import { ToolFailure, defineTool } from "../../runtime/index.js";
import { submitPmsForm } from "./forms.js";
import { parseAddress, renderPmsPage, wentWrong } from "./pages.js";
import type { PmsPage } from "./pages.js";
import { OTA_CHANNELS, PMS_HOST, PROPERTIES } from "./rules.js";

const address = z
  .string()
  .min(1)
  .max(400)
  .describe(
    `A PMS address: a path such as /properties/HBR/reservations?status=no_show&page=2, or the full ${PMS_HOST}/... URL`,
  );

const navigate = defineTool({
  name: "pms_navigate",
  description:
    'Open a page of the Larkspur Hotels property-management system (PMS) in the browser and return it as an accessibility snapshot: `url`, `title` and `snapshot` (the page as an indented role tree; tables as rows of cells, links as `link "text" [ref=eN] -> /path`, forms with their fields). Start at `/` for the map of pages. Listings show 10 rows a page and link to the `Next page`. Each property shows dates in its own regional format (its settings page says which) and lays out its reservation listing its own way. Like any busy web app, a listing page can answer `503 Service Unavailable` (an error; open it again), and a page can come back as `Something went wrong, try again` (status 200, no data on it; open it again).',
  kind: "read",
  inputSchema: z.object({ url: address }),
  handler: ({ url }, { db }: ToolContext): PmsPage => {
    const parsed = parseAddress(url);
    const page = renderPmsPage(db, parsed, REFERENCE_DATE);
    if (!page) throw new ToolFailure(`404 Not Found: no page at ${parsed.path}; open / for the map of pages`);
    return page;
  },
});

const submit = defineTool({
  name: "pms_submit_form",
  description:
    "Submit a PMS form (POST): the form's `action` address and its fields by name, as text. Forms: /reservations/<id>/folio/charges (code: CTAX, NOSHOW, LATECXL or MISC; amount in euros; optional description) and /reservations/<id>/move (room). Returns the page shown next: the record with a confirmation (`status`) when it worked, or with an `alert` saying what was refused (nothing saved). The app may also answer `Something went wrong, try again` (nothing saved; submit again).",
  kind: "write",
  inputSchema: z.object({
    url: address,
    fields: z
      .record(z.string(), z.union([z.string(), z.number()]))
      .describe('Field name to value, e.g. {"code": "NOSHOW", "amount": "129.00"}'),
  }),
  handler: ({ url, fields }, { db }: ToolContext): PmsPage => {
    const values = Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, String(value)]));
    return submitPmsForm(db, parseAddress(url), values, REFERENCE_DATE);
  },
});

const listReservations = defineListTool({
  name: "list_reservations",
  description:
    "The channel manager's JSON feed of online bookings (Booking.com and Expedia only; direct, phone and group reservations are not in it). Each booking: `channel_ref`, `channel`, `reservation_id` (the PMS reservation), `property`, `guest`, `arrival`, `departure` (YYYY-MM-DD), `status` (confirmed or cancelled) and `amount` (euros, for the whole stay, as the channel sent it). No rates, rooms or folios: those are in the PMS. Paginated: returns `reservations`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    property: z
      .enum(PROPERTIES.map((item) => item.code) as [string, ...string[]])
      .optional()
      .describe("Only this property's bookings"),
    channel: z
      .enum(OTA_CHANNELS as [string, ...string[]])
      .optional()
      .describe("Only this channel's bookings"),
    arrival_from: isoDateSchema
      .optional()
      .describe("Only bookings arriving on or after this date, YYYY-MM-DD"),
  },
  key: "reservations",
  from: "channel_bookings",
  select: "channel_ref, channel, reservation_id, property, guest, arrival, departure, status, amount",
  where: { property: "=", channel: "=", arrival_from: "arrival >= ?" },
  orderBy: "arrival, channel_ref",
});

/** A stable bucket per address, so the same pages misbehave in every run. */
function bucket(url: string, buckets: number): number {
  let hash = 7;
  for (const char of url.replace(PMS_HOST, "")) hash = (hash * 33 + char.charCodeAt(0)) % 1_000_003;
  return hash % buckets;
}
const RECORD = /\/(reservations|groups)\/[A-Z]/;

/** The hotel domain's tools, in the order agents see them. */
export const hotelTools: DomainTool[] = [
  withSilentFailures(
    // Deep listing pages time out at the load balancer once.
    withTransientFailures(navigate, { when: ({ url }) => /[?&]page=(2|5|9|13)\b/.test(url) }),
    // Some record pages and every listing's third page render the app's error page once.
    {
      when: ({ url }) => (RECORD.test(url) && bucket(url, 6) === 1) || /[?&]page=3\b/.test(url),
      body: ({ url }) => wentWrong(parseAddress(url).url),
    },
  ),
  // Most posts hit the same error page once (a flaky app server); nothing is saved then.
  withSilentFailures(submit, {
    when: ({ url }) => bucket(url, 3) !== 0,
    body: ({ url }) => wentWrong(parseAddress(url).url),
  }),
  // The feed's first page times out upstream once per filter set.
  withSilentFailures(listReservations, { when: (input) => input.page === 1 }),
] as DomainTool[];
