/**
 * The counting worker's thread (started by `createCountingWorker`): it keeps a copy of each open conversation,
 * appends what each turn sends and answers with `countTurn`, the function the in-thread counter runs.
 */
import { parentPort, workerData } from "node:worker_threads";
import { toCountingFailure, type CountingReply, type CountingRequest } from "./counting-worker.js";
import type { FunctionTool } from "./model-client.js";
import { countTurn, createTokenCounter, type TokenCounter } from "./token-counter.js";
import type { ChatMessage } from "./trajectory.js";

const port = parentPort;
if (!port) throw new Error("counting-worker-thread runs in a worker thread started by createCountingWorker");
const reply = (message: CountingReply): void => port.postMessage(message);
const { tokenizer } = workerData as { tokenizer?: string };

let counter: TokenCounter | undefined;
try {
  counter = createTokenCounter(tokenizer === undefined ? {} : { tokenizer });
  reply({ type: "ready", tokenizerName: counter.tokenizerName });
} catch (error) {
  reply({ type: "failed", error: toCountingFailure(error) });
}

const conversations = new Map<number, { messages: ChatMessage[]; tools: FunctionTool[] }>();
port.on("message", (request: CountingRequest) => {
  if (!counter) return;
  if (request.type === "open")
    conversations.set(request.conversation, { messages: [], tools: request.tools });
  else if (request.type === "close") conversations.delete(request.conversation);
  else {
    try {
      const conversation = conversations.get(request.conversation);
      if (!conversation) throw new Error(`conversation ${request.conversation} is not open`);
      for (const message of request.append) conversation.messages.push(message);
      const counts = countTurn(counter, conversation.messages, conversation.tools, request.indices);
      reply({ type: "counted", request: request.request, counts });
    } catch (error) {
      reply({ type: "failed", request: request.request, error: toCountingFailure(error) });
    }
  }
});
