import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { buildInstance, type DomainDefinition, type TaskDefinition } from "../envs/index.js";
import { toolInputJsonSchema } from "../runtime/index.js";

const MAX_READ_CHARS = 60_000;

/**
 * What the pipeline's models read about a built-in domain: its source files (generator, tools, existing
 * tasks), the domain kit's README, and an API page rendered from the definitions (schema, tools with JSON
 * Schemas, the workspace files of a v0 instance). Paths are names from a fixed list, never opened by the
 * model's choice of path.
 */
export interface DomainContext {
  domain: DomainDefinition;
  files: string[];
  read(path: string, offset?: number): string;
  apiPage: string;
  workspaceFiles: string[];
}

function suiteFolder(domainId: string): string {
  return fileURLToPath(new URL(`../suite/${domainId}/`, import.meta.url));
}

function kitReadme(): string {
  return fileURLToPath(new URL("../envs/kit/README.md", import.meta.url));
}

function listSources(folder: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (
        /\.(ts|js|md)$/.test(entry.name) &&
        !/\.test\./.test(entry.name) &&
        !/\.d\.ts$/.test(entry.name)
      )
        found.push(relative(folder, path));
    }
  };
  walk(folder);
  return found;
}

export function renderApiPage(domain: DomainDefinition, workspaceFiles: readonly string[]): string {
  const tools = domain.tools
    .map(
      (tool) =>
        `### ${tool.name} (${tool.kind})\n${tool.description}\n\nInput JSON Schema: ${JSON.stringify(toolInputJsonSchema(tool.inputSchema))}`,
    )
    .join("\n\n");
  return [
    `# Domain ${domain.id}: ${domain.title}`,
    domain.description,
    "## Database schema (SQLite)",
    "```sql",
    domain.schemaSql.trim(),
    "```",
    "## Tools",
    tools,
    "## Workspace files of a v0 instance (seed 0)",
    workspaceFiles.map((file) => `- ${file}`).join("\n"),
  ].join("\n\n");
}

export function createDomainContext(tasks: readonly TaskDefinition[], cacheDir?: string): DomainContext {
  const first = tasks[0];
  if (!first) throw new Error("a domain context needs at least one task of the domain");
  const domain = first.domain;
  const folder = suiteFolder(domain.id);
  const sources = existsSync(folder) ? listSources(folder) : [];
  const files = [...sources.map((file) => `domain/${file}`), "kit/README.md", "api.md"];
  const instance = buildInstance(first, "v0", 0, cacheDir);
  const workspaceFiles: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else workspaceFiles.push(`${relative(instance.workspaceDir, path)} (${statSync(path).size} bytes)`);
    }
  };
  walk(instance.workspaceDir);
  const apiPage = renderApiPage(domain, workspaceFiles);
  return {
    domain,
    files,
    workspaceFiles,
    apiPage,
    read(path, offset = 0) {
      if (!files.includes(path)) throw new Error(`no file '${path}'; the files are: ${files.join(", ")}`);
      const text =
        path === "api.md"
          ? apiPage
          : path === "kit/README.md"
            ? readFileSync(kitReadme(), "utf8")
            : readFileSync(join(folder, path.slice("domain/".length)), "utf8");
      const part = text.slice(offset, offset + MAX_READ_CHARS);
      const rest = text.length - offset - part.length;
      return rest > 0
        ? `${part}\n[... ${rest} more characters: read again with offset ${offset + part.length}]`
        : part;
    },
  };
}
