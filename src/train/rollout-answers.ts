import { ProgAgentError } from "../core/index.js";

export interface ToolResultBody {
  tool_call_id: string;
  name: string;
  content: string;
  is_error: boolean;
}

export interface StepAnswer {
  results: ToolResultBody[];
  done: boolean;
  reward?: number;
  checks?: Array<{ id: string; passed: boolean }>;
  end_reason?: string;
  parsed_calls?: Array<{ id: string; name: string; arguments: Record<string, unknown>; format: string }>;
  parse_errors?: string[];
  observation_token_ids?: number[];
}

/** Why an episode ended, as `end_reason` tells the trainer (every one but claim_done has reward 0). */
export const END_REASONS = [
  "claim_done",
  "max_tool_calls",
  "no_tool_calls",
  "wall_clock",
  "idle_timeout",
  "deleted",
  "service_shutdown",
  /** The turn after the last one `maxTurns` allows (turns of unparseable output count). */
  "max_turns",
  /** The episode's retained history would pass `maxHistoryBytes`. */
  "max_history_bytes",
  /** The history of all live episodes would pass `maxTotalHistoryBytes`. */
  "history_budget",
  /** Rendering the observation overran the tokenizer's deadline (e.g. a flood of one letter in tool output). */
  "tokenizer_deadline",
] as const;
export type EndReason = (typeof END_REASONS)[number];

/** An error the HTTP layer answers with `status` (and `Retry-After` when set). */
export class RolloutError extends ProgAgentError {
  constructor(
    message: string,
    readonly status: number,
    code: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message, { code, category: status >= 500 ? "system" : "user" });
  }
}
