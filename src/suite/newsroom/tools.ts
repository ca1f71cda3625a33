import { z } from "zod";
import {
  allRows,
  cachedStatement,
  defineGetTool,
  defineStatusTool,
  defineListTool,
  isoDateSchema,
  REFERENCE_DATE,
  requireEntity,
  requireRow,
  roundCents,
  when,
  withSilentFailures,
  withTransientFailures,
  type DomainTool,
  type IdFormat,
  type ToolContext,
  renderMessage,
  type ThreadMessage,
  optionalChoice,
  optionalDate,
} from "../../envs/index.js";
import { ToolFailure, defineTool } from "../../runtime/index.js";
import {
  CHANNELS,
  CORRECTION_KINDS,
  DESKS,
  MAILBOXES,
  STAFF_ROLES,
  STORY_STATUSES,
  TIERS,
  commissionId,
  correctionId,
  freelancerId,
  messageId,
  paymentId,
  storyId,
  threadId,
} from "./rules.js";

type Db = ToolContext["db"];

/** Inserts a row with the id after the table's highest (a prefix and a zero-padded number) and returns it. */
function insertNext(db: Db, table: string, format: IdFormat, values: unknown[]): unknown {
  const id = format.next(db, table);
  const marks = ["?", ...values.map(() => "?")].join(", ");
  cachedStatement(db, `INSERT INTO ${table} VALUES (${marks})`).run(id, ...values);
  return requireEntity(db, table, format, id);
}

const deskSchema = optionalChoice(DESKS, "Only this desk");

const listStaff = defineListTool({
  name: "list_staff",
  description:
    "List newsroom staff (id, name, e-mail, role, desk), ordered by id. Paginated: returns `staff`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    role: optionalChoice(STAFF_ROLES, "Only this role"),
    desk: deskSchema,
  },
  key: "staff",
  from: "staff",
  where: { role: "=", desk: "=" },
  orderBy: "staff_id",
});

const listFreelancers = defineListTool({
  name: "list_freelancers",
  description:
    "List freelance contributors (id, name, e-mail, rate-card tier, country), ordered by id. Paginated: returns `freelancers`, `page`, `per_page`, `total`, `has_more`.",
  filters: { tier: optionalChoice(TIERS, "Only this rate-card tier") },
  key: "freelancers",
  from: "freelancers",
  where: { tier: "=" },
  orderBy: "freelancer_id",
});

const listStories = defineListTool({
  name: "list_stories",
  description:
    "List stories in the CMS (id, slug, desk, status, last update, embargo time and first web publication time in UTC; no headline or byline: use get_story), ordered by id. Paginated: returns `stories`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    desk: deskSchema,
    status: optionalChoice(STORY_STATUSES, "Only this status"),
    slug: z.string().optional().describe("Only the story with this exact slug"),
    embargoed: z
      .boolean()
      .optional()
      .describe("true: only stories with an embargo time; false: only without"),
    published_from: isoDateSchema
      .optional()
      .describe("Only stories first published on the web on or after this date"),
    published_to: isoDateSchema
      .optional()
      .describe("Only stories first published on the web on or before this date"),
  },
  key: "stories",
  from: "stories",
  select: "story_id, slug, desk, status, updated_on, embargo_until, published_at",
  where: ({ desk, status, slug, embargoed, published_from, published_to }) => [
    when(desk, "desk = ?"),
    when(status, "status = ?"),
    when(slug?.trim().toLowerCase(), "slug = ?"),
    embargoed === undefined ? null : embargoed ? "embargo_until IS NOT NULL" : "embargo_until IS NULL",
    when(published_from, "published_at >= ?"),
    when(published_to, "substr(published_at, 1, 10) <= ?"),
  ],
  orderBy: "story_id",
});

const getStory = defineGetTool({
  name: "get_story",
  description: "Get one story with its headline, byline (e-mail) and word count. Returns `story`.",
  input: { story_id: storyId.schema("The story") },
  key: "story",
  from: "stories",
  notFound: storyId,
});

const updateStoryStatus = defineStatusTool({
  name: "update_story_status",
  description:
    "Move a story to another workflow status (draft, edited, legal_hold, ready, spiked); published stories cannot be moved. Returns the updated `story`.",
  id: storyId,
  idDescription: "The story",
  input: { status: z.enum(["draft", "edited", "legal_hold", "ready", "spiked"]).describe("The new status") },
  table: "stories",
  from: STORY_STATUSES.filter((status) => status !== "published"),
  refusal: (id, status) => `story ${id} is ${status}; a published story cannot change status`,
  set: ({ status }) => ({ status, updated_on: REFERENCE_DATE }),
  key: "story",
});

