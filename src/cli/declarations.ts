import type { Command } from "commander";

export type Register = (program: Command) => void;

/**
 * The top-level commands' declarations, in the order `--help` lists them, by the names they declare. Each
 * loads its module only when needed: a command line that starts with one of these names declares only that
 * one (its module, its options, its subcommands, its own help); anything else (`--help`, `help`, a typo
 * commander suggests a fix for, `--version`) declares all. Through tsx in a clone every module read costs a
 * round trip to the loader thread (issue 8).
 */
export const DECLARATIONS: ReadonlyArray<{ names: readonly string[]; load: () => Promise<Register[]> }> = [
  { names: ["serve"], load: async () => [(await import("./commands/serve.js")).registerServe] },
  {
    names: ["tasks"],
    load: async () => {
      const [tasks, calibrate] = await Promise.all([
        import("./commands/tasks.js"),
        import("./commands/tasks-calibrate.js"),
      ]);
      return [tasks.registerTasks, calibrate.registerTasksCalibrate];
    },
  },
  { names: ["env"], load: async () => [(await import("./commands/env-serve.js")).registerEnvServe] },
  {
    names: ["eval", "report", "start"],
    load: async () => [(await import("./commands/eval.js")).registerEval],
  },
  { names: ["rollout"], load: async () => [(await import("./commands/rollout.js")).registerRollout] },
  { names: ["sandbox"], load: async () => [(await import("./commands/sandbox.js")).registerSandbox] },
  { names: ["export"], load: async () => [(await import("./commands/export.js")).registerExport] },
  {
    names: ["init-suite"],
    load: async () => [(await import("./commands/init-suite.js")).registerInitSuite],
  },
  { names: ["synth"], load: async () => [(await import("./commands/synth.js")).registerSynth] },
  { names: ["view"], load: async () => [(await import("./commands/view.js")).registerView] },
];

/** The declarations a command line needs: the one its first word names, or all of them. */
export async function declarationsFor(argv: readonly string[]): Promise<Register[]> {
  const first = argv[2];
  const named = DECLARATIONS.find((entry) => first !== undefined && entry.names.includes(first));
  const chosen = named ? [named] : DECLARATIONS;
  return (await Promise.all(chosen.map((entry) => entry.load()))).flat();
}
