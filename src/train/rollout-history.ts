import type { ChatMessage } from "../harness/index.js";
import type { EndReason } from "./rollout-answers.js";

/** UTF-8 bytes of what a message holds: text, reasoning, tool call names and arguments. */
export function messageBytes(message: ChatMessage): number {
  let bytes = Buffer.byteLength(message.content ?? "") + Buffer.byteLength(message.reasoning_content ?? "");
  for (const call of message.tool_calls ?? [])
    bytes += Buffer.byteLength(call.function.name) + Buffer.byteLength(call.function.arguments);
  return bytes;
}

/** The retained history of every live episode, within a limit per episode and one in total. */
export interface HistoryBudget {
  /** Bytes all episodes hold now. */
  readonly totalBytes: number;
  /** Accounts `bytes` more for an episode holding `heldBytes`; the reason it may not, or undefined. */
  take(heldBytes: number, bytes: number): EndReason | undefined;
  /** Accounts bytes that must be held whatever the limits (an episode's first messages). */
  hold(bytes: number): void;
  /** Gives back what an ended episode held. */
  giveBack(bytes: number): void;
}

export function createHistoryBudget(limits: {
  maxHistoryBytes: number;
  maxTotalHistoryBytes: number;
}): HistoryBudget {
  let totalBytes = 0;
  return {
    get totalBytes() {
      return totalBytes;
    },
    take(heldBytes, bytes) {
      if (heldBytes + bytes > limits.maxHistoryBytes) return "max_history_bytes";
      if (totalBytes + bytes > limits.maxTotalHistoryBytes) return "history_budget";
      totalBytes += bytes;
      return undefined;
    },
    hold(bytes) {
      totalBytes += bytes;
    },
    giveBack(bytes) {
      totalBytes = Math.max(0, totalBytes - bytes);
    },
  };
}
