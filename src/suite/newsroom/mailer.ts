import type Database from "better-sqlite3";
import { forwardBlock, SIGNATURE_LINE, type ThreadMessage } from "./render-thread.js";
import { NEWSROOM, messageId, threadId } from "./rules.js";

export interface Person {
  name: string;
  email: string;
  role: string;
}

const TITLES: Record<string, string> = {
  reporter: "Reporter",
  desk_editor: "Desk Editor",
  standards: "Standards Editor",
  legal: "Legal Counsel",
  photo_editor: "Picture Editor",
};

const FOOTER =
  "This e-mail and any attachments are confidential and may be legally privileged. If you have received it in error, please tell the sender and delete it; do not copy, forward or publish it.";

/** Writes mail threads into the database: each message's own text plus its sender's signature. */
export class Mailer {
  private threads = 0;
  private messages = 0;
  private readonly subjects = new Map<string, string>();
  private readonly counts = new Map<string, number>();

  constructor(private readonly db: Database.Database) {}

  thread(mailbox: string, subject: string): string {
    const id = threadId.format(++this.threads);
    this.db.prepare("INSERT INTO mail_threads VALUES (?, ?, ?)").run(id, mailbox, subject);
    this.subjects.set(id, subject);
    return id;
  }

  send(
    thread: string,
    from: Person,
    to: string,
    sentAt: string,
    style: ThreadMessage["style"],
    text: string,
    attachment?: { name: string; text: string },
  ): string {
    const id = messageId.format(++this.messages);
    const count = this.counts.get(thread) ?? 0;
    this.counts.set(thread, count + 1);
    const signature = TITLES[from.role]
      ? `\n${SIGNATURE_LINE}\n${from.name}\n${TITLES[from.role]} | ${NEWSROOM.name}\n\n${FOOTER}`
      : from.role === "freelancer"
        ? `\n${SIGNATURE_LINE}\n${from.name}\nFreelance contributor\nSent from my phone`
        : "";
    this.db
      .prepare("INSERT INTO mail_messages VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
      .run(
        id,
        thread,
        sentAt,
        from.name,
        from.email,
        to,
        style,
        `${text}${signature}`,
        attachment?.name ?? null,
        attachment?.text ?? null,
      );
    return id;
  }

  forward(headers: { from: string; sentAt: string; subject: string; to: string }, text: string): string {
    return forwardBlock(headers, text);
  }
}
