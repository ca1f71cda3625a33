/**
 * A tokenizer thread of the rollout service (started by `startTokenizerWorkers`): one chat renderer, one job at
 * a time, each answered with its id. Imports only what it runs: every module costs start time in each thread.
 */
import { parentPort, workerData } from "node:worker_threads";
import { ProgAgentError } from "../core/errors.js";
import { createChatRenderer, type ChatRenderer } from "../chat-template/chat-renderer.js";
import type { TokenizerFailure, TokenizerJob, TokenizerReply } from "./rollout-tokenizer.js";

const port = parentPort;
if (!port)
  throw new Error("rollout-tokenizer-thread runs in a worker thread started by startTokenizerWorkers");
const reply = (message: TokenizerReply): void => port.postMessage(message);
const { tokenizer } = workerData as { tokenizer?: string };

function failure(error: unknown): TokenizerFailure {
  if (error instanceof ProgAgentError)
    return { message: error.message, code: error.code, category: error.category };
  return { message: error instanceof Error ? error.message : String(error) };
}

const thinking = (enableThinking: boolean | undefined) =>
  enableThinking === undefined ? {} : { enableThinking };

function run(chat: ChatRenderer, job: TokenizerJob): unknown {
  switch (job.op) {
    case "encode":
      return chat.encode(job.text);
    case "decode":
      return chat.decode(job.tokenIds);
    case "prompt":
      return chat.renderPrompt({ messages: job.messages, tools: job.tools, ...thinking(job.enableThinking) })
        .tokenIds;
    case "observation": {
      const generated = job.generated;
      const last =
        "textTail" in generated
          ? generated.textTail.endsWith(chat.markers.endOfTurn)
            ? chat.markers.endOfTurnTokenId
            : undefined
          : generated.lastTokenId;
      return chat.renderObservation({
        previousTokenIds: last === undefined ? [] : [last],
        messages: job.messages,
        tools: job.tools,
        ...thinking(job.enableThinking),
      }).tokenIds;
    }
  }
}

let renderer: ChatRenderer | undefined;
try {
  renderer = createChatRenderer(tokenizer === undefined ? {} : { tokenizer });
  reply({ type: "ready" });
} catch (error) {
  reply({ type: "failed", error: failure(error) });
}

port.on("message", ({ id, job }: { id: number; job: TokenizerJob }) => {
  if (!renderer) return;
  try {
    reply({ type: "done", id, value: run(renderer, job) });
  } catch (error) {
    reply({ type: "failed", id, error: failure(error) });
  }
});
