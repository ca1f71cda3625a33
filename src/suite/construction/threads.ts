import type Database from "better-sqlite3";
import type { SeededRandom } from "../../core/index.js";
import {
  addDays,
  cachedStatement,
  formatUsd,
  roundCents,
  type GenerateContext,
  SIGNATURE_LINE,
  forwardBlock,
  ownText,
  renderMessage,
  type ThreadMessage,
} from "../../envs/index.js";
import { coId, threadId } from "./rules.js";

/** Someone who writes in a change-order thread. */
export interface Person {
  name: string;
  email: string;
  title: string;
  company: string;
}

/** What happens in a change order's e-mail thread; the ledger then records it correctly or not. */
export type CoStory =
  "direct" | "forwarded" | "reduced" | "revised" | "revoked" | "unauthorized" | "rebid" | "rejected" | "open";
export const CO_STORIES: CoStory[] = [
  "direct",
  "forwarded",
  "reduced",
  "revised",
  "revoked",
  "unauthorized",
  "rebid",
  "rejected",
  "open",
];

/** The requested total of each story (the PM may approve up to 10k, the PE up to 50k, the owner's rep any amount). */
export const STORY_RANGE: Record<CoStory, [number, number]> = {
  direct: [1_500, 9_000],
  forwarded: [12_000, 45_000],
  reduced: [12_000, 45_000],
  revised: [55_000, 120_000],
  revoked: [12_000, 45_000],
  unauthorized: [14_000, 45_000],
  rebid: [6_000, 9_000],
  rejected: [2_000, 40_000],
  open: [2_000, 40_000],
};

export interface CoRequest {
  coId: string;
  contractId: string;
  projectLabel: string;
  subLabel: string;
  description: string;
}

/** A change-order request form as the subcontractor attaches it; the total is the parts plus 10% markup. */
export function requestForm(context: GenerateContext, request: CoRequest, target: number, revision = 0) {
  const { random } = context;
  const subtotal = target / 1.1;
  const labor = roundCents(subtotal * (0.45 + random.next() * 0.2));
  const material = roundCents((subtotal - labor) * (0.6 + random.next() * 0.3));
  const equipment = roundCents(subtotal - labor - material);
  const sum = roundCents(labor + material + equipment);
  const markup = roundCents(sum * 0.1);
  const total = roundCents(sum + markup);
  const line = (label: string, value: number) => `  ${label.padEnd(18, ".")} ${formatUsd(value)}`;
  const text = [
    `CHANGE ORDER REQUEST${revision ? ` - REVISION ${revision}` : ""}`,
    `Project: ${request.projectLabel}`,
    `Contract: ${request.contractId}    Subcontractor: ${request.subLabel}`,
    `Change order: ${request.coId}`,
    `Description: ${request.description}`,
    "",
    line("Labor ", labor),
    line("Material ", material),
    line("Equipment ", equipment),
    line("Subtotal ", sum),
    line("Markup (10%) ", markup),
    `TOTAL REQUESTED: ${formatUsd(total)}`,
  ].join("\n");
  // What the request comes to without its equipment line (and that line's markup).
  const withoutEquipment = roundCents(labor + material + roundCents((labor + material) * 0.1));
  return {
    total,
    withoutEquipment,
    text,
    name: `${request.coId}-request${revision ? `-r${revision}` : ""}.txt`,
  };
}

const signature = (person: Person): string =>
  `${SIGNATURE_LINE}\n${person.name}\n${person.title}, ${person.company}\n${person.email}`;

/** Writes one thread's messages into the database as their senders wrote them. */
export class ThreadWriter {
  private messages = 0;
  private threads = 0;
  constructor(private readonly db: Database.Database) {}

