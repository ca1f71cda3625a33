import { ERROR_CODES, ProgAgentError } from "../core/index.js";
import type { ChatMessage } from "../harness/index.js";
import { MAX_CALLS_PER_TURN, type CompletionBody, type ToolCallsBody } from "./rollout-bodies.js";
import { RolloutError, type StepAnswer, type ToolResultBody } from "./rollout-answers.js";
import type { RolloutLimits } from "./rollout-limits.js";
import type { EpisodeRegistry, LiveEpisode } from "./rollout-registry.js";
import type { RolloutServiceStats } from "./rollout-stats.js";
import { parseToolCalls, type ParsedToolCall } from "./parse-tool-calls.js";

/** What a step needs of its service. */
export interface StepContext {
  registry: EpisodeRegistry;
  limits: RolloutLimits;
  stats: RolloutServiceStats;
}

interface StepCall {
  id: string;
  name: string;
  arguments: unknown;
}

/** The answer of an ended episode: its reward, checks and reason. */
export function endedAnswer(episode: LiveEpisode, results: ToolResultBody[] = []): StepAnswer {
  return {
    results,
    done: true,
    reward: episode.reward ?? 0,
    ...(episode.driver.verdict
      ? { checks: episode.driver.verdict.checks.map((check) => ({ id: check.id, passed: check.passed })) }
      : {}),
    end_reason: episode.endReason ?? "claim_done",
  };
}

/**
 * Dispatches calls in order until the episode ends or its wall clock runs out; each result is retained in the
 * history (within its limits) and appended to `observed`, this turn's messages.
 */
async function runCalls(
  context: StepContext,
  episode: LiveEpisode,
  calls: StepCall[],
  observed: ChatMessage[] = [],
): Promise<StepAnswer> {
  const { registry, limits, stats } = context;
  const results: ToolResultBody[] = [];
  const deadline = AbortSignal.timeout(
    Math.max(1, episode.createdAt + limits.episodeWallClockMs - Date.now()),
  );
  for (const call of calls) {
    if (episode.endReason !== undefined) break;
    if (deadline.aborted) {
      registry.finish(episode, "wall_clock", 0);
      break;
    }
    const outcome = await episode.driver.call(call.name, call.arguments, { signal: deadline });
    stats.toolCalls += 1;
    results.push({
      tool_call_id: call.id,
      name: call.name,
      content: outcome.text,
      is_error: outcome.result.isError === true,
    });
    const message: ChatMessage = { role: "tool", tool_call_id: call.id, content: outcome.text };
    observed.push(message);
    if (outcome.endReason === "claim_done")
      registry.finish(episode, "claim_done", outcome.verdict?.reward ?? 0);
    else if (outcome.endReason === "max_tool_calls") registry.finish(episode, "max_tool_calls", 0);
    else registry.retain(episode, message);
  }
  if (episode.endReason !== undefined) return endedAnswer(episode, results);
  return { results, done: false };
}

/** Counts a turn; the one after the last `maxTurns` allows ends the episode instead. False when it ended. */
function startTurn(context: StepContext, episode: LiveEpisode): boolean {
  episode.turns += 1;
  if (episode.turns <= context.limits.maxTurns) return true;
  context.registry.finish(episode, "max_turns", 0);
  return false;
}

/** `POST /v1/episodes/{id}/tool_calls`: calls a trainer parsed itself. */
export async function stepToolCalls(
  context: StepContext,
  episode: LiveEpisode,
  body: ToolCallsBody,
): Promise<StepAnswer> {
  if (episode.endReason !== undefined || !startTurn(context, episode)) return endedAnswer(episode);
  const calls = body.calls.map((call, index) => ({
    id: call.id ?? `call_${episode.turns - 1}_${index}`,
    name: call.name,
    arguments: call.arguments ?? {},
  }));
  const retained = context.registry.retain(episode, {
    role: "assistant",
    content: "",
    tool_calls: calls.map((call) => ({
      id: call.id,
      type: "function" as const,
      function: {
        name: call.name,
        arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
      },
    })),
  });
  if (!retained) return endedAnswer(episode);
  return await runCalls(context, episode, calls);
}

