/**
 * The service desk's rules, kept in one place because they are written into the workspace documents
 * (where agents must find them) and used by the generator to shape realistic data. Verifiers read the
 * documents they depend on from the workspace (holidays, leave, rota) and use these constants only for
 * the fixed policy tables that are rendered verbatim from them.
 */

export const TEAM_NAMES = [
  "Service Desk",
  "Network Operations",
  "Endpoint Engineering",
  "Application Support",
  "Identity & Access",
  "Messaging & Collaboration",
  "Security Operations",
  "Database Administration",
  "Enterprise Accounts",
] as const;
export type TeamName = (typeof TEAM_NAMES)[number];

export const CATEGORIES = [
  "network",
  "hardware",
  "software",
  "access",
  "email",
  "security",
  "database",
] as const;
export type Category = (typeof CATEGORIES)[number];

export const PRIORITIES = ["P1", "P2", "P3", "P4"] as const;
export type Priority = (typeof PRIORITIES)[number];

export const TIERS = ["bronze", "silver", "gold", "platinum"] as const;
export type Tier = (typeof TIERS)[number];

export const UNRESOLVED_STATUSES = ["new", "open", "pending", "on_hold"] as const;

/** The L2 team each category escalates to (escalation matrix, first table). */
export const ESCALATION_TEAM_BY_CATEGORY: Record<Category, TeamName> = {
  network: "Network Operations",
  hardware: "Endpoint Engineering",
  software: "Application Support",
  access: "Identity & Access",
  email: "Messaging & Collaboration",
  security: "Security Operations",
  database: "Database Administration",
};

/** Business hours without an escalation before a ticket must be escalated (halved for platinum). */
export const ESCALATION_THRESHOLD_HOURS: Record<Priority, number> = { P1: 2, P2: 6, P3: 16, P4: 40 };

/** Resolution targets in hours, by priority then tier. */
export const RESOLUTION_TARGET_HOURS: Record<Priority, Record<Tier, number>> = {
  P1: { bronze: 24, silver: 16, gold: 8, platinum: 4 },
  P2: { bronze: 40, silver: 24, gold: 16, platinum: 8 },
  P3: { bronze: 80, silver: 60, gold: 40, platinum: 24 },
  P4: { bronze: 120, silver: 100, gold: 80, platinum: 60 },
};

/** First-response targets in hours (documented for realism; no task depends on them). */
export const RESPONSE_TARGET_HOURS: Record<Priority, Record<Tier, number>> = {
  P1: { bronze: 2, silver: 1, gold: 0.5, platinum: 0.25 },
  P2: { bronze: 4, silver: 3, gold: 2, platinum: 1 },
  P3: { bronze: 8, silver: 6, gold: 4, platinum: 3 },
  P4: { bronze: 16, silver: 12, gold: 8, platinum: 6 },
};

/** P1 tickets of gold and platinum customers run on a 24x7 clock; everything else on business hours. */
export function usesCalendarClock(priority: Priority, tier: Tier): boolean {
  return priority === "P1" && (tier === "gold" || tier === "platinum");
}

export function escalationTeamFor(category: Category, tier: Tier): TeamName {
  if (category === "security") return "Security Operations";
  if (tier === "platinum") return "Enterprise Accounts";
  return ESCALATION_TEAM_BY_CATEGORY[category];
}

export function escalationThresholdMinutes(priority: Priority, tier: Tier): number {
  const hours = ESCALATION_THRESHOLD_HOURS[priority];
  return (tier === "platinum" ? hours / 2 : hours) * 60;
}

/** Stale pending tickets (handbook): resolved after this many business hours waiting on the customer. */
export const STALE_PENDING_BUSINESS_HOURS = 40;
export const STALE_PENDING_RESOLUTION_CODE = "no_fault_found";

/** Hardware refresh policy. */
export const REFRESH_LOOKBACK_DAYS = 180;
export const REFRESH_WARRANTY_TICKET_THRESHOLD = 3;
export const REFRESH_AGE_YEARS = 4;
export const REFRESH_AGE_TICKET_THRESHOLD = 2;
export const REFRESH_AGE_ASSET_TYPES = ["laptop", "desktop"] as const;
export const REFRESH_ELIGIBLE_STATUSES = ["in_service", "in_repair"] as const;

