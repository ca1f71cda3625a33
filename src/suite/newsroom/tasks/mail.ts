import type { StateView } from "../../../envs/index.js";
import { ownText } from "../render-thread.js";
import { PHRASES } from "../rules.js";

/** Readers of the desk's mail for verifiers: the same decisions an agent must find, from the initial state. */
export interface StoredMessage {
  message_id: string;
  thread_id: string;
  sent_at: string;
  from_email: string;
  body: string;
  attachment_text: string | null;
}

export interface StoredThread {
  thread_id: string;
  subject: string;
  messages: StoredMessage[];
}

export function threadsIn(state: StateView, mailbox: string): StoredThread[] {
  const threads = state.db
    .prepare("SELECT thread_id, subject FROM mail_threads WHERE mailbox = ? ORDER BY thread_id")
    .all(mailbox) as Array<{ thread_id: string; subject: string }>;
  const messages = state.db.prepare(
    "SELECT message_id, thread_id, sent_at, from_email, body, attachment_text FROM mail_messages WHERE thread_id = ? ORDER BY sent_at, message_id",
  );
  return threads.map((thread) => ({
    ...thread,
    messages: messages.all(thread.thread_id) as StoredMessage[],
  }));
}

export function rolesByEmail(state: StateView): Map<string, string> {
  const rows = state.db.prepare("SELECT email, role FROM staff").all() as Array<{
    email: string;
    role: string;
  }>;
  return new Map(rows.map((row) => [row.email, row.role]));
}

export function storyBySlug(
  state: StateView,
  slug: string,
): { story_id: string; desk: string; status: string } {
  const story = state.db.prepare("SELECT story_id, desk, status FROM stories WHERE slug = ?").get(slug) as
    { story_id: string; desk: string; status: string } | undefined;
  if (!story) throw new Error(`no story with slug ${slug}`);
  return story;
}

export interface CorrectionDecision {
  slug: string;
  storyId: string;
  approved: boolean;
  kind: string;
  wording: string;
  received: string;
}

/** Per correction thread: the standards editors' latest decision in their own text, and the form's date. */
export function correctionDecisions(state: StateView): CorrectionDecision[] {
  const roles = rolesByEmail(state);
  const decisions: CorrectionDecision[] = [];
  for (const thread of threadsIn(state, "corrections")) {
    const form = thread.messages[0]?.attachment_text ?? "";
    const slug = /^Story slug:\s+(\S+)/m.exec(form)?.[1];
    const received = /^Date received:\s+(\S+)/m.exec(form)?.[1];
    if (!slug || !received) throw new Error(`thread ${thread.thread_id} has no readable request form`);
    let decision: CorrectionDecision | undefined;
    for (const message of thread.messages) {
      if (roles.get(message.from_email) !== "standards") continue;
      const text = ownText(message.body);
      const approval = PHRASES.approvePattern.exec(text);
      if (approval)
        decision = {
          slug,
          storyId: storyBySlug(state, slug).story_id,
          approved: true,
          kind: approval[1]!,
          wording: approval[2]!,
          received,
        };
      else if (text.includes(PHRASES.decline))
        decision = {
          slug,
          storyId: storyBySlug(state, slug).story_id,
          approved: false,
          kind: "",
          wording: "",
          received,
        };
    }
    if (decision) decisions.push(decision);
  }
  return decisions;
}

/** Per legal-read thread: the legal desk's latest decision ("hold" or "clear") in its own text. */
export function legalDecisions(state: StateView): Map<string, "hold" | "clear"> {
  const roles = rolesByEmail(state);
  const decisions = new Map<string, "hold" | "clear">();
  for (const thread of threadsIn(state, "legal")) {
    for (const message of thread.messages) {
      if (roles.get(message.from_email) !== "legal") continue;
      const match = PHRASES.legalPattern.exec(ownText(message.body));
      if (match) decisions.set(match[2]!, match[1] === "HOLD" ? "hold" : "clear");
    }
  }
  return decisions;
}
