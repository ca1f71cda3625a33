/** Live MCP sessions `serve --http` holds at most unless told otherwise (a module without dependencies, for --help). */
export const DEFAULT_MAX_SESSIONS = 32;