  write(projectId: string, subject: string, messages: ThreadMessage[]): string {
    const id = threadId.format(++this.threads);
    cachedStatement(this.db, "INSERT INTO email_threads VALUES (?, ?, ?)").run(id, projectId, subject);
    const insert = cachedStatement(
      this.db,
      "INSERT INTO email_messages VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    for (const message of messages)
      insert.run(
        `MSG-${String(++this.messages).padStart(5, "0")}`,
        id,
        message.sent_at,
        message.from_name,
        message.from_email,
        message.to_email,
        message.style,
        message.body,
        message.attachment_name ?? null,
        message.attachment_text ?? null,
      );
    return id;
  }
}

export interface SendOptions {
  style?: ThreadMessage["style"];
  attachment?: { name: string; text: string };
  /** Text after the signature (a forwarded message). */
  trailer?: string;
}

/** A thread being written: each message is sent 1 to 30 working hours after the previous one. */
export function conversation(random: SeededRandom, start: string) {
  let clock = `${start} ${String(random.int(7, 11)).padStart(2, "0")}:${random.pick(["05", "22", "41", "58"])}`;
  const messages: ThreadMessage[] = [];
  const send = (from: Person, to: Person, text: string, options: SendOptions = {}): void => {
    const [day = "", time = ""] = clock.split(" ");
    const hours = Number(time.slice(0, 2)) - 7 + random.int(1, 30);
    clock = `${addDays(day, Math.floor(hours / 10))} ${String(7 + (hours % 10)).padStart(2, "0")}:${time.slice(3)}`;
    messages.push({
      sent_at: clock,
      from_name: from.name,
      from_email: from.email,
      to_email: to.email,
      style: options.style ?? (random.chance(0.25) ? "inline" : "top"),
      body: `${text}\n${signature(from)}${options.trailer ? `\n\n${options.trailer}` : ""}`,
      attachment_name: options.attachment?.name ?? null,
      attachment_text: options.attachment?.text ?? null,
    });
  };
  return { messages, send };
}

export interface CoCast {
  sub: Person;
  pm: Person;
  pe: Person;
  owner: Person;
  architect: Person;
}

/** The thread of one change order: who writes what, in order. Returns the messages and what the thread decided. */
export function coThread(
  context: GenerateContext,
  story: CoStory,
  request: CoRequest,
  cast: CoCast,
  start: string,
): { messages: ThreadMessage[]; requested: number; firstApproved: number | null; final: Outcome } {
  const { random } = context;
  const [low, high] = STORY_RANGE[story];
  const form = requestForm(context, request, low + random.next() * (high - low));
  const { messages, send } = conversation(random, start);
  const first = cast.pm.name.split(" ")[0];
  send(
    cast.sub,
    cast.pm,
    `${first},\n\nPlease find attached our change order request ${request.coId} for ${request.description[0]!.toLowerCase()}${request.description.slice(1)}. Backup is available on request.\n\nThanks,`,
    { style: "top", attachment: form },
  );
  const approver = story === "revised" ? cast.owner : cast.pe;
  const forward = (): void => {
    const original = messages[0]!;
    const block = forwardBlock(
      {
        from: `${original.from_name} <${original.from_email}>`,
        sentAt: original.sent_at,
        subject: `${request.coId} change order request`,
        to: original.to_email,
      },
      original.body,
    );
    send(
      cast.pm,
      approver,
      `${approver.name.split(" ")[0]},\n\nThis one is above my approval limit. Request below; I have checked the quantities and recommend approval.`,
      { style: "forward", attachment: form, trailer: block },
    );
  };
  let requested = form.total;
  let firstApproved: number | null = null;
  let final: Outcome = { status: "pending", amount: null, decidedBy: null };
  const decide = (who: Person, line: string, outcome: Outcome, note: string): void => {
    send(who, cast.sub, `${line}\n${note}`);
    if (outcome.status === "approved" && firstApproved === null) firstApproved = outcome.amount;
    final = outcome;
  };
  const approved = (who: Person, amount: number): Outcome => ({
    status: "approved",
    amount,
    decidedBy: who.email,
  });
  switch (story) {
    case "direct":
      decide(
        cast.pm,
        "Approved as submitted.",
        approved(cast.pm, requested),
        "Please proceed; we will issue the CO.",
      );
      break;
    case "forwarded":
      forward();
      decide(approver, "Approved.", approved(approver, requested), "Go ahead with the work.");
      send(cast.sub, cast.pm, "Thank you, we will schedule the crew for next week.");
      break;
    case "reduced": {
      forward();
      const amount = form.withoutEquipment;
      decide(
        approver,
        `Approved at ${formatUsd(amount)}.`,
        approved(approver, amount),
        "The equipment line is not supported by the backup; the rest is fine.",
      );
      break;
    }
    case "revised": {
      forward();
      decide(
        approver,
        "Approved as submitted.",
        approved(approver, requested),
        "Thanks for the quick turnaround.",
      );
      send(
        cast.architect,
        cast.pm,
        "We have reviewed the backup and find the material quantities high by about 15%.",
      );
      const amount = roundCents(requested * 0.85);
      decide(
        approver,
        `Revised approval: ${formatUsd(amount)}.`,
        approved(approver, amount),
        "This replaces my approval below, following the architect's review of the quantities.",
      );
      break;
    }
    case "revoked":
      forward();
      decide(approver, "Approved.", approved(approver, requested), "Proceed.");
      decide(
        cast.owner,
        "Rejected. Please disregard the approval below.",
        { status: "rejected", amount: null, decidedBy: cast.owner.email },
        "This work is already in the base contract scope (see the specifications); no change order will be issued.",
      );
      break;
    case "unauthorized":
      send(
        cast.architect,
        cast.pm,
        "We recommend approval of this change order; the scope is consistent with our sketch.",
      );
      send(
        cast.pm,
        cast.sub,
        `Approved.\nI will get this countersigned by ${cast.pe.name} before we issue the CO.`,
      );
      break;
    case "rebid": {
      send(
        cast.pm,
        cast.sub,
        "The labor hours look high against the sketch. Please resubmit with a breakdown by crew.",
      );
      const revised = requestForm(context, request, requested * random.pick([0.7, 0.75, 0.8]), 1);
      send(cast.sub, cast.pm, "Revised request attached, labor reduced as discussed.", {
        attachment: revised,
      });
      requested = revised.total;
      decide(cast.pm, "Approved as submitted.", approved(cast.pm, requested), "Thank you for the revision.");
      send(cast.sub, cast.pm, "Thanks, noted. Work starts Monday.");
      break;
    }
    case "rejected":
      decide(
        requested <= 10_000 ? cast.pm : cast.pe,
        "Rejected.",
        { status: "rejected", amount: null, decidedBy: (requested <= 10_000 ? cast.pm : cast.pe).email },
        "This is covered by your base scope and the bid documents.",
      );
      break;
    case "open":
      send(
        cast.pm,
        cast.sub,
        "Received, thanks. We are reviewing it with the design team and will come back to you.",
      );
      break;
  }
  return { messages, requested: form.total, firstApproved, final };
}

export interface Outcome {
  status: "pending" | "approved" | "rejected";
  amount: number | null;
  decidedBy: string | null;
}

const DECISION = /^(approved|rejected|revised approval)\b.*$/gim;
const MONEY = /\$([\d,]+\.\d\d)/;
const TOTAL = /^TOTAL REQUESTED:\s*\$([\d,]+\.\d\d)/m;
const money = (text: string): number => Number(text.replace(/,/g, ""));

/**
 * The latest decision in a thread made by someone whose authority covers it: decisions are lines that start
 * with Approved / Rejected / Revised approval in a sender's own text; "as submitted" means the latest
 * requested total attached so far. `authority` maps an e-mail to its limit (null: no limit).
 */
export function threadOutcome(
  messages: ReadonlyArray<Pick<ThreadMessage, "from_email" | "body" | "attachment_text">>,
  authority: ReadonlyMap<string, number | null>,
): Outcome {
  let requested: number | null = null;
  let outcome: Outcome = { status: "pending", amount: null, decidedBy: null };
  for (const message of messages) {
    const total = message.attachment_text ? TOTAL.exec(message.attachment_text) : null;
    if (total) requested = money(total[1]!);
    for (const [line, kind] of ownText(message.body).matchAll(DECISION)) {
      const rejected = kind!.toLowerCase() === "rejected";
      const stated = MONEY.exec(line);
      const amount = rejected ? null : stated ? money(stated[1]!) : requested;
      const limit = authority.get(message.from_email);
      if (limit === undefined || (limit !== null && amount !== null && amount > limit)) continue;
      outcome = { status: rejected ? "rejected" : "approved", amount, decidedBy: message.from_email };
    }
  }
  return outcome;
}

/** The whole thread as get_email_thread returns it: every message as the client shows it, oldest first. */
export function renderThread(messages: readonly ThreadMessage[], subject: string): string {
  return messages
    .map((_, index) => renderMessage(messages.slice(0, index + 1), subject))
    .join(`${"=".repeat(72)}\n`);
}

export const coSubject = (co: string, description: string, contract: string): string =>
  `${co}: ${description} (${contract})`;
export { coId };
