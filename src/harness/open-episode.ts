import {
  createEpisode,
  createEpisodeDriver,
  interfaceProfile,
  type Episode,
  type EpisodeDriver,
  type EpisodeOptions,
  type HarnessMode,
  type InterfaceProfileName,
  type Scale,
  type Task,
} from "../envs/index.js";
import type { ToolCallRecord } from "../runtime/index.js";
import type { FunctionTool } from "./model-client.js";
import { renderSystemPrompt } from "./system-prompt.js";
import type { ChatMessage } from "./trajectory.js";

export interface OpenEpisodeOptions {
  task: Task;
  scale: Scale;
  seed: number;
  mode: HarnessMode;
  /** Deadline of one code execution or terminal command. */
  executionTimeoutMs: number;
  maxToolCalls?: number;
  /** Offer `terminal`; default: the interface profile's choice. */
  terminal?: boolean;
  interface?: InterfaceProfileName;
  revealVerdict?: boolean;
  pool?: EpisodeOptions["pool"];
  cacheDir?: string;
  kernelOptions?: EpisodeOptions["kernelOptions"];
  onCall?: (record: ToolCallRecord) => void;
}

/** An episode ready for a model: its driver, the function tools of the mode and the first two messages. */
export interface OpenedEpisode {
  episode: Episode;
  driver: EpisodeDriver;
  tools: FunctionTool[];
  /** The system prompt (the runtime and the tools documented as the profile presents them) and the instruction. */
  messages: ChatMessage[];
}

/**
 * Opens an episode the way a model meets it: the harness loop and the rollout service both start here, so the
 * prompt and tools a trained model saw are the ones it is evaluated with.
 */
export async function openAgentEpisode(options: OpenEpisodeOptions): Promise<OpenedEpisode> {
  const terminal = options.terminal ?? interfaceProfile(options.interface).terminalByDefault;
  const episode = await createEpisode(options.task, options.scale, options.seed, {
    withKernel: options.mode !== "dtc" || terminal,
    mode: options.mode,
    ...(options.pool ? { pool: options.pool } : {}),
    kernelOptions: { ...options.kernelOptions, timeoutMs: options.executionTimeoutMs },
    ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}),
    ...(options.onCall ? { onCall: options.onCall } : {}),
  });
  let driver: EpisodeDriver;
  try {
    driver = createEpisodeDriver(episode, {
      mode: options.mode,
      timeoutMs: options.executionTimeoutMs,
      ...(options.maxToolCalls === undefined ? {} : { maxToolCalls: options.maxToolCalls }),
      ptcDocumentation: "system_prompt",
      revealVerdict: options.revealVerdict === true,
      terminal,
      ...(options.interface ? { interface: options.interface } : {}),
    });
  } catch (error) {
    await episode.dispose();
    throw error;
  }
  const system = renderSystemPrompt(
    options.mode,
    episode.endpoints,
    Math.round(options.executionTimeoutMs / 1000),
    { profile: driver.profile, terminal: driver.terminal },
  );
  return {
    episode,
    driver,
    tools: driver.functionTools(),
    messages: [
      { role: "system", content: system },
      { role: "user", content: episode.instruction },
    ],
  };
}
