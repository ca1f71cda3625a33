import { realpathSync } from "node:fs";
import { relative, resolve, sep } from "node:path";
import { ERROR_CODES, ProgAgentError, createTempDir, errorMessage, type TempDir } from "../core/index.js";
import type { Kernel } from "../kernel/index.js";
import { connectUpstreams, type UpstreamConnection } from "../runtime/index.js";
import {
  assembleEpisode,
  startEpisodeWorkspace,
  type Episode,
  type EpisodeOptions,
} from "./assemble-episode.js";
import { copyImmutableTree } from "./copy-tree.js";
import type {
  ExternalInstance,
  ExternalSession,
  ExternalTaskDefinition,
  ReferenceVariant,
} from "./define-external-task.js";
import type { Verdict } from "./define-task.js";
import { defaultCacheDir } from "./instance.js";
import type { Scale } from "./scale.js";

/** How long the upstream servers of one episode may take to start and list their tools. */
const CONNECT_TIMEOUT_MS = 60_000;

/** The error an external task that cannot run here gives, naming the task and the reason. */
export function externalTaskSkippedError(task: ExternalTaskDefinition): ProgAgentError {
  return new ProgAgentError(`${task.id} cannot run here: ${task.skipped ?? "no reason given"}`, {
    code: ERROR_CODES.EXTERNAL_TASK_SKIPPED,
    category: "user",
    details: { task: task.id, reason: task.skipped ?? null },
  });
}

/** Builds (or finds in the cache) an external task's instance; a failure names the task and the instance. */
export async function prepareExternalInstance(
  task: ExternalTaskDefinition,
  scale: Scale,
  seed: number,
  options: { cacheDir?: string; signal?: AbortSignal } = {},
): Promise<ExternalInstance> {
  try {
    return await task.prepare({
      scale,
      seed,
      cacheDir: options.cacheDir ?? defaultCacheDir(),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    // Said once: an error that already names this task (a nested prepare) is not wrapped again.
    if (error instanceof ProgAgentError && error.details.task === task.id) throw error;
    throw new ProgAgentError(
      `${task.id} (${scale}, seed ${seed}) could not be prepared: ${errorMessage(error)}`,
      {
        code: ERROR_CODES.EXTERNAL_ENVIRONMENT_FAILED,
        category: "upstream",
        cause: error,
        details: { task: task.id, scale, seed },
      },
    );
  }
}

/** A hidden path inside the workspace would put the answer in the sandbox: refused before any server starts. */
function assertHiddenOutsideWorkspace(
  task: string,
  hiddenPaths: readonly string[],
  workspaceDir: string,
): void {
  const workspace = realpathSync(workspaceDir);
  for (const path of hiddenPaths) {
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      real = resolve(path);
    }
    const inside = relative(workspace, real);
    if (inside === "" || (!inside.startsWith(`..${sep}`) && inside !== ".." && !inside.startsWith(sep)))
      throw new ProgAgentError(
        `${task}: the hidden path ${path} lies inside the agent's workspace; the suite must keep its ground truth and databases outside it`,
        { code: ERROR_CODES.EXTERNAL_ENVIRONMENT_FAILED, category: "system", details: { task, path } },
      );
  }
}

/**
 * An episode of an external task: the instance's initial files copied into the episode's workspace, the
 * suite's upstream servers connected for this episode, its hidden state in a host folder of the episode, and
 * the verdict from the suite's verifier once the program and the servers have stopped.
 */
export async function createExternalEpisode(
  task: ExternalTaskDefinition,
  scale: Scale,
  seed: number,
  options: EpisodeOptions,
): Promise<Episode> {
  const connectServers = options.connectServers !== false;
  if (connectServers && task.skipped !== undefined) throw externalTaskSkippedError(task);
  const instance = await prepareExternalInstance(task, scale, seed, {
    ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}),
  });
  // Under DTC the suite's own code tool is offered, and its programs run in the sandbox.
  const codeTool = options.mode === "dtc" ? instance.codeTool : undefined;
  let kernel: Kernel | undefined;
  let plainWorkspace: TempDir | undefined;
  let hidden: TempDir | undefined;
  let session: ExternalSession | undefined;
  let upstream: UpstreamConnection | undefined;
  const release = async (): Promise<void> => {
    await upstream?.dispose();
    await session?.dispose();
    await Promise.all([kernel?.dispose(), plainWorkspace?.disposeAsync(), hidden?.disposeAsync()]);
  };
  try {
    ({ kernel, plainWorkspace } = await startEpisodeWorkspace({
      ...options,
      withKernel: options.withKernel === true || codeTool !== undefined,
    }));
    const workspaceDir = kernel ? kernel.workspaceDir : plainWorkspace!.path;
    await copyImmutableTree(instance.workspaceDir, workspaceDir);
    hidden = createTempDir("external");
    session = await instance.open({ workspaceDir, hiddenDir: hidden.path });
    assertHiddenOutsideWorkspace(task.id, session.hiddenPaths, workspaceDir);
    upstream = connectServers ? await connectUpstreamsFor(task.id, session) : noUpstreams();
    const opened = session;
    const connection = upstream;
    return assembleEpisode({
      task,
      instance: { scale, seed, key: instance.key },
      instruction: instance.instruction,
      kernel,
      workspaceDir,
      endpoints: connection.endpoints,
      // A DTC program (the code tool) runs alone, as in the suite's own harness: it calls no tools.
      ...(options.mode === "dtc" ? { kernelEndpoints: [] } : {}),
      ...(codeTool ? { codeTool } : {}),
      ...(opened.applyReference
        ? { applyReference: (variant: ReferenceVariant) => opened.applyReference!(variant) }
        : {}),
      ...(opened.referenceUnavailable === undefined
        ? {}
        : { referenceUnavailable: opened.referenceUnavailable }),
      options,
      quiesce: () => connection.dispose(),
      judge: (answer) => verifyExternal(task.id, opened, answer),
      release,
    });
  } catch (error) {
    await release();
    throw error;
  }
}

/** No servers (validation): no tools, nothing to close. */
function noUpstreams(): UpstreamConnection {
  const dispose = async (): Promise<void> => undefined;
  return { endpoints: [], servers: [], dispose, [Symbol.asyncDispose]: dispose };
}

async function connectUpstreamsFor(task: string, session: ExternalSession): Promise<UpstreamConnection> {
  try {
    return await connectUpstreams(session.mcpConfig, { connectTimeoutMs: CONNECT_TIMEOUT_MS });
  } catch (error) {
    throw new ProgAgentError(`${task}: ${errorMessage(error)}`, {
      code: ERROR_CODES.EXTERNAL_ENVIRONMENT_FAILED,
      category: "upstream",
      cause: error,
      details: { task },
    });
  }
}

/** The suite's verdict; a verifier that fails is reward 0 with its error recorded, as for built-in tasks. */
async function verifyExternal(task: string, session: ExternalSession, answer: string): Promise<Verdict> {
  try {
    return await session.verify({ answer });
  } catch (error) {
    return { reward: 0, checks: [], error: `verifier of ${task} failed: ${errorMessage(error)}` };
  }
}
