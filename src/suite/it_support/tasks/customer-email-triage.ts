import type Database from "better-sqlite3";
import {
  check,
  checkStateDiff,
  defineTask,
  variantNearMisses,
  renderEmail,
  type Check,
  type GenerateContext,
  type Row,
  type StateView,
} from "../../../envs/index.js";
import { itSupportDomain } from "../domain.js";
import { minutesToIso } from "../business-time.js";
import { PYTHON_HELPERS } from "../oracle-cells.js";
import { readSnapshotMinutes } from "../task-support.js";

export const TRIAGE_POLICY_PATH = "policies/customer-email-triage.md";
export const INBOX_FOLDER = "inbox";

type Intent = "confirm" | "recurrence" | "own_mistake" | "went_away";

/** What each kind of message says, in two wordings each; the verifier recognises them by these phrases. */
const PHRASES: Record<Intent, string[]> = {
  confirm: [
    "I can confirm the fix works on our side. Thanks a lot, you can close this one.",
    "Everything has been working again since your change yesterday, so as far as we are concerned this is done.",
  ],
  recurrence: [
    "I'm sorry to say the problem is back: it started failing again this morning, exactly as before.",
    "Unfortunately the same fault has returned. Two of my colleagues saw it again today.",
  ],
  own_mistake: [
    "Please cancel this request. It turns out it was our own mistake: someone here had changed the setting locally.",
    "You can drop this one. We found the cause on our side (a cable one of our staff had unplugged), sorry for the noise.",
  ],
  went_away: [
    "Please cancel this request: the issue has gone away on its own and we can no longer reproduce it.",
    "No need to look into this any more. It stopped happening by itself and we could not make it happen again.",
  ],
};

const POLICY = `# Customer e-mail triage

Customers sometimes answer by e-mail instead of through the portal. Whoever works the shared inbox
(\`inbox/\`) handles each message as follows.

## 1. Check the sender first

Act on a message only when it comes from a registered contact of the company that raised the ticket
(the contacts listed on the company record). Anything else - personal addresses, other companies,
unknown senders - is not acted on at all: no status change and no comment. Security reviews those
messages separately.

## 2. What to do

| The customer says | Ticket is | Do this |
|---|---|---|
| the fix works / the ticket can be closed | resolved | close the ticket (status \`closed\`) |
| the problem is back | resolved | reopen it (status \`open\`) |
| the problem is back | closed | closed tickets are final: do not reopen; add an internal comment that starts with "Recurrence reported by customer" |
| cancel the request: it was their own mistake | unresolved | resolve it with resolution code \`user_error\` |
| cancel the request: it went away by itself / cannot be reproduced | unresolved | resolve it with resolution code \`no_fault_found\` |

Messages about tickets in any other situation are left for the shift lead: do nothing with them.

## 3. Notes

Quote the message's file name in the note or comment you leave. Do not reassign or escalate tickets
from the inbox.
`;

interface PlannedMail {
  intent: Intent;
  ticketStatuses: string[];
  outsider: boolean;
}

const CYCLE: PlannedMail[] = [
  { intent: "confirm", ticketStatuses: ["resolved"], outsider: false },
  { intent: "recurrence", ticketStatuses: ["resolved"], outsider: false },
  { intent: "own_mistake", ticketStatuses: ["open", "pending", "new", "on_hold"], outsider: false },
  { intent: "went_away", ticketStatuses: ["open", "pending", "new", "on_hold"], outsider: false },
  { intent: "recurrence", ticketStatuses: ["closed"], outsider: false },
  { intent: "recurrence", ticketStatuses: ["closed"], outsider: true },
];

/**
 * Tickets stay resolved for three days before they close automatically, so a small desk may have fewer
 * resolved tickets than the inbox needs: the most recently resolved closed tickets are then moved back
 * into their three-day window (resolved hours before the snapshot, not closed yet).
 */
