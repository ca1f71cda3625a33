import type * as ServerModule from "@modelcontextprotocol/sdk/server/index.js";
import type * as StreamableHttpModule from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type * as TypesModule from "@modelcontextprotocol/sdk/types.js";
import { createRequire } from "node:module";

// The MCP SDK costs about 0.13 s of start-up, paid by every command that imports the runtime (the whole suite
// does). The server side is loaded on first use instead, synchronously (its CommonJS build), so that the
// functions that build servers keep their synchronous signatures.
const require = createRequire(import.meta.url);

let serverModule: typeof ServerModule | undefined;
let typesModule: typeof TypesModule | undefined;
let streamableHttpModule: typeof StreamableHttpModule | undefined;

/** `@modelcontextprotocol/sdk/server/index.js`, loaded on first use. */
export function mcpServerModule(): typeof ServerModule {
  serverModule ??= require("@modelcontextprotocol/sdk/server/index.js") as typeof ServerModule;
  return serverModule;
}

/** `@modelcontextprotocol/sdk/types.js` (request schemas, error codes), loaded on first use. */
export function mcpTypesModule(): typeof TypesModule {
  typesModule ??= require("@modelcontextprotocol/sdk/types.js") as typeof TypesModule;
  return typesModule;
}

/** `@modelcontextprotocol/sdk/server/streamableHttp.js`, loaded on first use. */
export function mcpStreamableHttpModule(): typeof StreamableHttpModule {
  streamableHttpModule ??=
    require("@modelcontextprotocol/sdk/server/streamableHttp.js") as typeof StreamableHttpModule;
  return streamableHttpModule;
}
