import { z } from "zod";
import {
  REFERENCE_DATE,
  allRows,
  defineGetTool,
  defineListTool,
  defineStatusTool,
  requireEntity,
  requireRow,
  updateEntity,
  when,
  withSilentFailures,
  withTransientFailures,
  type DomainTool,
  type ToolContext,
  type ThreadMessage,
  optionalChoice,
} from "../../envs/index.js";
import { ToolFailure, defineTool } from "../../runtime/index.js";
import { coId, contractId, payAppId, projectId, rfiId, subId, submittalId, threadId } from "./rules.js";
import { renderThread } from "./threads.js";

const projectFilter = projectId.schema("Only this project").optional();
const subFilter = subId.schema("Only this subcontractor").optional();
const contractFilter = contractId.schema("Only this contract").optional();
const number = (id: string): number => Number(id.replace(/\D/g, ""));

const listProjects = defineListTool({
  name: "list_projects",
  description:
    "List the building projects (id, name, city, superintendent). Paginated: returns `projects`, `page`, `per_page`, `total`, `has_more`.",
  filters: {},
  key: "projects",
  from: "projects",
  where: () => [],
  orderBy: "project_id",
});

const listSubcontractors = defineListTool({
  name: "list_subcontractors",
  description:
    "List subcontractors (id, company name, trade, contact). Paginated: returns `subcontractors`, `page`, `per_page`, `total`, `has_more`.",
  filters: {},
  key: "subcontractors",
  from: "subcontractors",
  where: () => [],
  orderBy: "sub_id",
});

const getSubcontractor = defineGetTool({
  name: "get_subcontractor",
  description:
    'Get one subcontractor with every certificate of insurance on file (coverage GL/AUTO/WC, insurer, policy, each-occurrence limit USD, effective and expiry dates), renewals included. Returns `subcontractor`, `certificates`. When the compliance system times out the result is `{"status": "error", ...}` (not a tool error): ask again.',
  input: { sub_id: subId.schema("The subcontractor") },
  key: "subcontractor",
  from: "subcontractors",
  notFound: subId,
  related: {
    certificates:
      "SELECT coverage, insurer, policy_number, each_occurrence, effective_on, expires_on FROM certificates WHERE sub_id = ? ORDER BY coverage, expires_on, certificate_id",
  },
});

const listContracts = defineListTool({
  name: "list_contracts",
  description:
    "List subcontracts (id, project, subcontractor, scope, original contract sum USD, date signed). Paginated: returns `contracts`, `page`, `per_page`, `total`, `has_more`.",
  filters: { project_id: projectFilter, sub_id: subFilter },
  key: "contracts",
  from: "contracts",
  where: { project_id: "=", sub_id: "=" },
  orderBy: "contract_id",
});

const getContract = defineGetTool({
  name: "get_contract",
  description:
    "Get one subcontract with its schedule of values (line, description, scheduled value USD). Returns `contract`, `schedule_of_values`.",
  input: { contract_id: contractId.schema("The contract") },
  key: "contract",
  from: "contracts",
  notFound: contractId,
  related: {
    schedule_of_values:
      "SELECT line_no, description, scheduled_value FROM sov_lines WHERE contract_id = ? ORDER BY line_no",
  },
});

const CO_FROM = `(SELECT co.co_id, co.contract_id, c.project_id, c.sub_id, co.description, co.requested_amount, co.status,
  co.approved_amount, co.decided_by, co.decided_on, co.thread_id FROM change_orders co JOIN contracts c USING (contract_id))`;

const listChangeOrders = defineListTool({
  name: "list_change_orders",
  description:
    "List the change-order log (id, contract, project, subcontractor, description, requested amount, status pending/approved/rejected, approved amount, decided by, decided on, e-mail thread id). The log is kept by hand and can lag behind the e-mail. Paginated: returns `change_orders`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    project_id: projectFilter,
    contract_id: contractFilter,
    sub_id: subFilter,
    status: optionalChoice(["pending", "approved", "rejected"], "Only this status"),
  },
  key: "change_orders",
  from: CO_FROM,
  where: { project_id: "=", contract_id: "=", sub_id: "=", status: "=" },
  orderBy: "co_id",
});

