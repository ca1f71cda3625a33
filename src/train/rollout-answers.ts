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

export type EndReason =
  | "claim_done"
  | "max_tool_calls"
  | "no_tool_calls"
  | "wall_clock"
  | "idle_timeout"
  | "deleted"
  | "service_shutdown";

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
