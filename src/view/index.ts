export { createEpisodeStore } from "./episode-store.js";
export type { EpisodeStore, EpisodeStoreOptions, SourceStatus, SearchResult } from "./episode-store.js";
export { startViewServer } from "./view-server.js";
export type { ViewServer, ViewServerOptions } from "./view-server.js";
export { createAccessToken } from "./request-guard.js";
export { defaultIndexCacheDir } from "./index-cache.js";
export type { EpisodeSummary, EpisodeKind } from "./episode-summary.js";
export type { ViewEpisode } from "./episode-view.js";