const recordChangeOrder = defineTool({
  name: "record_change_order",
  description:
    "Record the decision on a pending change order in the log: status approved (with the approved amount) or rejected (no amount), and the e-mail address of the person who decided. Returns the updated `change_order`.",
  kind: "write",
  inputSchema: z.object({
    co_id: coId.schema("The change order"),
    status: z.enum(["approved", "rejected"]).describe("The decision"),
    approved_amount: z
      .number()
      .positive()
      .optional()
      .describe("USD; required for approved, omitted for rejected"),
    decided_by: z.string().email().describe("E-mail address of the person who decided"),
  }),
  handler: ({ co_id, status, approved_amount, decided_by }, { db }: ToolContext) => {
    const row = requireEntity<{ status: string }>(db, "change_orders", coId, co_id);
    if (row.status !== "pending")
      throw new ToolFailure(
        `change order ${co_id} is already ${row.status}; only pending change orders can be recorded`,
      );
    if ((status === "approved") !== (approved_amount !== undefined))
      throw new ToolFailure("give approved_amount for an approval, and no amount for a rejection");
    const decision = {
      status,
      approved_amount: approved_amount === undefined ? null : Math.round(approved_amount * 100) / 100,
      decided_by: decided_by.trim().toLowerCase(),
      decided_on: REFERENCE_DATE,
    };
    return { change_order: updateEntity(db, "change_orders", coId, co_id, decision) };
  },
});

const listPayApps = defineListTool({
  name: "list_pay_apps",
  description:
    "List pay applications (id, contract, project, subcontractor, application number, period to, work completed to date, retainage held to date, previously certified, current payment due, status submitted/approved/paid/on_hold), ordered by id. Paginated: returns `pay_apps`, `page`, `per_page`, `total`, `has_more`. The accounting system can answer 503 Service Unavailable; repeat the call.",
  filters: {
    project_id: projectFilter,
    contract_id: contractFilter,
    sub_id: subFilter,
    status: optionalChoice(["submitted", "approved", "paid", "on_hold"], "Only this status"),
  },
  key: "pay_apps",
  from: "(SELECT p.*, c.project_id, c.sub_id FROM pay_apps p JOIN contracts c USING (contract_id))",
  select:
    "pay_app_id, contract_id, project_id, sub_id, app_no, period_to, work_completed_to_date, retainage_held, previous_certified, current_due, status",
  where: { project_id: "=", contract_id: "=", sub_id: "=", status: "=" },
  orderBy: "pay_app_id",
});

const holdPayApp = defineStatusTool({
  name: "hold_pay_app",
  description:
    "Put an unpaid pay application (submitted or approved) on hold so that accounting does not release it. Returns the updated `pay_app`.",
  id: payAppId,
  idDescription: "The pay application",
  input: { reason: z.string().min(3).describe("Why it is held") },
  table: "pay_apps",
  from: ["submitted", "approved"],
  refusal: (id, status) => `pay application ${id} is ${status}; only submitted or approved ones can be held`,
  set: ({ reason }) => ({ status: "on_hold", hold_reason: reason.trim() }),
  key: "pay_app",
});

const listRfis = defineListTool({
  name: "list_rfis",
  description:
    "List requests for information (id, project, subject, status open/answered); dates and priority are on get_rfi. Paginated: returns `rfis`, `page`, `per_page`, `total`, `has_more`. The document-control server can answer 503 Service Unavailable; repeat the call.",
  filters: {
    project_id: projectFilter,
    status: optionalChoice(["open", "answered"], "Only this status"),
  },
  key: "rfis",
  from: "rfis",
  select: "rfi_id, project_id, subject, status",
  where: { project_id: "=", status: "=" },
  orderBy: "rfi_id",
});

const getRfi = defineGetTool({
  name: "get_rfi",
  description:
    "Get one RFI: project, subject, priority standard/urgent, date sent, question, status, date answered and answer. Returns the RFI's fields.",
  input: { rfi_id: rfiId.schema("The RFI") },
  from: "rfis",
  notFound: rfiId,
});

const listSubmittals = defineListTool({
  name: "list_submittals",
  description:
    "List submittals (id, project, spec section, title, type shop drawing/product data/sample, status under_review/approved/approved_as_noted); revision dates are on get_submittal. Paginated: returns `submittals`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    project_id: projectFilter,
    status: optionalChoice(["under_review", "approved", "approved_as_noted"], "Only this status"),
  },
  key: "submittals",
  from: "submittals",
  where: { project_id: "=", status: "=" },
  orderBy: "submittal_id",
});

