/**
 * The names the command line and the task model share, in a module without dependencies, so that parsing a
 * command's options never loads the machinery behind them.
 */

/** The four scales of every task: v0 (smallest) to v3. */
export const SCALES = ["v0", "v1", "v2", "v3"] as const;
export type Scale = (typeof SCALES)[number];

/** How the model reaches the tools: one call per turn (dtc), programs (ptc), or both (hybrid). */
export const HARNESS_MODES = ["dtc", "ptc", "hybrid"] as const;
export type HarnessMode = (typeof HARNESS_MODES)[number];

/** How the meta-tools are presented: progagent's own, or as the paper's runtime showed them. */
export const INTERFACE_PROFILES = ["default", "paper"] as const;
export type InterfaceProfileName = (typeof INTERFACE_PROFILES)[number];
