import Database from "better-sqlite3";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTempDir, type TempDir } from "../../core/index.js";
import { buildInstance, openStateView, type Instance } from "../../envs/index.js";
import { bindTool, type ToolCallResult } from "../../runtime/index.js";
import { commissionFee } from "./fees.js";
import { shiftMonths } from "./documents.js";
import { newsroomTasks } from "./index.js";
import { attributionLine, clientDate, ownText, renderMessage, type ThreadMessage } from "./render-thread.js";
import { RATE_CARD } from "./rules.js";
import { correctionDecisions } from "./tasks/mail.js";
import { newsroomTools } from "./tools.js";

const task = newsroomTasks.find((candidate) => candidate.id === "newsroom.unlogged-corrections")!;
let cache: TempDir;
let instance: Instance;
let db: Database.Database;

beforeAll(() => {
  cache = createTempDir("newsroom-test");
  instance = buildInstance(task, "v0", 3, cache.path);
  const episodeDb = join(cache.path, "episode.sqlite");
  copyFileSync(instance.dbPath, episodeDb);
  db = new Database(episodeDb);
});

afterAll(() => {
  db.close();
  cache.dispose();
});

async function call(name: string, args: Record<string, unknown>): Promise<ToolCallResult> {
  const tool = newsroomTools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return bindTool(tool, { db, workspaceDir: instance.workspaceDir }).call(args, {
    signal: AbortSignal.timeout(5_000),
    timeoutMs: 5_000,
  });
}

function text(result: ToolCallResult): string {
  return result.content.map((part) => ("text" in part ? part.text : "")).join("");
}

const message = (overrides: Partial<ThreadMessage>): ThreadMessage => ({
  sentAt: "2025-03-04 09:12",
  fromName: "Dana Ruiz",
  fromEmail: "dana@dailyledger.example",
  toEmail: "desk@dailyledger.example",
  subject: "Correction request",
  style: "top",
  body: "First.\n--\nDana Ruiz",
  ...overrides,
});

describe("mail rendering", () => {
  it("writes dates and attribution lines as mail clients do", () => {
    expect(clientDate("2025-03-04 09:12")).toBe("Tue, 4 Mar 2025 09:12");
    expect(attributionLine(message({}))).toBe(
      "On Tue, 4 Mar 2025 at 09:12, Dana Ruiz <dana@dailyledger.example> wrote:",
    );
  });

  it("quotes earlier messages one level deeper per reply and keeps only the newest text as the sender's own", () => {
    const thread = [
      message({}),
      message({ sentAt: "2025-03-04 10:00", fromName: "Sam Lee", body: "Second.\n\nMore.\n--\nSam" }),
      message({
        sentAt: "2025-03-04 11:00",
        body: "Third.\n--\nDana Ruiz",
        attachment: { name: "form.txt", text: "Story slug: x" },
      }),
    ];
    const rendered = renderMessage(thread, 2);
    expect(rendered).toContain("Subject: Correction request");
    expect(rendered).toContain("> Second.");
    expect(rendered).toContain(">> First.");
    expect(rendered).toContain("[Attachment: form.txt]\n");
    expect(ownText(rendered.split("\n\n").slice(1).join("\n\n"))).toBe("Third.");
  });

  it("answers inline between quoted lines, and the own text still excludes the quotes", () => {
    const thread = [
      message({ body: "Question one?\n\nQuestion two?" }),
      message({ style: "inline", body: "Answer.\n--\nSam" }),
    ];
    const rendered = renderMessage(thread, 1);
    expect(rendered.indexOf("> Question one?")).toBeLessThan(rendered.indexOf("Answer."));
    expect(rendered.indexOf("Answer.")).toBeLessThan(rendered.indexOf("> Question two?"));
    expect(ownText(rendered.split("\n\n").slice(1).join("\n\n"))).toBe("Answer.");
  });
});