const listPublishEvents = defineListTool({
  name: "list_publish_events",
  description:
    "List the moments stories appeared on each channel (web, app, newsletter, social, partner_feed), UTC 'YYYY-MM-DD HH:MM', ordered by story then time. Paginated: returns `events`, `page`, `per_page`, `total`, `has_more`. The publishing log's API is busy: a call can fail with 503 Service Unavailable; make the same call again.",
  filters: {
    story_id: storyId.schema("Only this story's events").optional(),
    channel: optionalChoice(CHANNELS, "Only this channel"),
  },
  key: "events",
  from: "publish_events",
  select: "story_id, channel, published_at",
  where: { story_id: "=", channel: "=" },
  orderBy: "story_id, published_at, event_id",
});

const listCommissions = defineListTool({
  name: "list_commissions",
  description:
    "List freelance commissions (freelancer, story, kind article/photo, commissioned and filed units: words or images, status, agreed/filed/killed dates), ordered by id. Paginated: returns `commissions`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    status: optionalChoice(["commissioned", "filed", "killed"], "Only this status"),
    freelancer_id: freelancerId.schema("Only this freelancer's commissions").optional(),
  },
  key: "commissions",
  from: "commissions",
  where: { status: "=", freelancer_id: "=" },
  orderBy: "commission_id",
});

const listPayments = defineListTool({
  name: "list_payments",
  description:
    "List freelance payments (commission, freelancer, amount USD, status approved/paid, approval and payment dates), ordered by id. Paginated: returns `payments`, `page`, `per_page`, `total`, `has_more`. Finance's API can fail with 503 Service Unavailable; make the same call again.",
  filters: {
    status: optionalChoice(["approved", "paid"], "Only this status"),
    commission_id: commissionId.schema("Only payments for this commission").optional(),
  },
  key: "payments",
  from: "payments",
  where: { status: "=", commission_id: "=" },
  orderBy: "payment_id",
});

const approvePayment = defineTool({
  name: "approve_payment",
  description:
    "Approve a payment to the freelancer of a filed or killed commission, dated today (finance pays approved payments). Returns `payment`.",
  kind: "write",
  inputSchema: z.object({
    commission_id: commissionId.schema("The commission paid for"),
    amount: z.number().positive().describe("Amount in USD"),
    note: z.string().optional().describe("A note for finance"),
  }),
  handler: ({ commission_id, amount, note }, { db }: ToolContext) => {
    const commission = requireEntity<{ freelancer_id: string; status: string }>(
      db,
      "commissions",
      commissionId,
      commission_id,
    );
    if (commission.status === "commissioned")
      throw new ToolFailure(
        `commission ${commission_id} has not been filed or killed; nothing is payable yet`,
      );
    const values = [commission_id, commission.freelancer_id, roundCents(amount), "approved", REFERENCE_DATE];
    return { payment: insertNext(db, "payments", paymentId, [...values, null, note ?? null]) };
  },
});

const listCorrections = defineListTool({
  name: "list_corrections",
  description:
    "List the corrections log (story, kind, wording, date logged), ordered by id. Paginated: returns `corrections`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    story_id: storyId.schema("Only corrections to this story").optional(),
    logged_from: optionalDate("Only corrections logged on or after this date"),
    logged_to: optionalDate("Only corrections logged on or before this date"),
  },
  key: "corrections",
  from: "corrections",
  where: { story_id: "=", logged_from: "logged_on >= ?", logged_to: "logged_on <= ?" },
  orderBy: "correction_id",
});

const logCorrection = defineTool({
  name: "log_correction",
  description: "Add a correction to the corrections log, dated today. Returns `correction`.",
  kind: "write",
  inputSchema: z.object({
    story_id: storyId.schema("The corrected story"),
    kind: z.enum(CORRECTION_KINDS).describe("The kind of correction"),
    wording: z.string().min(10).describe("The correction's published wording"),
  }),
  handler: ({ story_id, kind, wording }, { db }: ToolContext) => {
    requireEntity(db, "stories", storyId, story_id);
    const values = [story_id, kind, wording.trim(), REFERENCE_DATE];
    return { correction: insertNext(db, "corrections", correctionId, values) };
  },
});

