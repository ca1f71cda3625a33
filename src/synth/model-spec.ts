import { ERROR_CODES, ProgAgentError } from "../core/index.js";
import { createAnthropicClient, createOpenAiClient, type ModelClient } from "../harness/index.js";

export interface ModelEndpoint {
  /** `openai:<model>` or `anthropic:<model>`. */
  spec: string;
  baseUrl?: string;
  /** The environment variable holding the API key (default OPENAI_API_KEY / ANTHROPIC_API_KEY). */
  apiKeyEnv?: string;
  requestTimeoutMs?: number;
}

/** A model client for one pipeline role; the key is read on the host and never enters a sandbox. */
export function createClientForSpec(endpoint: ModelEndpoint): ModelClient {
  const [kind, ...rest] = endpoint.spec.split(":");
  const model = rest.join(":");
  if (kind === "openai" && model) {
    const apiKey = process.env[endpoint.apiKeyEnv ?? "OPENAI_API_KEY"];
    return createOpenAiClient({
      baseUrl: endpoint.baseUrl ?? process.env.OPENAI_BASE_URL ?? "https://api.openai.com/v1",
      model,
      ...(apiKey ? { apiKey } : {}),
      ...(endpoint.requestTimeoutMs ? { requestTimeoutMs: endpoint.requestTimeoutMs } : {}),
    });
  }
  if (kind === "anthropic" && model) {
    const apiKey = process.env[endpoint.apiKeyEnv ?? "ANTHROPIC_API_KEY"];
    if (!apiKey)
      throw new ProgAgentError(`set ${endpoint.apiKeyEnv ?? "ANTHROPIC_API_KEY"} to use ${endpoint.spec}`, {
        code: ERROR_CODES.INVALID_ARGUMENT,
        category: "user",
      });
    return createAnthropicClient({
      model,
      apiKey,
      ...(endpoint.baseUrl ? { baseUrl: endpoint.baseUrl } : {}),
    });
  }
  throw new ProgAgentError(`unknown model '${endpoint.spec}': expected openai:<model> or anthropic:<model>`, {
    code: ERROR_CODES.INVALID_ARGUMENT,
    category: "user",
  });
}