describe("newsroom tools", () => {
  it("paginates threads by mailbox with message counts", async () => {
    const page = await call("list_threads", { mailbox: "corrections", per_page: 3 });
    expect(page.structuredContent).toMatchObject({ page: 1, per_page: 3, has_more: true });
    const threads = (page.structuredContent as { threads: Array<{ message_count: number; mailbox: string }> })
      .threads;
    expect(threads.every((thread) => thread.mailbox === "corrections" && thread.message_count >= 4)).toBe(
      true,
    );
  });

  it("shows a reply with the earlier thread quoted and the form attached only to its own message", async () => {
    const thread = (await call("get_thread", { thread_id: "TH-00001" })).structuredContent as {
      messages: Array<{ message_id: string; attachment: string | null }>;
    };
    expect(thread.messages[0]!.attachment).toMatch(/^corrections-request-/);
    const last = thread.messages.at(-1)!.message_id;
    const shown = (await call("get_message", { message_id: last })).structuredContent as {
      text?: string;
      status?: string;
    };
    const body =
      shown.text ??
      ((await call("get_message", { message_id: last })).structuredContent as { text: string }).text;
    expect(body).toMatch(/^On .* wrote:$/m);
    expect(body).toContain("---------- Forwarded message ---------");
    expect(body).not.toContain("[Attachment:");
  });

  it("drops some messages once with an error body that is not an MCP error", async () => {
    const failing = await call("get_message", { message_id: "MSG-000010" });
    expect(failing.isError).toBeFalsy();
    expect(failing.structuredContent).toMatchObject({ status: "error" });
    const retried = await call("get_message", { message_id: "MSG-000010" });
    expect(retried.structuredContent).toHaveProperty("text");
  });

  it("fails the publishing log's second page once with a 503, then succeeds", async () => {
    const failing = await call("list_publish_events", { page: 2 });
    expect(failing.isError).toBe(true);
    expect(text(failing)).toContain("503");
    expect((await call("list_publish_events", { page: 2 })).isError).toBeFalsy();
  });

  it("teaches id formats and refuses writes the desk would refuse", async () => {
    expect(text(await call("get_story", { story_id: "42" }))).toContain("STY-00123");
    expect(text(await call("get_message", { message_id: "MSG-999999" }))).toContain("use list_threads");
    const published = db.prepare("SELECT story_id FROM stories WHERE status = 'published' LIMIT 1").get() as {
      story_id: string;
    };
    expect(
      text(await call("update_story_status", { story_id: published.story_id, status: "spiked" })),
    ).toContain("published");
    const open = db
      .prepare("SELECT commission_id FROM commissions WHERE status = 'commissioned' LIMIT 1")
      .get() as { commission_id: string };
    expect(text(await call("approve_payment", { commission_id: open.commission_id, amount: 100 }))).toContain(
      "not been filed",
    );
  });
});

describe("newsroom rules and verifiers", () => {
  it("prices fees per the rate card: lesser length, minimum fee, kill fees by filing", () => {
    const rates = { ...RATE_CARD, perWord: 0.3, perImage: 120 };
    const article = {
      kind: "article",
      status: "filed",
      commissioned_units: 1000,
      filed_units: 1200,
      filed_on: "2025-05-01",
    };
    expect(commissionFee(article, rates)).toBe(300);
    expect(commissionFee({ ...article, filed_units: 400 }, rates)).toBe(150);
    expect(commissionFee({ ...article, status: "killed" }, rates)).toBe(150);
    expect(commissionFee({ ...article, status: "killed", filed_on: null }, rates)).toBe(75);
    expect(shiftMonths("2024-08-31", 6)).toBe("2025-02-28");
  });

  it("takes the standards editors' latest own decision, not an approval quoted in a later message", () => {
    const opened = openStateView(instance.dbPath, instance.workspaceDir);
    try {
      const decisions = correctionDecisions(opened.view);
      const reversed = (
        opened.view.db
          .prepare(
            "SELECT DISTINCT t.subject FROM mail_threads t JOIN mail_messages m ON m.thread_id = t.thread_id WHERE m.body LIKE 'Scrap that%'",
          )
          .all() as Array<{ subject: string }>
      ).map((row) => row.subject.replace("Correction request: ", ""));
      expect(reversed.length).toBeGreaterThan(0);
      for (const slug of reversed)
        expect(decisions.find((decision) => decision.slug === slug)?.approved).toBe(false);
      expect(decisions.some((decision) => decision.approved)).toBe(true);
    } finally {
      opened.close();
    }
  });
});
