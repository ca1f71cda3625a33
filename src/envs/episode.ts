import { errorMessage, type TempDir } from "../core/index.js";
import type { Kernel } from "../kernel/index.js";
import { bindTool } from "../runtime/index.js";
import {
  assembleEpisode,
  startEpisodeWorkspace,
  type Episode,
  type EpisodeOptions,
} from "./assemble-episode.js";
import { copyImmutableTree } from "./copy-tree.js";
import { isExternalTask, type Task } from "./define-external-task.js";
import type { ToolContext } from "./define-domain.js";
import type { TaskDefinition, Verdict } from "./define-task.js";
import { openEpisodeState, type EpisodeState } from "./episode-state.js";
import { createExternalEpisode } from "./external-episode.js";
import { buildInstance, openStateView, type Instance } from "./instance.js";
import type { Scale } from "./scale.js";
import { WORKSPACE_READ_TOOLS, WORKSPACE_WRITE_TOOL } from "./workspace-tools.js";

export type { Episode, EpisodeOptions };

/** The tool definitions a task exposes: its domain tools plus the workspace file tools. */
export function taskToolDefinitions(task: TaskDefinition) {
  const chosen = task.domain.tools.filter((tool) => task.tools.includes(tool.name));
  return [...chosen, ...WORKSPACE_READ_TOOLS, ...(task.workspaceWrite ? [WORKSPACE_WRITE_TOOL] : [])];
}

export async function createEpisode(
  task: Task,
  scale: Scale,
  seed: number,
  options: EpisodeOptions = {},
): Promise<Episode> {
  if (isExternalTask(task)) return await createExternalEpisode(task, scale, seed, options);
  const instance = buildInstance(task, scale, seed, options.cacheDir);
  let kernel: Kernel | undefined;
  let plainWorkspace: TempDir | undefined;
  let state: EpisodeState | undefined;
  try {
    ({ kernel, plainWorkspace } = await startEpisodeWorkspace(options));
    const workspaceDir = kernel ? kernel.workspaceDir : plainWorkspace!.path;
    // Off the event loop (tens of files at v3): a burst of episodes opening together pays it in parallel.
    await copyImmutableTree(instance.workspaceDir, workspaceDir);
    // The database never enters the sandbox: a private in-memory copy, or a host-only file when it is large.
    const episodeState = openEpisodeState(instance);
    state = episodeState;
    const context: ToolContext = { db: episodeState.db, workspaceDir };
    const endpoints = taskToolDefinitions(task).map((definition) => bindTool(definition, context));
    const owned = kernel;
    const ownedWorkspace = plainWorkspace;
    return assembleEpisode({
      task,
      instance,
      kernel,
      workspaceDir,
      endpoints,
      options,
      judge: (answer) => runVerifier(task, instance, episodeState.finalState(), workspaceDir, answer),
      release: async () => {
        await Promise.all([episodeState.close(), owned?.dispose(), ownedWorkspace?.disposeAsync()]);
      },
    });
  } catch (error) {
    await state?.close();
    await kernel?.dispose();
    plainWorkspace?.dispose();
    throw error;
  }
}

async function runVerifier(
  task: TaskDefinition,
  instance: Instance,
  finalState: Buffer | string,
  workspaceDir: string,
  answer: string,
): Promise<Verdict> {
  const initial = openStateView(instance.dbPath, instance.workspaceDir);
  const final = openStateView(finalState, workspaceDir);
  try {
    const checks = await task.verify({
      initial: initial.view,
      final: final.view,
      answer,
      scale: instance.scale,
      seed: instance.seed,
    });
    const passed = checks.length > 0 && checks.every((item) => item.passed);
    return { reward: passed ? 1 : 0, checks };
  } catch (error) {
    return { reward: 0, checks: [], error: `verifier failed: ${errorMessage(error)}` };
  } finally {
    initial.close();
    final.close();
  }
}
