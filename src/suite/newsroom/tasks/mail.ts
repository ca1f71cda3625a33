import { allRows, getRow, type StateView } from "../../../envs/index.js";
import { ownText } from "../render-thread.js";
import { PHRASES } from "../rules.js";

/** Readers of the desk's mail for verifiers: the decisions an agent must find, from the initial state. */
export interface StoredMessage {
  thread_id: string;
  from_email: string;
  body: string;
  attachment_text: string | null;
}

/** A mailbox's threads, each with its messages oldest first. */
export function threadsIn(state: StateView, mailbox: string): StoredMessage[][] {
  const messages = allRows<StoredMessage>(
    state.db,
    `SELECT m.thread_id, m.from_email, m.body, m.attachment_text FROM mail_messages m
       JOIN mail_threads t ON t.thread_id = m.thread_id WHERE t.mailbox = ? ORDER BY m.thread_id, m.sent_at, m.message_id`,
    mailbox,
  );
  const threads = new Map<string, StoredMessage[]>();
  for (const message of messages)
    threads.set(message.thread_id, [...(threads.get(message.thread_id) ?? []), message]);
  return [...threads.values()];
}

/** The own text of every message a staff member of `role` sent in the thread, oldest first. */
function ownTextsBy(state: StateView, thread: StoredMessage[], role: string): string[] {
  const roles = new Map(
    allRows<{ email: string; role: string }>(state.db, "SELECT email, role FROM staff").map((row) => [
      row.email,
      row.role,
    ]),
  );
  return thread
    .filter((message) => roles.get(message.from_email) === role)
    .map((message) => ownText(message.body));
}

export function storyBySlug(
  state: StateView,
  slug: string,
): { story_id: string; desk: string; status: string } {
  const story = getRow<{ story_id: string; desk: string; status: string }>(
    state.db,
    "SELECT story_id, desk, status FROM stories WHERE slug = ?",
    slug,
  );
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
  const decisions: CorrectionDecision[] = [];
  for (const thread of threadsIn(state, "corrections")) {
    const form = thread[0]?.attachment_text ?? "";
    const slug = /^Story slug:\s+(\S+)/m.exec(form)?.[1];
    const received = /^Date received:\s+(\S+)/m.exec(form)?.[1];
    if (!slug || !received) throw new Error(`thread ${thread[0]?.thread_id} has no readable request form`);
    let decision: CorrectionDecision | undefined;
    for (const text of ownTextsBy(state, thread, "standards")) {
      const approval = PHRASES.approvePattern.exec(text);
      if (!approval && !text.includes(PHRASES.decline)) continue;
      const [kind = "", wording = ""] = approval?.slice(1) ?? [];
      decision = {
        slug,
        storyId: storyBySlug(state, slug).story_id,
        approved: !!approval,
        kind,
        wording,
        received,
      };
    }
    if (decision) decisions.push(decision);
  }
  return decisions;
}

/** Per legal-read thread (by story slug): the legal desk's latest decision in its own text. */
export function legalDecisions(state: StateView): Map<string, "hold" | "clear"> {
  const decisions = new Map<string, "hold" | "clear">();
  for (const thread of threadsIn(state, "legal")) {
    for (const text of ownTextsBy(state, thread, "legal")) {
      const match = PHRASES.legalPattern.exec(text);
      if (match) decisions.set(match[2]!, match[1] === "HOLD" ? "hold" : "clear");
    }
  }
  return decisions;
}
