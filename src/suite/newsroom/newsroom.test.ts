import type Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  openStateView,
  type Instance,
  attributionLine,
  clientDate,
  ownText,
  renderMessage,
  type ThreadMessage,
  openToolBench,
  type ToolBench,
} from "../../envs/index.js";
import { type ToolCallResult, resultText } from "../../runtime/index.js";
import { shiftMonths } from "./documents.js";
import { commissionFee } from "./fees.js";
import { newsroomTasks } from "./index.js";
import { RATE_CARD } from "./rules.js";
import { correctionDecisions, legalDecisions } from "./tasks/mail.js";
import { newsroomTools } from "./tools.js";
const task = newsroomTasks.find((candidate) => candidate.id === "newsroom.unlogged-corrections")!;
let bench: ToolBench;
let instance: Instance;
let db: Database.Database;

beforeAll(() => {
  bench = openToolBench(task, newsroomTools);
  ({ instance, db } = bench);
});

afterAll(() => bench.close());

const call = (name: string, args: Record<string, unknown>): Promise<ToolCallResult> => bench.call(name, args);
const text = (result: ToolCallResult): string => resultText(result);
const bodyOf = (rendered: string): string => rendered.split("\n\n").slice(1).join("\n\n");
const sender = {
  sent_at: "2025-03-04 09:12",
  from_name: "Dana Ruiz",
  from_email: "dana@dailyledger.example",
};
const message = (overrides: Partial<ThreadMessage>): ThreadMessage => ({
  ...sender,
  to_email: "desk@dailyledger.example",
  style: "top",
  body: "First.\n--\nDana",
  ...overrides,
});

describe("mail rendering", () => {
  it("writes dates and attribution lines as mail clients do", () => {
    expect(clientDate("2025-03-04 09:12")).toBe("Tue, 4 Mar 2025 09:12");
    expect(attributionLine(sender)).toBe(
      "On Tue, 4 Mar 2025 at 09:12, Dana Ruiz <dana@dailyledger.example> wrote:",
    );
  });

  it("quotes earlier messages one level deeper per reply and keeps only the newest text as the sender's own", () => {
    const second = message({ sent_at: "2025-03-04 10:00", body: "Second.\n\nMore.\n--\nSam" });
    const third = message({ body: "Third.\n--\nDana", attachment_name: "form.txt", attachment_text: "x" });
    const rendered = renderMessage([message({}), second, third], "Correction request");
    expect(rendered).toContain("Subject: Re: Correction request");
    expect(rendered).toContain("> Second.");
    expect(rendered).toContain(">> First.");
    expect(rendered).toContain("[Attachment: form.txt]\n");
    expect(ownText(bodyOf(rendered))).toBe("Third.");
  });

  it("answers inline between quoted lines, and the own text still excludes the quotes", () => {
    const thread = [
      message({ body: "Question one?\n\nQuestion two?" }),
      message({ style: "inline", body: "Answer.\n--\nSam" }),
    ];
    const rendered = renderMessage(thread, "Questions");
    expect(rendered.indexOf("> Question one?")).toBeLessThan(rendered.indexOf("Answer."));
    expect(rendered.indexOf("Answer.")).toBeLessThan(rendered.indexOf("> Question two?"));
    expect(ownText(bodyOf(rendered))).toBe("Answer.");
  });
});

