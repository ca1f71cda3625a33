import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { McpConfig } from "../../runtime/index.js";

/** The installed package's folder, looked up in `node_modules` from `start` upwards, as Node does. */
function findPackage(name: string, start: string): string | undefined {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", ...name.split("/"));
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The script an installed package runs as its command (`bin`), or undefined. */
export function installedPackageBin(name: string): string | undefined {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const start of [here, process.cwd()]) {
    const folder = findPackage(name, start);
    if (!folder) continue;
    const manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as {
      bin?: string | Record<string, string>;
    };
    const bins = typeof manifest.bin === "string" ? { [name]: manifest.bin } : (manifest.bin ?? {});
    const unscoped = name.replace(/^@[^/]+\//, "");
    const chosen = bins[unscoped] ?? bins[name] ?? Object.values(bins)[0];
    if (chosen) return join(folder, chosen);
  }
  return undefined;
}

/**
 * A server the suite starts with `npx -y <package>` runs from an installed copy when there is one (progagent's
 * dependencies, or the working directory's): no download per episode, and no network needed. Otherwise npx
 * fetches it, as in the suite's own harness.
 */
export function resolveNpmServers(config: McpConfig): McpConfig {
  const servers: McpConfig["mcpServers"] = {};
  for (const [name, entry] of Object.entries(config.mcpServers)) {
    const { npmPackage, ...rest } = entry as typeof entry & { npmPackage?: unknown };
    const bin = typeof npmPackage === "string" ? installedPackageBin(npmPackage) : undefined;
    if (!bin || !("command" in rest)) {
      servers[name] = rest;
      continue;
    }
    const given = Array.isArray(rest.args) ? (rest.args as string[]) : [];
    const args = given.filter(
      (arg: string, index: number) => !(index < 2 && (arg === "-y" || arg === npmPackage)),
    );
    servers[name] = { ...rest, command: process.execPath, args: [bin, ...args] };
  }
  return { ...config, mcpServers: servers };
}
