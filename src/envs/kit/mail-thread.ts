import { MONTH_NAMES, weekdayName } from "./dates.js";

/**
 * Renders e-mail the way mail clients show it: a header block, the new text, the sender's signature, then the
 * earlier message quoted under an "On <date>, <name> <address> wrote:" line (top-posted) or interleaved with it
 * (inline replies), and text attachments at the bottom. Newsroom's desk mail and construction's project threads
 * render through it; `ownText` is the reader's side (a message's own text, quotes and signature cut).
 */
export interface ThreadMessage {
  message_id?: string;
  /** "YYYY-MM-DD HH:MM" in UTC. */
  sent_at: string;
  from_name: string;
  from_email: string;
  to_email: string;
  /** "top": reply above the quote; "inline": answers between quoted lines; "forward": quotes nothing. */
  style: "top" | "inline" | "forward";
  /** The message's own text; a signature, if any, follows a line "--". */
  body: string;
  attachment_name?: string | null;
  attachment_text?: string | null;
}

/** The SQL of a table of thread messages (`ThreadMessage`'s columns), each message in a thread of `threads`. */
export function threadMessagesTable(table: string, threads: string): string {
  return `CREATE TABLE ${table} (
  message_id TEXT PRIMARY KEY,
  thread_id TEXT NOT NULL REFERENCES ${threads} (thread_id),
  sent_at TEXT NOT NULL,
  from_name TEXT NOT NULL,
  from_email TEXT NOT NULL,
  to_email TEXT NOT NULL,
  style TEXT NOT NULL CHECK (style IN ('top', 'inline', 'forward')),
  body TEXT NOT NULL,
  attachment_name TEXT,
  attachment_text TEXT
);`;
}

export const SIGNATURE_LINE = "--";
export const FORWARD_MARKER = "---------- Forwarded message ---------";

/** "Tue, 4 Mar 2025 09:12", as a client's Date header shows it. */
export function clientDate(sentAt: string): string {
  const [date = "", time = ""] = sentAt.split(" ");
  const month = (MONTH_NAMES[Number(date.slice(5, 7)) - 1] ?? "").slice(0, 3);
  return `${weekdayName(date).slice(0, 3)}, ${Number(date.slice(8, 10))} ${month} ${date.slice(0, 4)} ${time}`;
}

/** The line a client writes above a quoted message. */
export function attributionLine(
  message: Pick<ThreadMessage, "sent_at" | "from_name" | "from_email">,
): string {
  const shown = clientDate(message.sent_at).replace(/ (\d\d:\d\d)$/, " at $1");
  return `On ${shown}, ${message.from_name} <${message.from_email}> wrote:`;
}

function quoteLines(text: string): string {
  const quote = (line: string): string =>
    line.startsWith(">") ? `>${line}` : line === "" ? ">" : `> ${line}`;
  return text.split("\n").map(quote).join("\n");
}

/** A forwarded message block, as clients insert it into the forwarding message's own text. */
export function forwardBlock(
  headers: { from: string; sentAt: string; subject: string; to: string },
  text: string,
): string {
  const date = clientDate(headers.sentAt).replace(/ (\d\d:\d\d)$/, " at $1");
  const lines = [
    `From: ${headers.from}`,
    `Date: ${date}`,
    `Subject: ${headers.subject}`,
    `To: ${headers.to}`,
  ];
  return [FORWARD_MARKER, ...lines, "", text].join("\n");
}

/** The body of message `index` as its recipients see it, with the earlier thread quoted. */
function renderBody(thread: readonly ThreadMessage[], index: number): string {
  const message = thread[index]!;
  if (index === 0 || message.style === "forward") return message.body;
  const previous = thread[index - 1]!;
  const quoted = quoteLines(renderBody(thread, index - 1));
  if (message.style === "top") return `${message.body}\n\n${attributionLine(previous)}\n${quoted}`;
  const cut = message.body.indexOf(`\n${SIGNATURE_LINE}\n`);
  const own = cut < 0 ? message.body : message.body.slice(0, cut);
  const signature = cut < 0 ? "" : message.body.slice(cut);
  const split = quoted.indexOf("\n>\n");
  const head = split < 0 ? quoted : quoted.slice(0, split);
  const rest = split < 0 ? "" : quoted.slice(split + 3);
  return `${attributionLine(previous)}\n${head}\n\n${own}\n${rest ? `\n${rest}\n` : ""}${signature}`;
}

/** The last message of a thread as a client's "show original" view: headers, body, attachment. */
export function renderMessage(thread: readonly ThreadMessage[], subject: string): string {
  const message = thread.at(-1);
  if (!message) throw new Error("cannot render a message of an empty thread");
  const headers = [
    `From: ${message.from_name} <${message.from_email}>`,
    `To: ${message.to_email}`,
    `Date: ${clientDate(message.sent_at)}`,
    `Subject: ${thread.length > 1 ? "Re: " : ""}${subject}`,
  ];
  const rule = "-".repeat(60);
  const attachment = message.attachment_name
    ? `\n\n[Attachment: ${message.attachment_name}]\n${rule}\n${message.attachment_text ?? ""}\n${rule}`
    : "";
  return `${headers.join("\n")}\n\n${renderBody(thread, thread.length - 1)}${attachment}\n`;
}

/**
 * The text a sender wrote themselves: without quoted lines, attribution lines, forwarded blocks and the
 * signature. Readers (verifiers, oracles) use it to tell the latest decision from quoted older text.
 */
export function ownText(body: string): string {
  const lines: string[] = [];
  for (const line of body.split("\n")) {
    if (line === SIGNATURE_LINE || line === FORWARD_MARKER) break;
    if (!(line.startsWith(">") || /^On .* wrote:$/.test(line))) lines.push(line);
  }
  return lines.join("\n").trim();
}
