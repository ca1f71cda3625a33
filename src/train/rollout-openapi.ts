import { z } from "zod";
import {
  completionBodySchema,
  createEpisodeBodySchema,
  detokenizeBodySchema,
  tokenizeBodySchema,
  toolCallsBodySchema,
} from "./rollout-bodies.js";
import { END_REASONS } from "./rollout-answers.js";

const errorBody = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message"],
      properties: { code: { type: "string" }, message: { type: "string" } },
    },
  },
};

const stepAnswer = {
  type: "object",
  required: ["results", "done"],
  properties: {
    results: {
      type: "array",
      items: {
        type: "object",
        required: ["tool_call_id", "name", "content", "is_error"],
        properties: {
          tool_call_id: { type: "string" },
          name: { type: "string" },
          content: { type: "string" },
          is_error: { type: "boolean" },
        },
      },
    },
    done: { type: "boolean" },
    reward: { type: "number", description: "The verifier's binary reward, when done." },
    checks: {
      type: "array",
      items: { type: "object", properties: { id: { type: "string" }, passed: { type: "boolean" } } },
    },
    end_reason: {
      type: "string",
      enum: [...END_REASONS],
    },
    parsed_calls: { type: "array", items: { type: "object" }, description: "completion only" },
    parse_errors: { type: "array", items: { type: "string" }, description: "completion only" },
    observation_token_ids: {
      type: "array",
      items: { type: "integer" },
      description: "completion of a rendered episode: tokens to append with loss mask 0",
    },
  },
};

const errors = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((status) => [
      String(status),
      { description: "error", content: { "application/json": { schema: errorBody } } },
    ]),
  );

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

/** The OpenAPI 3.1 document served at `/openapi.json`. */
export function rolloutOpenApiDocument(): Record<string, unknown> {
  const idParameter = [{ name: "id", in: "path", required: true, schema: { type: "string" } }];
  return {
    openapi: "3.1.0",
    info: {
      title: "progagent rollout service",
      version: "1",
      description:
        "Episodes of progagent tasks for RL trainers: a persistent sandboxed kernel per episode, the task's tools, the verifier's reward.",
    },
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
    security: [{ bearer: [] }, {}],
    paths: {
      "/v1/episodes": {
        post: {
          summary: "Create an episode",
          requestBody: { required: true, ...json(z.toJSONSchema(createEpisodeBodySchema)) },
          responses: {
            "201": {
              description: "the episode",
              ...json({
                type: "object",
                required: ["episode_id", "messages", "tools", "limits"],
                properties: {
                  episode_id: { type: "string" },
                  messages: { type: "array", items: { type: "object" } },
                  tools: { type: "array", items: { type: "object" } },
                  limits: { type: "object" },
                  prompt_token_ids: { type: "array", items: { type: "integer" } },
                },
              }),
            },
            ...errors(400, 401, 404, 429, 503),
          },
        },
      },
      "/v1/episodes/{id}": {
        parameters: idParameter,
        get: {
          summary: "State and counts of an episode",
          responses: { "200": { description: "state" }, ...errors(404) },
        },
        delete: {
          summary: "End and release an episode",
          responses: { "200": { description: "final state" }, ...errors(404) },
        },
      },
      "/v1/episodes/{id}/tool_calls": {
        parameters: idParameter,
        post: {
          summary: "Run tool calls (OpenAI-style: name and arguments)",
          requestBody: { required: true, ...json(z.toJSONSchema(toolCallsBodySchema)) },
          responses: { "200": { description: "results", ...json(stepAnswer) }, ...errors(400, 404, 413) },
        },
      },
      "/v1/episodes/{id}/completion": {
        parameters: idParameter,
        post: {
          summary: "Run the tool calls in raw model output (hermes JSON or Qwen3-coder XML)",
          requestBody: { required: true, ...json(z.toJSONSchema(completionBodySchema)) },
          responses: { "200": { description: "results", ...json(stepAnswer) }, ...errors(400, 404, 413) },
        },
      },
      "/v1/tokenize": {
        post: {
          summary: "Token ids of a text with the service's tokenizer",
          requestBody: { required: true, ...json(z.toJSONSchema(tokenizeBodySchema)) },
          responses: { "200": { description: "{token_ids}" }, ...errors(400, 413) },
        },
      },
      "/v1/detokenize": {
        post: {
          summary: "Text of token ids",
          requestBody: { required: true, ...json(z.toJSONSchema(detokenizeBodySchema)) },
          responses: { "200": { description: "{text}" }, ...errors(400) },
        },
      },
      "/v1/tasks": { get: { summary: "Task ids served", responses: { "200": { description: "tasks" } } } },
      "/healthz": {
        get: {
          summary: "Liveness (no token needed)",
          security: [],
          responses: { "200": { description: "ok" } },
        },
      },
      "/metrics": {
        get: { summary: "Prometheus metrics", responses: { "200": { description: "text exposition" } } },
      },
      "/openapi.json": {
        get: { summary: "This document", responses: { "200": { description: "OpenAPI 3.1" } } },
      },
    },
  };
}