const getSubmittal = defineGetTool({
  name: "get_submittal",
  description:
    'Get one submittal with its revisions, oldest first (revision, date submitted, date returned, action). Returns `submittal`, `revisions`. When the document-control server times out the result is `{"status": "error", ...}` (not a tool error): ask again.',
  input: { submittal_id: submittalId.schema("The submittal") },
  key: "submittal",
  from: "submittals",
  notFound: submittalId,
  related: {
    revisions:
      "SELECT revision, submitted_on, returned_on, action FROM submittal_revisions WHERE submittal_id = ? ORDER BY revision",
  },
});

const listThreads = defineListTool({
  name: "list_email_threads",
  description:
    "List e-mail threads of the project mailboxes (id, project, subject, number of messages, time of the latest message). Change-order threads have the change order's id in the subject. Paginated: returns `threads`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    project_id: projectFilter,
    subject_contains: z
      .string()
      .min(1)
      .optional()
      .describe("Only threads whose subject contains this text (case-insensitive)"),
  },
  key: "threads",
  from: `(SELECT t.thread_id, t.project_id, t.subject, COUNT(m.message_id) AS message_count, MAX(m.sent_at) AS last_message_at
           FROM email_threads t JOIN email_messages m USING (thread_id) GROUP BY t.thread_id)`,
  where: ({ project_id, subject_contains }) => [
    when(project_id, "project_id = ?"),
    when(subject_contains?.toLowerCase(), "instr(lower(subject), ?) > 0"),
  ],
  orderBy: "thread_id",
});

const getThread = defineTool({
  name: "get_email_thread",
  description:
    'Get a whole e-mail thread as raw text, oldest message first, messages separated by a line of 72 "=" characters. Each message is as the mail client shows it: headers (From, To, Date, Subject), the sender\'s text, a signature after "--", earlier messages quoted below "On <date>, <name> wrote:" with ">" prefixes (or answered inline), forwarded messages, and text attachments after "[Attachment: <name>]". Returns `thread_id`, `project_id`, `subject`, `text`. When the mail gateway times out the result is `{"status": "error", ...}` (not a tool error): ask again.',
  kind: "read",
  inputSchema: z.object({ thread_id: threadId.schema("The thread") }),
  handler: ({ thread_id }, { db }: ToolContext) => {
    const thread = requireRow<{ project_id: string; subject: string }>(
      db,
      "SELECT * FROM email_threads WHERE thread_id = ?",
      [thread_id],
      threadId.notFound(thread_id).message,
    );
    const messages = allRows<ThreadMessage>(
      db,
      "SELECT * FROM email_messages WHERE thread_id = ? ORDER BY message_id",
      thread_id,
    );
    return {
      thread_id,
      project_id: thread.project_id,
      subject: thread.subject,
      text: renderThread(messages, thread.subject),
    };
  },
});

/** The compliance system times out on every third subcontractor, once. */
const flakySubcontractor = withSilentFailures(getSubcontractor, {
  when: (input) => number(input.sub_id) % 3 === 0,
});
/** Accounting fails once on the first page of every pay-app listing. */
const flakyPayApps = withTransientFailures(listPayApps, { when: (input) => input.page === 1 });
/** Document control fails once on the second page of RFI listings and on some RFIs. */
const flakyRfis = withTransientFailures(listRfis, { when: (input) => input.page === 2 });
const flakyRfi = withTransientFailures(getRfi, { when: (input) => number(input.rfi_id) % 7 === 3 });
const flakySubmittal = withSilentFailures(getSubmittal, {
  when: (input) => number(input.submittal_id) % 6 === 1,
});
/** The mail gateway times out on every fourth thread, once. */
const flakyThread = withSilentFailures(getThread, { when: (input) => number(input.thread_id) % 4 === 1 });

export const constructionTools: DomainTool[] = [
  listProjects,
  listSubcontractors,
  flakySubcontractor,
  listContracts,
  getContract,
  listChangeOrders,
  recordChangeOrder,
  flakyPayApps,
  holdPayApp,
  flakyRfis,
  flakyRfi,
  listSubmittals,
  flakySubmittal,
  listThreads,
  flakyThread,
] as DomainTool[];
