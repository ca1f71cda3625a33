import { allRows, getRow, type StateView, ownText } from "../../../envs/index.js";
import { PHRASES } from "../rules.js";

/** Readers of the desk's mail for verifiers: the decisions an agent must find, from the initial state. */
interface StoredMessage {
  thread_id: string;
  /** The sender's staff role; null for freelancers and readers. */
  role: string | null;
  body: string;
  attachment_text: string | null;
}

/** A mailbox's threads, each with its messages oldest first. */
export function threadsIn(state: StateView, mailbox: string): StoredMessage[][] {
  const sql = `SELECT m.thread_id, s.role, m.body, m.attachment_text FROM mail_messages m JOIN mail_threads t USING (thread_id)
      LEFT JOIN staff s ON s.email = m.from_email WHERE t.mailbox = ? ORDER BY m.thread_id, m.sent_at, m.message_id`;
  const threads = new Map<string, StoredMessage[]>();
  for (const message of allRows<StoredMessage>(state.db, sql, mailbox))
    threads.set(message.thread_id, [...(threads.get(message.thread_id) ?? []), message]);
  return [...threads.values()];
}

/** What staff of `role` wrote themselves in a thread, message by message, oldest first. */
function ownTextsBy(thread: StoredMessage[], role: string): string[] {
  return thread.filter((message) => message.role === role).map((message) => ownText(message.body));
}

export function storyBySlug(state: StateView, slug: string): { story_id: string; status: string } {
  const story = getRow<{ story_id: string; status: string }>(
    state.db,
    "SELECT * FROM stories WHERE slug = ?",
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
    for (const text of ownTextsBy(thread, "standards")) {
      const approval = PHRASES.approvePattern.exec(text);
      if (!approval && !text.includes(PHRASES.decline)) continue;
      const [kind = "", wording = ""] = approval?.slice(1) ?? [];
      const storyId = storyBySlug(state, slug).story_id;
      decision = { slug, storyId, approved: approval !== null, kind, wording, received };
    }
    if (decision) decisions.push(decision);
  }
  return decisions;
}

/** Per legal-read thread (by story slug): the legal desk's latest decision in its own text. */
export function legalDecisions(state: StateView): Map<string, "hold" | "clear"> {
  const decisions = new Map<string, "hold" | "clear">();
  for (const thread of threadsIn(state, "legal"))
    for (const text of ownTextsBy(thread, "legal")) {
      const match = PHRASES.legalPattern.exec(text);
      if (match) decisions.set(match[2]!, match[1] === "HOLD" ? "hold" : "clear");
    }
  return decisions;
}