function reopenResolvedWindow(db: Database.Database, needed: number, hoursAgo: number): void {
  const resolved = (
    db.prepare("SELECT COUNT(*) AS n FROM tickets WHERE status = 'resolved'").get() as { n: number }
  ).n;
  if (resolved >= needed + 2) return;
  const snapshot = readSnapshotMinutes(db);
  const closed = db
    .prepare("SELECT id FROM tickets WHERE status = 'closed' ORDER BY resolved_at DESC, id DESC LIMIT ?")
    .all(needed + 2 - resolved) as Array<{ id: number }>;
  closed.forEach((ticket, index) => {
    const at = minutesToIso(snapshot - (hoursAgo + 5 * index) * 60);
    db.prepare(
      "UPDATE tickets SET status = 'resolved', resolved_at = ?, closed_at = NULL, updated_at = ? WHERE id = ?",
    ).run(at, at, ticket.id);
    db.prepare(
      `UPDATE ticket_events SET created_at = ? WHERE id = (SELECT id FROM ticket_events
         WHERE ticket_id = ? AND event_type = 'status_change' AND to_value = 'resolved' ORDER BY created_at DESC, id DESC LIMIT 1)`,
    ).run(at, ticket.id);
  });
}

interface TicketPick {
  id: number;
  subject: string;
  company_id: number;
  requester_email: string;
  requester_name: string;
}

interface Sender {
  name: string;
  email: string;
}

/** Someone writing from a personal address instead of a registered one. */
function personalSender(name: string): Sender {
  const local = name
    .toLowerCase()
    .replace(/[^a-z]+/g, ".")
    .replace(/^\.+|\.+$/g, "");
  return { name, email: `${local}@gmail.com` };
}

/** Writes the triage policy and 4 + 2 x files customer e-mails, one per ticket, cycling through the cases. */
function prepare(context: GenerateContext): void {
  const { db, random, factors, faker, referenceDate } = context;
  context.writeFile(TRIAGE_POLICY_PATH, POLICY);
  const used = new Set<number>();
  const count = 4 + 2 * factors.files;
  const contactsOf = db.prepare(
    "SELECT full_name AS name, email FROM customers WHERE company_id = ? ORDER BY id",
  );
  const otherContact = db.prepare(
    "SELECT full_name AS name, email FROM customers WHERE company_id != ? ORDER BY id LIMIT 1 OFFSET ?",
  );
  const plans = Array.from({ length: count }, (_, index) => CYCLE[index % CYCLE.length] as PlannedMail);
  reopenResolvedWindow(
    db,
    plans.filter((plan) => plan.ticketStatuses.includes("resolved")).length,
    random.int(6, 40),
  );
  for (const [index, plan] of plans.entries()) {
    const options = (
      db
        .prepare(
          `SELECT t.id, t.subject, t.company_id, c.email AS requester_email, c.full_name AS requester_name
           FROM tickets t JOIN customers c ON c.id = t.requester_id
           WHERE t.status IN (${plan.ticketStatuses.map(() => "?").join(", ")}) ORDER BY t.id DESC LIMIT 60`,
        )
        .all(...plan.ticketStatuses) as TicketPick[]
    ).filter((ticket) => !used.has(ticket.id));
    const ticket = random.pick(options);
    used.add(ticket.id);
    const contacts = contactsOf.all(ticket.company_id) as Sender[];
    let sender: Sender = { name: ticket.requester_name, email: ticket.requester_email };
    if (plan.outsider) {
      if (random.chance(0.5)) sender = personalSender(faker.person.fullName());
      else sender = otherContact.get(ticket.company_id, random.int(0, 20)) as Sender;
    } else if (contacts.length > 1 && random.chance(0.4)) {
      sender = random.pick(contacts.filter((contact) => contact.email !== ticket.requester_email));
    }
    const body = random.pick(PHRASES[plan.intent]);
    const date = referenceDate;
    const path = `${INBOX_FOLDER}/${date}-${String(index + 1).padStart(2, "0")}-ticket-${ticket.id}.eml`;
    context.writeFile(
      path,
      renderEmail(
        {
          From: `${sender.name} <${sender.email}>`,
          To: "Northbeam Service Desk <support@northbeam-it.com>",
          Date: date,
          Subject: `Re: [Ticket #${ticket.id}] ${ticket.subject}`,
        },
        [
          "Hello,",
          body,
          `Kind regards,\n${sender.name.split(" ")[0] ?? sender.name}`,
          `> On an earlier date, Northbeam Service Desk wrote:\n> Your ticket #${ticket.id} ("${ticket.subject}") has been updated. Reply to this e-mail to add a comment.`,
        ],
      ),
    );
  }
}

interface MailAction {
  ticketId: number;
  status: string | null;
  resolutionCode?: string | null;
  comment: boolean;
}

function intentOf(text: string): Intent | null {
  for (const [intent, phrases] of Object.entries(PHRASES) as Array<[Intent, string[]]>)
    if (phrases.some((phrase) => text.includes(phrase))) return intent;
  return null;
}

