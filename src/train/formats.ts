/** The training-data formats `export` writes, in a module without dependencies (the CLI lists them in --help). */
export const SFT_FORMATS = ["verl", "ms-swift", "openai"] as const;
export type SftFormat = (typeof SFT_FORMATS)[number];
export const RL_FORMATS = ["verl", "ms-swift"] as const;
export type RlFormat = (typeof RL_FORMATS)[number];
