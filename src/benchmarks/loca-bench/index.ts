export { loadLocaBench, LOCA_SUITE_PREFIX, LOCA_SUITE_NAME } from "./load-loca-bench.js";
export type { LocaBenchOptions, LoadedLocaBench } from "./load-loca-bench.js";
export { LOCA_CHECKED_COMMIT, LOCA_SIZES, LOCA_SEEDS, locaSeed, readLocaCheckout } from "./loca-checkout.js";
export type { LocaCheckout, LocaClass, LocaEntry } from "./loca-checkout.js";