/** What the triage policy does with each message of the inbox, from the initial state. */
export function expectedTriage(state: StateView): MailAction[] {
  const { db } = state;
  const actions: MailAction[] = [];
  for (const path of state.listFiles().filter((item) => item.startsWith(`${INBOX_FOLDER}/`))) {
    const text = state.readFile(path) ?? "";
    const sender = text.match(/^From: .*<([^>]+)>$/m)?.[1]?.toLowerCase();
    const ticketId = Number(text.match(/^Subject: .*\[Ticket #(\d+)\]/m)?.[1]);
    const intent = intentOf(text);
    if (!sender || !ticketId || !intent) throw new Error(`cannot read ${path}`);
    const ticket = db.prepare("SELECT status, company_id FROM tickets WHERE id = ?").get(ticketId) as
      { status: string; company_id: number } | undefined;
    if (!ticket) throw new Error(`${path} names a missing ticket`);
    if (!isContact(db, ticket.company_id, sender)) continue;
    const unresolved = ["new", "open", "pending", "on_hold"].includes(ticket.status);
    if (intent === "confirm" && ticket.status === "resolved")
      actions.push({ ticketId, status: "closed", comment: false });
    else if (intent === "recurrence" && ticket.status === "resolved")
      actions.push({ ticketId, status: "open", resolutionCode: null, comment: false });
    else if (intent === "recurrence" && ticket.status === "closed")
      actions.push({ ticketId, status: null, comment: true });
    else if ((intent === "own_mistake" || intent === "went_away") && unresolved)
      actions.push({
        ticketId,
        status: "resolved",
        resolutionCode: intent === "own_mistake" ? "user_error" : "no_fault_found",
        comment: false,
      });
  }
  return actions;
}

function isContact(db: Database.Database, companyId: number, email: string): boolean {
  return (
    db.prepare("SELECT 1 FROM customers WHERE company_id = ? AND lower(email) = ?").get(companyId, email) !==
    undefined
  );
}

function verify({ initial, final }: { initial: StateView; final: StateView }): Check[] {
  const actions = expectedTriage(initial);
  const changed = new Map<number, Row>();
  for (const action of actions) {
    const values: Row = {};
    if (action.status !== null) values.status = action.status;
    if (action.resolutionCode !== undefined) values.resolution_code = action.resolutionCode;
    changed.set(action.ticketId, values);
  }
  return [
    ...checkStateDiff(initial.db, final.db, [
      {
        table: "tickets",
        key: "id",
        changed,
        ignoreColumns: ["updated_at", "resolved_at", "closed_at", "first_response_at"],
      },
      {
        table: "ticket_events",
        key: "id",
        added: actions.map((action) =>
          action.comment
            ? { ticket_id: action.ticketId, event_type: "comment" }
            : { ticket_id: action.ticketId, event_type: "status_change", to_value: action.status },
        ),
      },
    ]),
    recurrenceCommentCheck(initial, final, actions),
  ];
}

export const RECURRENCE_PREFIX = "Recurrence reported by customer";

/** The comment the policy asks for on a closed ticket whose problem is back starts with its fixed words. */
function recurrenceCommentCheck(initial: StateView, final: StateView, actions: MailAction[]): Check {
  const lastId = (
    initial.db.prepare("SELECT MAX(id) AS id FROM ticket_events").get() as { id: number | null }
  ).id;
  const comments = final.db.prepare(
    "SELECT body FROM ticket_events WHERE id > ? AND ticket_id = ? AND event_type = 'comment'",
  );
  const wrong = actions
    .filter((action) => action.comment)
    .filter(
      (action) =>
        !(comments.all(lastId ?? 0, action.ticketId) as Array<{ body: string | null }>).some((row) =>
          (row.body ?? "").trim().toLowerCase().startsWith(RECURRENCE_PREFIX.toLowerCase()),
        ),
    )
    .map((action) => action.ticketId);
  return check(
    "recurrence-comments",
    wrong.length === 0,
    wrong.length === 0
      ? `every recurrence comment starts with "${RECURRENCE_PREFIX}"`
      : `tickets ${wrong.join(", ")}: no comment starting with "${RECURRENCE_PREFIX}"`,
  );
}

interface TriageVariant {
  senderCheck: boolean;
  resolutionCodes: boolean;
  commentOnClosed: boolean;
  /** Whether the recurrence comment starts with the policy's words or is the agent's own paraphrase. */
  commentWording: boolean;
}

function triageCells(variant: TriageVariant): string[] {
  return [
    `${PYTHON_HELPERS}
files = [entry["path"] for entry in tools.list_files(per_page=100)["files"]]
print(read_text("policies/customer-email-triage.md"))
mails = {path: read_text(path) for path in sorted(p for p in files if p.startswith("inbox/"))}
for path, text in mails.items():
    print("=====", path)
    print(text)`,
    `def intent_of(text):
    body = text.lower()
    if "can close this" in body or "this is done" in body:
        return "confirm"
    if "problem is back" in body or "has returned" in body:
        return "recurrence"
    if "our own mistake" in body or "cause on our side" in body:
        return "own_mistake"
    if "gone away on its own" in body or "stopped happening by itself" in body:
        return "went_away"
    return None

done = []
for path, text in mails.items():
    sender = re.search(r"^From: .*<([^>]+)>$", text, re.M).group(1).lower()
    ticket_id = int(re.search(r"\\[Ticket #(\\d+)\\]", text).group(1))
    intent = intent_of(text)
    ticket = tools.get_ticket(ticket_id=ticket_id)["ticket"]
    contacts = {c["email"].lower() for c in tools.get_company(company_id=ticket["company_id"])["company"]["contacts"]}
    if ${variant.senderCheck ? "sender not in contacts" : "False"}:
        print(path, "sender", sender, "is not a contact; skipped")
        continue
    status = ticket["status"]
    note = f"Customer e-mail {path}"
    if intent == "confirm" and status == "resolved":
        tools.update_ticket_status(ticket_id=ticket_id, status="closed", note=note)
    elif intent == "recurrence" and status == "resolved":
        tools.update_ticket_status(ticket_id=ticket_id, status="open", note=note)
    elif intent == "recurrence" and status == "closed":
        if ${variant.commentOnClosed ? "True" : "False"}:
            tools.add_ticket_comment(ticket_id=ticket_id, body=${variant.commentWording ? 'f"Recurrence reported by customer ({path})"' : 'f"Customer reports the problem is back ({path}); ticket is closed, not reopened"'})
    elif intent in ("own_mistake", "went_away") and status in ("new", "open", "pending", "on_hold"):
        code = ${variant.resolutionCodes ? '"user_error" if intent == "own_mistake" else "no_fault_found"' : '"no_fault_found"'}
        tools.update_ticket_status(ticket_id=ticket_id, status="resolved", resolution_code=code, note=note)
    else:
        print(path, "left for the shift lead")
        continue
    done.append(ticket_id)
    print(path, intent, status, "->", "handled")`,
    `print(json.dumps({"handled_ticket_ids": sorted(done)}))`,
  ];
}

const FULL: TriageVariant = {
  senderCheck: true,
  resolutionCodes: true,
  commentOnClosed: true,
  commentWording: true,
};

export const customerEmailTriageTask = defineTask({
  id: "it_support.customer-email-triage",
  domain: itSupportDomain,
  summary:
    "Work the shared inbox of customer e-mails per the triage policy: sender must be a contact of the ticket's company; close, reopen, comment on closed tickets, or resolve with the right code; checked by state difference.",
  instruction:
    "Please work through the customer e-mails in the inbox folder and update the tickets they are about, following our customer e-mail triage policy (policies folder). Do only what the policy says for each message and change nothing else. Reply 'done' when finished.",
  tools: [
    "list_tickets",
    "get_ticket",
    "list_companies",
    "get_company",
    "update_ticket_status",
    "add_ticket_comment",
  ],
  prepare,
  verify,
  oracle: triageCells(FULL),
  nearMisses: variantNearMisses(triageCells, FULL, {
    "skips-sender-check": [
      { senderCheck: false },
      "Acts on messages from people who are not contacts of the ticket's company.",
    ],
    "one-resolution-code": [
      { resolutionCodes: false },
      "Resolves every cancelled request as no_fault_found, even when the customer caused it.",
    ],
    "ignores-recurrence-on-closed": [
      { commentOnClosed: false },
      "Does nothing when a closed ticket's problem comes back instead of leaving the comment.",
    ],
    "own-comment-wording": [
      { commentWording: false },
      'Comments on the closed ticket in its own words instead of starting with "Recurrence reported by customer".',
    ],
  }),
});
