import type { Trajectory } from "../../src/harness/trajectory.js";

export interface SyntheticEpisodeOptions {
  task?: string;
  scale?: "v0" | "v1" | "v2" | "v3";
  harness?: "ptc" | "dtc" | "hybrid";
  sample?: number;
  seed?: number;
  model?: string;
  turns?: number;
  /** Characters of each tool output (default 400). */
  outputChars?: number;
  reward?: 0 | 1;
  /** Text put into the first tool output (e.g. a hostile payload). */
  firstOutput?: string;
  /** The code of the first block. */
  firstCode?: string;
  /** Outputs and codes by turn (override the generated ones; the first* options win for turn 0). */
  outputs?: ReadonlyArray<string | undefined>;
  codes?: ReadonlyArray<string | undefined>;
  /** Assistant text of the first turn. */
  firstContent?: string;
  /** Code block statuses by turn (default ok). */
  statuses?: ReadonlyArray<"ok" | "error" | "timeout" | "killed" | "crashed" | undefined>;
  /** Tool arguments of the first environment call (a model's object, may imitate the file's structure). */
  firstArgs?: Record<string, unknown>;
  runId?: string;
  schemaVersion?: number;
  /** Extra top-level fields (e.g. a rollout record's `rollout`). */
  extra?: Record<string, unknown>;
}

const FILLER =
  "order_id=ORD-1042 status=late total=129.50 customer=C-77 note: 'refund pending' | sku=SKU-9 qty=3 warehouse=W2 ";

function filler(chars: number, seed: number): string {
  let text = "";
  let index = seed;
  while (text.length < chars) {
    text += `${index}: ${FILLER}\n`;
    index += 1;
  }
  return text.slice(0, chars);
}

/**
 * A trajectory in the exact shape the harness writes (keys in the schema's order), with PTC code blocks or DTC
 * direct calls, per-turn token counts that grow, and a claim_done verdict with checks.
 */
export function syntheticTrajectory(options: SyntheticEpisodeOptions = {}): Trajectory {
  const harness = options.harness ?? "ptc";
  const task = options.task ?? "retail.refund-late-orders";
  const scale = options.scale ?? "v0";
  const sample = options.sample ?? 0;
  const turnCount = options.turns ?? 4;
  const outputChars = options.outputChars ?? 400;
  const reward = options.reward ?? 1;
  const messages: Trajectory["messages"] = [
    { role: "system", content: "You are an agent. Tools: list_orders(status), refund_order(order_id)." },
    {
      role: "user",
      content: `Refund every late order of ${task} over $100 and report the total refunded.`,
    },
  ];
  const turns: Trajectory["turns"] = [];
  const toolCalls: Trajectory["toolCalls"] = [];
  const codeBlocks: Trajectory["codeBlocks"] = [];
  let context = 900;
  let toolOutputTokens = 0;
  for (let turn = 0; turn < turnCount; turn += 1) {
    const last = turn === turnCount - 1;
    const callId = `call_${turn}`;
    const output =
      turn === 0 && options.firstOutput !== undefined
        ? options.firstOutput
        : (options.outputs?.[turn] ?? filler(outputChars, turn * 100 + sample));
    if (last) {
      messages.push({
        role: "assistant",
        content: "All late orders are refunded.",
        reasoning_content: "The total is 388.5; claim done.",
        tool_calls: [
          {
            id: callId,
            type: "function",
            function: { name: "claim_done", arguments: JSON.stringify({ answer: "388.5" }) },
          },
        ],
      });
      messages.push({
        role: "tool",
        tool_call_id: callId,
        content: reward === 1 ? "Episode over: verified." : "Episode over: a check failed.",
      });
      toolCalls.push({
        turn,
        name: "claim_done",
        args: { answer: "388.5" },
        via: "direct",
        isError: false,
        durationMs: 3,
      });
    } else if (harness === "dtc") {
      const args = turn === 0 && options.firstArgs ? options.firstArgs : { status: "late", page: turn };
      messages.push({
        role: "assistant",
        content: `Listing page ${turn}.`,
        tool_calls: [
          {
            id: callId,
            type: "function",
            function: { name: "list_orders", arguments: JSON.stringify(args) },
          },
        ],
      });
      messages.push({ role: "tool", tool_call_id: callId, content: output });
      toolCalls.push({ turn, name: "list_orders", args, via: "direct", isError: false, durationMs: 12.5 });
    } else {
      const code =
        turn === 0 && options.firstCode !== undefined
          ? options.firstCode
          : (options.codes?.[turn] ??
            `orders = tools["list_orders"](status="late", page=${turn})\nfor order in orders:\n    if order["total"] > 100:\n        print(order["id"], order["total"])\nlen(orders)`);
      messages.push({
        role: "assistant",
        content: turn === 0 ? (options.firstContent ?? "I will list the late orders with code.") : "",
        reasoning_content: `Turn ${turn}: look at page ${turn}.`,
        tool_calls: [
          {
            id: callId,
            type: "function",
            function: { name: "programmatic_tool_call", arguments: JSON.stringify({ code }) },
          },
        ],
      });
      messages.push({ role: "tool", tool_call_id: callId, content: output });
      const args = turn === 0 && options.firstArgs ? options.firstArgs : { status: "late", page: turn };
      toolCalls.push({ turn, name: "list_orders", args, via: "code", isError: false, durationMs: 8.25 });
      const status = options.statuses?.[turn] ?? "ok";
      codeBlocks.push({
        turn,
        code,
        status,
        output,
        errorType: status === "error" ? "KeyError" : null,
        toolCallCount: 1,
        durationMs: 40,
      });
    }
    const outputTokens = last ? 6 : Math.ceil(output.length / 4);
    turns.push({
      index: turn,
      contextTokens: context,
      completionTokens: 60,
      toolOutputTokens: outputTokens,
      durationMs: 500,
      finishReason: "tool_calls",
      usage: null,
    });
    context += 60 + outputTokens;
    toolOutputTokens += outputTokens;
  }
  const trajectory = {
    schemaVersion: (options.schemaVersion ?? 2) as 2,
    runId: options.runId ?? "run-view-test",
    episodeId: `${task}|${scale}|${harness}|${sample}`,
    task,
    scale,
    seed: options.seed ?? 0,
    harness,
    model: options.model ?? "oracle",
    sample,
    messages,
    tools: [
      {
        type: "function" as const,
        function: {
          name: "claim_done",
          description: "End the episode with your answer.",
          parameters: { type: "object", properties: { answer: { type: "string" } }, required: ["answer"] },
        },
      },
    ],
    tokenizer: "qwen3",
    turns,
    toolCalls,
    codeBlocks,
    runtimeErrors: codeBlocks.filter((block) => block.status !== "ok").length,
    refusedDirectCalls: 0,
    toolOutputTokens,
    finalContextTokens: context,
    endReason: "claim_done",
    answer: "388.5",
    reward,
    checks: [
      { id: "refunds-issued", passed: true, message: "3 refunds issued" },
      { id: "total", passed: reward === 1, message: "expected 388.5" },
    ],
    verifierError: null,
    error: null,
    startedAt: "2026-12-04T10:00:00.000Z",
    durationMs: 1234 + sample,
    ...options.extra,
  };
  return trajectory as Trajectory;
}

/** JSONL of trajectories, one line each (as the eval runner appends them). */
export function trajectoriesJsonl(trajectories: readonly unknown[]): string {
  return trajectories.map((trajectory) => `${JSON.stringify(trajectory)}\n`).join("");
}