/** The MSP running the desk (agents' e-mail domain). */
export const DESK_EMAIL_DOMAIN = "northbeam-it.com";

/** The data snapshot ("now") is taken at this UTC time on the reference date. */
export const SNAPSHOT_TIME_OF_DAY = "09:30:00";

function hoursText(hours: number): string {
  return hours < 1 ? `${hours * 60} min` : `${hours} h`;
}

function targetTable(targets: Record<Priority, Record<Tier, number>>): string {
  const header = "| Priority | Bronze | Silver | Gold | Platinum |\n|---|---|---|---|---|";
  const rows = PRIORITIES.map(
    (priority) => `| ${priority} | ${TIERS.map((tier) => hoursText(targets[priority][tier])).join(" | ")} |`,
  );
  return [header, ...rows].join("\n");
}

export function renderSlaPolicy(effectiveFrom: string): string {
  return `# Northbeam IT Services — Service Level Agreement Policy

Document owner: Service Delivery Management
Effective from: ${effectiveFrom} (supersedes SLA policy v3.2)
Version: 4.0

## 1. Scope

This policy defines the response and resolution targets that apply to every ticket raised by a
customer company under a managed-support contract. The target that applies to a ticket depends on
the ticket's **priority** (P1-P4) and the **support tier** of the customer company (Bronze, Silver,
Gold, Platinum) as recorded in the customer register.

## 2. Service clock

- **Business hours** are Monday to Friday, 08:00-18:00 UTC. Company holidays listed in
  \`calendars/holidays.csv\` are not business days (the whole day is excluded).
- Unless section 2.1 says otherwise, SLA time is measured in business hours only.
- All timestamps in the ticketing system are UTC.

### 2.1 24x7 clock

P1 tickets raised by **Gold** and **Platinum** customers are measured on a 24x7 clock: every
calendar hour counts, including nights, weekends and company holidays. All other tickets (every P2-P4
ticket, and P1 tickets of Bronze and Silver customers) use business hours.

### 2.2 Pause rules

- While a ticket is in status **pending** (waiting on the customer), the SLA clock is paused.
  The pause starts when the ticket enters \`pending\` and ends when it leaves \`pending\`, as recorded
  in the ticket's status-change history.
- Status **on_hold** (waiting on a third-party vendor) does **not** pause the clock: vendor delays
  are our responsibility.
- No other status pauses the clock.

## 3. Resolution targets

Resolution time runs from the ticket's creation (\`created_at\`) to its resolution (\`resolved_at\`),
minus paused time, counted on the clock that applies to the ticket (section 2).

${targetTable(RESOLUTION_TARGET_HOURS)}

A ticket **breaches** its resolution SLA when its resolution time is strictly greater than its target.
A ticket resolved in exactly its target time meets the SLA.

## 4. First-response targets

First response is measured from creation to \`first_response_at\` on the same clock.

${targetTable(RESPONSE_TARGET_HOURS)}

## 5. Reporting

Monthly SLA reports cover the tickets **resolved** during the calendar month (by \`resolved_at\`),
whatever month they were created in. Service credits are negotiated per contract and are out of
scope of this document.
`;
}

export function renderEscalationMatrix(): string {
  const thresholdRows = PRIORITIES.map(
    (priority) =>
      `| ${priority} | ${ESCALATION_THRESHOLD_HOURS[priority]} business hours | ${ESCALATION_THRESHOLD_HOURS[priority] / 2} business hours |`,
  );
  const routingRows = CATEGORIES.map(
    (category) => `| ${category} | ${ESCALATION_TEAM_BY_CATEGORY[category]} |`,
  );
  return `# Escalation Matrix

Maintained by: Service Desk Lead. Applies to all customer tickets.

## When to escalate

A ticket must be escalated when **all** of the following hold:

1. its status is \`new\` or \`open\` (tickets in \`pending\` or \`on_hold\` are waiting on someone else
   and are never escalated for age);
2. it has not been escalated before (escalation level 0); and
3. its age — measured in business hours (Mon-Fri 08:00-18:00 UTC, company holidays excluded, see
   \`calendars/holidays.csv\`) from \`created_at\` to the time of the review — is **strictly greater**
   than the threshold below.

| Priority | Threshold | Threshold for Platinum customers |
|---|---|---|
${thresholdRows.join("\n")}

Platinum-tier customers have halved thresholds under their contracts.

## Where to escalate

Escalate to the L2 team that owns the ticket's category:

| Category | Escalation team |
|---|---|
${routingRows.join("\n")}

Exceptions, which take precedence over the table:

- Tickets of **Platinum** customers go to **Enterprise Accounts** (their dedicated team), whatever
  the category — except **security** tickets.
- **Security** tickets always go to **Security Operations**, whoever the customer is.

Escalating moves the ticket to the target team's queue (unassigned) and raises its escalation level
by one. Always record a short reason.
`;
}