/** The completion's text: as sent, or decoded from its token ids (rendered episodes only). */
async function completionText(episode: LiveEpisode, body: CompletionBody): Promise<string> {
  if (!("token_ids" in body)) return body.text;
  if (!episode.renderer)
    throw new RolloutError(
      "token_ids need an episode created with `render`; send {text} instead",
      400,
      ERROR_CODES.INVALID_ARGUMENT,
    );
  return await episode.renderer.decode(body.token_ids);
}

/** `POST /v1/episodes/{id}/completion`: the model's raw output, parsed for tool calls here. */
export async function stepCompletion(
  context: StepContext,
  episode: LiveEpisode,
  body: CompletionBody,
): Promise<StepAnswer> {
  if (episode.endReason !== undefined || !startTurn(context, episode)) return endedAnswer(episode);
  const text = await completionText(episode, body);
  const schemas = new Map(episode.driver.tools.map((spec) => [spec.name, spec.inputSchema]));
  const parsed = parseToolCalls(text, (name) => parameterTypes(schemas.get(name)), {
    maxCalls: MAX_CALLS_PER_TURN,
  });
  const calls = parsed.calls.map((call: ParsedToolCall, index) => ({
    id: `call_${episode.turns}_${index}`,
    name: call.name,
    arguments: call.arguments,
    argumentsText: call.argumentsText,
    format: call.format,
  }));
  const retained = context.registry.retain(episode, {
    role: "assistant",
    content: parsed.content,
    ...(parsed.reasoning ? { reasoning_content: parsed.reasoning } : {}),
    ...(calls.length > 0
      ? {
          tool_calls: calls.map((call) => ({
            id: call.id,
            type: "function" as const,
            function: { name: call.name, arguments: call.argumentsText },
          })),
        }
      : {}),
  });
  const parsedCalls = calls.map(({ id, name, arguments: args, format }) => ({
    id,
    name,
    arguments: args,
    format,
  }));
  const parseErrors = parsed.errors.length > 0 ? { parse_errors: parsed.errors } : {};
  if (!retained) return { ...endedAnswer(episode), parsed_calls: parsedCalls, ...parseErrors };
  if (calls.length === 0 && parsed.errors.length === 0) {
    context.registry.finish(episode, "no_tool_calls", 0);
    return { ...endedAnswer(episode), parsed_calls: [] };
  }
  const observed: ChatMessage[] = [];
  let answer = await runCalls(context, episode, calls, observed);
  if (parsed.errors.length > 0 && !answer.done) {
    const content = `Error: your tool call could not be parsed: ${parsed.errors.join("; ")}`;
    const message: ChatMessage = { role: "tool", tool_call_id: "parse_error", content };
    answer.results.push({ tool_call_id: "parse_error", name: "", content, is_error: true });
    observed.push(message);
    if (!context.registry.retain(episode, message)) answer = endedAnswer(episode, answer.results);
  }
  const observation = await withObservation(
    context,
    episode,
    answer,
    observed,
    "token_ids" in body ? { tokenIds: body.token_ids } : { text },
  );
  return { ...observation, parsed_calls: parsedCalls, ...parseErrors };
}

/**
 * A rendered episode's answer that goes on: the tokens to append after the model's output. Tool output too costly
 * to tokenise in time ends this episode (`tokenizer_deadline`), never the service's other work.
 */
async function withObservation(
  context: StepContext,
  episode: LiveEpisode,
  answer: StepAnswer,
  toolMessages: ChatMessage[],
  generated: { tokenIds: readonly number[] } | { text: string },
): Promise<StepAnswer> {
  if (!episode.renderer || answer.done) return answer;
  try {
    const tokenIds = await episode.renderer.observationTokenIds(
      toolMessages,
      episode.driver.functionTools(),
      generated,
    );
    return { ...answer, observation_token_ids: tokenIds };
  } catch (error) {
    if (!(error instanceof ProgAgentError && error.code === ERROR_CODES.TIMEOUT)) throw error;
    context.registry.finish(episode, "tokenizer_deadline", 0);
    return endedAnswer(episode, answer.results);
  }
}

/** JSON-schema `type`s of a tool's top-level parameters (for converting XML parameter text). */
function parameterTypes(schema: unknown): Record<string, string | undefined> | undefined {
  if (!schema || typeof schema !== "object") return undefined;
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties;
  if (!properties) return undefined;
  const types: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(properties))
    types[key] = typeof value?.type === "string" ? value.type : undefined;
  return types;
}
