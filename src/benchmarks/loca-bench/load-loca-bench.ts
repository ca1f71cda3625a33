import { delimiter } from "node:path";
import type { ExternalTaskDefinition } from "../../envs/index.js";
import { REPLACED_SERVER_TYPES, readLocaCheckout } from "./loca-checkout.js";
import { startLocaSidecar } from "./loca-sidecar.js";
import { defineLocaTask, type LocaTaskContext } from "./loca-task.js";

/** The prefix of a `--suite` spec that names a LOCA-bench checkout: `loca-bench:<dir>`. */
export const LOCA_SUITE_PREFIX = "loca-bench:";
export const LOCA_SUITE_NAME = "loca-bench";

const INSPECT_TIMEOUT_MS = 120_000;

export interface LocaBenchOptions {
  /** The Python with LOCA-bench's requirements (default: PROGAGENT_LOCA_PYTHON, else `python3` on PATH). */
  python?: string;
  /** Folders prepended to PYTHONPATH of the sidecar and the suite's Python servers (default: PYTHONPATH). */
  pythonPath?: readonly string[];
}

export interface LoadedLocaBench {
  name: string;
  root: string;
  tasks: ExternalTaskDefinition[];
}

interface InspectResult {
  servers: Record<string, { available: boolean; reason: string | null }>;
  classes: Record<string, { instruction: string | null; error?: string }>;
}

/**
 * A LOCA-bench checkout as an external suite: one task per environment class (`loca.<slug>`), its four
 * evaluated state sizes as v0..v3, its five seeds. The checkout is read here (its task configurations) and
 * inspected once by a sidecar (which servers can start, each class's instruction); nothing is generated until
 * an episode or `tasks build` asks for an instance.
 */
export async function loadLocaBench(dir: string, options: LocaBenchOptions = {}): Promise<LoadedLocaBench> {
  const checkout = readLocaCheckout(dir);
  const python = options.python ?? process.env.PROGAGENT_LOCA_PYTHON ?? "python3";
  const extraPaths = options.pythonPath ?? (process.env.PYTHONPATH ?? "").split(delimiter).filter(Boolean);
  const pythonPath = [checkout.root, ...extraPaths].join(delimiter);
  const sidecar = { python, environment: { PYTHONPATH: pythonPath } };
  const serverTypes = new Set(checkout.classes.flatMap((locaClass) => [...locaClass.serverTypes]));
  const inspector = startLocaSidecar(sidecar);
  let inspected: InspectResult;
  try {
    inspected = await inspector.request<InspectResult>(
      "inspect",
      {
        checkout: checkout.root,
        serverTypes: [...serverTypes].filter((type) => !REPLACED_SERVER_TYPES.has(type)),
        envClasses: checkout.classes.map((locaClass) => locaClass.envClass),
      },
      { timeoutMs: INSPECT_TIMEOUT_MS },
    );
  } finally {
    await inspector.dispose();
  }
  const unavailable = new Map<string, string>();
  for (const [type, state] of Object.entries(inspected.servers)) {
    if (!state.available) unavailable.set(type, state.reason ?? "it cannot start");
  }
  const instructions = new Map<string, string>();
  const importErrors = new Map<string, string>();
  for (const [envClass, state] of Object.entries(inspected.classes)) {
    if (state.instruction) instructions.set(envClass, state.instruction);
    if (state.error) importErrors.set(envClass, state.error);
  }
  const context: LocaTaskContext = {
    root: checkout.root,
    sidecar,
    serverEnvironment: { PYTHONPATH: pythonPath, LOCA_QUIET: "1", PYTHONDONTWRITEBYTECODE: "1" },
    unavailable,
    instructions,
    importErrors,
  };
  return {
    name: LOCA_SUITE_NAME,
    root: checkout.root,
    tasks: checkout.classes.map((locaClass) => defineLocaTask(context, locaClass)),
  };
}