export function renderHandbook(snapshotAt: string): string {
  return `# Service Desk Handbook (excerpt)

## Data snapshot

The ticketing data you are working with was captured at **${snapshotAt}** (UTC). Treat that instant
as "now" for every age, SLA or queue review, and its date as "today".

## Ticket statuses

| Status | Meaning |
|---|---|
| new | Logged, no agent has responded yet |
| open | Being worked by the assigned agent |
| pending | Waiting on the customer (SLA clock paused, see the SLA policy) |
| on_hold | Waiting on a third-party vendor (SLA clock keeps running) |
| resolved | Fix delivered; the customer can reopen within 3 days |
| closed | Final |

Tickets in \`new\`, \`open\`, \`pending\` or \`on_hold\` are **unresolved**.

## Leave coverage

Planned and unplanned leave is recorded in \`staff/leave-calendar.csv\` (start and end dates are
inclusive). When an agent is on leave today, every unresolved ticket assigned to them must be
reassigned:

1. to the **cover agent** named on their leave entry, provided the cover agent is not on leave
   today themselves;
2. otherwise (no cover named, or the cover is also on leave today) to the **primary on-call agent**
   of the ticket's team for the current week, as listed in the on-call rota
   (\`rota/on-call-<monday>.md\`, one file per week, named after the week's Monday).

Only reassign tickets; do not change their status, team or escalation level.

## Stale pending tickets

A ticket waiting on the customer must not stay open forever. When a ticket has been in \`pending\`
for **more than ${STALE_PENDING_BUSINESS_HOURS} business hours** — counted on business hours (holidays excluded) from the moment
it **last** entered \`pending\` up to now — resolve it with resolution code \`${STALE_PENDING_RESOLUTION_CODE}\` and
the note "No response from customer". Exceptions, never auto-resolved:

- tickets of **Platinum** customers (their account team chases the customer instead);
- **P1** tickets.

Tickets in \`on_hold\` are waiting on a vendor, not on the customer, and are not covered by this rule.

## Business hours

Monday to Friday, 08:00-18:00 UTC. The company holiday calendar is \`calendars/holidays.csv\`.
`;
}

export function renderRefreshPolicy(): string {
  return `# Hardware Refresh Policy

Owner: Endpoint Engineering. Review cadence: quarterly, run against the ticket history.

## Which assets are reviewed

Only assets whose status is \`in_service\` or \`in_repair\`. Assets already marked
\`replacement_pending\` or \`retired\` are out of scope.

## Counting faults

For each asset, count its **hardware** tickets (category \`hardware\`, linked to the asset) created in
the **${REFRESH_LOOKBACK_DAYS} days** before the review date (tickets created on or after the review
date minus ${REFRESH_LOOKBACK_DAYS} days). Tickets closed with resolution code \`duplicate\` are not
counted: they repeat another ticket. Unresolved tickets count.

## Replacement criteria

An asset is due for replacement if **either** rule holds:

- **Warranty rule** — its warranty expired before the review date (\`warranty_expires_on\` earlier than
  the review date) and it has at least ${REFRESH_WARRANTY_TICKET_THRESHOLD} counted tickets;
- **Age rule** — it is a ${REFRESH_AGE_ASSET_TYPES.join(" or ")}, it was purchased at least
  ${REFRESH_AGE_YEARS} years before the review date (\`purchased_on\` on or before the review date minus
  ${REFRESH_AGE_YEARS} years), and it has at least ${REFRESH_AGE_TICKET_THRESHOLD} counted tickets.

Servers, printers, network gear and phones are replaced through the infrastructure budget and only
fall under the warranty rule.
`;
}