describe("newsroom tools", () => {
  const read = async <Result>(name: string, args: Record<string, unknown>): Promise<Result> =>
    (await call(name, args)).structuredContent as Result;
  const first = (sql: string): object => db.prepare(sql).get() as object;

  it("paginates threads by mailbox with message counts", async () => {
    type Page = { threads: Array<{ message_count: number; mailbox: string }>; has_more: boolean };
    const page = await read<Page>("list_threads", { mailbox: "corrections", per_page: 3 });
    expect(page.has_more).toBe(true);
    for (const thread of page.threads) expect(thread).toMatchObject({ mailbox: "corrections" });
    expect(Math.min(...page.threads.map((thread) => thread.message_count))).toBeGreaterThanOrEqual(4);
  });

  it("shows a reply with the earlier thread quoted and the form attached only to its own message", async () => {
    type Thread = { messages: Array<{ message_id: string; attachment: string | null }> };
    const { messages } = await read<Thread>("get_thread", { thread_id: "TH-00001" });
    expect(messages[0]!.attachment).toMatch(/^corrections-request-/);
    const last = { message_id: messages.at(-1)!.message_id };
    const body =
      (await read<{ text?: string }>("get_message", last)).text ??
      (await read<{ text: string }>("get_message", last)).text;
    expect(body).toMatch(/^On .* wrote:$/m);
    expect(body).toContain("---------- Forwarded message ---------");
    expect(body).not.toContain("[Attachment:");
  });

  it("drops some messages once with an error body that is not an MCP error, and fails a log page once with a 503", async () => {
    const failing = await call("get_message", { message_id: "MSG-000010" });
    expect(failing.isError).toBeFalsy();
    expect(failing.structuredContent).toMatchObject({ status: "error" });
    expect(await read("get_message", { message_id: "MSG-000010" })).toHaveProperty("text");
    const page = await call("list_publish_events", { page: 2 });
    expect(page.isError).toBe(true);
    expect(text(page)).toContain("503");
    expect((await call("list_publish_events", { page: 2 })).isError).toBeFalsy();
  });

  it("teaches id formats and refuses writes the desk would refuse", async () => {
    expect(text(await call("get_story", { story_id: "42" }))).toContain("STY-00123");
    expect(text(await call("get_message", { message_id: "MSG-999999" }))).toContain("use list_threads");
    const published = first("SELECT story_id FROM stories WHERE status = 'published'");
    const spiked = await call("update_story_status", { ...published, status: "spiked" });
    expect(text(spiked)).toContain("is published");
    const open = first("SELECT commission_id FROM commissions WHERE status = 'commissioned'");
    expect(text(await call("approve_payment", { ...open, amount: 100 }))).toContain("not been filed");
  });
});

describe("newsroom rules and verifiers", () => {
  it("prices fees per the rate card: lesser length, minimum fee, kill fees by filing", () => {
    const rates = { ...RATE_CARD, perWord: 0.3, perImage: 120 };
    const terms = { commissioned_units: 1000, filed_units: 1200, filed_on: "2025-05-01" };
    const article = { kind: "article", status: "filed", ...terms };
    expect(commissionFee(article, rates)).toBe(300);
    expect(commissionFee({ ...article, filed_units: 400 }, rates)).toBe(150);
    expect(commissionFee({ ...article, status: "killed" }, rates)).toBe(150);
    expect(commissionFee({ ...article, status: "killed", filed_on: null }, rates)).toBe(75);
    expect(shiftMonths("2024-08-31", 6)).toBe("2025-02-28");
  });

  it("takes the latest decision in the deciders' own text, not quoted, reversed or forwarded text", () => {
    const opened = openStateView(instance.dbPath, instance.workspaceDir);
    try {
      // The slugs of the threads with a message that starts so.
      const subjects = (start: string): string[] =>
        opened.view.db
          .prepare(
            "SELECT DISTINCT subject FROM mail_threads JOIN mail_messages USING (thread_id) WHERE body LIKE ?",
          )
          .all(`${start}%`)
          .map((row) => (row as { subject: string }).subject.split(": ")[1]!);
      const reversed = subjects("Scrap that");
      const decisions = correctionDecisions(opened.view);
      expect(reversed.length).toBeGreaterThan(0);
      for (const slug of reversed)
        expect(decisions.find((decision) => decision.slug === slug)?.approved).toBe(false);
      expect(decisions.some((decision) => decision.approved)).toBe(true);
      // Outside counsel advises the opposite of the legal desk's hold; the hold stands.
      const counselled = subjects("Forwarding outside counsel");
      expect(counselled.length).toBeGreaterThan(0);
      for (const slug of counselled) expect(legalDecisions(opened.view).get(slug)).toBe("hold");
    } finally {
      opened.close();
    }
  });
});