const listPhotos = defineListTool({
  name: "list_photos",
  description:
    "List photos used in stories (story, caption, credit, licence reference; STAFF for staff photos), ordered by id. Paginated: returns `photos`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    story_id: storyId.schema("Only this story's photos").optional(),
    licence_ref: z.string().optional().describe("Only photos under this licence reference"),
  },
  key: "photos",
  from: "photos",
  where: { story_id: "=", licence_ref: "=" },
  orderBy: "photo_id",
});

const listThreads = defineListTool({
  name: "list_threads",
  description:
    "List mail threads in the desk's shared mailboxes (corrections, legal, freelance, desk): id, mailbox, subject, message count, time of the latest message. Paginated: returns `threads`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    mailbox: optionalChoice(MAILBOXES, "Only this mailbox"),
    subject_contains: z
      .string()
      .optional()
      .describe("Only threads whose subject contains this text (case-insensitive)"),
  },
  key: "threads",
  from: `(SELECT t.thread_id, t.mailbox, t.subject, COUNT(m.message_id) AS message_count, MAX(m.sent_at) AS last_message_at
           FROM mail_threads t JOIN mail_messages m ON m.thread_id = t.thread_id GROUP BY t.thread_id)`,
  where: ({ mailbox, subject_contains }) => [
    when(mailbox, "mailbox = ?"),
    when(subject_contains?.toLowerCase(), "instr(lower(subject), ?) > 0"),
  ],
  orderBy: "thread_id",
});

const getThread = defineGetTool({
  name: "get_thread",
  description:
    "Get a mail thread's message list, oldest first: message id, sender, time sent (UTC), attachment name. Read a message with get_message. Returns `thread`, `messages`.",
  input: { thread_id: threadId.schema("The thread") },
  key: "thread",
  from: "mail_threads",
  notFound: threadId,
  related: {
    messages:
      "SELECT message_id, from_name || ' <' || from_email || '>' AS sender, sent_at, attachment_name AS attachment FROM mail_messages WHERE thread_id = ? ORDER BY sent_at, message_id",
  },
});

/** A thread's messages, oldest first. */
const THREAD_MESSAGES = "SELECT * FROM mail_messages WHERE thread_id = ? ORDER BY sent_at, message_id";

const getMessage = defineTool({
  name: "get_message",
  description:
    "Get one e-mail as the mail client shows it: headers, the sender's text, signature, the earlier messages quoted ('>' lines, 'On ... wrote:'), forwarded messages, and text attachments at the bottom. Returns `message_id`, `thread_id`, `text`. When the mail gateway times out the result is `{\"status\": \"error\", ...}` with no text (not a tool error): ask for the message again.",
  kind: "read",
  inputSchema: z.object({ message_id: messageId.schema("The message") }),
  handler: ({ message_id }, { db }: ToolContext) => {
    const notFound = `message ${message_id} not found; use list_threads and get_thread to find message ids`;
    const sql = "SELECT * FROM mail_messages JOIN mail_threads USING (thread_id) WHERE message_id = ?";
    const { thread_id, subject } = requireRow<{ thread_id: string; subject: string }>(
      db,
      sql,
      [message_id],
      notFound,
    );
    // The thread up to this message, oldest first: what the client quotes below the new text.
    const thread = allRows<ThreadMessage>(db, THREAD_MESSAGES, thread_id);
    const shown = thread.slice(0, thread.findIndex((message) => message.message_id === message_id) + 1);
    return { message_id, thread_id, text: renderMessage(shown, subject) };
  },
});

/** The mail gateway times out on some messages and says so only in the body (no isError). */
export const flakyMessage = withSilentFailures(getMessage, {
  when: (input) => Number(input.message_id.slice(4)) % 7 === 3,
});

/** The publishing log's API is flaky: the second page of a listing, and some stories' first call, fail once with a 503. */
export const flakyPublishEvents = withTransientFailures(listPublishEvents, {
  when: (input) =>
    input.page === 2 || (input.story_id !== undefined && Number(input.story_id.slice(4)) % 4 === 1),
});

/** Finance's payments API fails once on deep pages and on the first page of paid payments. */
export const flakyPayments = withTransientFailures(listPayments, {
  when: (input) => input.page === 3 || (input.page === 1 && input.status === "paid"),
});

export const newsroomTools: DomainTool[] = [
  listStaff,
  listFreelancers,
  listStories,
  getStory,
  updateStoryStatus,
  flakyPublishEvents,
  listCommissions,
  flakyPayments,
  approvePayment,
  listCorrections,
  logCorrection,
  listPhotos,
  listThreads,
  getThread,
  flakyMessage,
] as DomainTool[];
