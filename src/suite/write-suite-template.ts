import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ERROR_CODES, ProgAgentError } from "../core/index.js";

/** The example suite `init-suite` copies: `templates/suite` at the package root (shipped in the tarball). */
export function suiteTemplateDir(): string {
  return fileURLToPath(new URL("../../templates/suite/", import.meta.url));
}

const SUITE_NAME = /^[a-z][a-z0-9_-]{0,63}$/;
const NAME_PLACEHOLDER = /__SUITE_NAME__/g;

export interface WriteSuiteTemplateOptions {
  /** The suite's name (default: the folder's name, made lower-case). */
  name?: string;
}

export interface WrittenSuiteTemplate {
  dir: string;
  name: string;
  /** Paths relative to `dir`, sorted. */
  files: string[];
}

function listTemplateFiles(dir: string, prefix = ""): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) files.push(...listTemplateFiles(join(dir, entry.name), path));
    else if (entry.isFile()) files.push(path);
  }
  return files.sort();
}

/**
 * Writes the example suite (one domain, one task, every line commented) into `dir`, which must not exist
 * or be empty, so nothing of the user's is overwritten.
 */
export function writeSuiteTemplate(
  dir: string,
  options: WriteSuiteTemplateOptions = {},
): WrittenSuiteTemplate {
  const target = resolve(dir);
  const name =
    options.name ??
    (basename(target)
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, "-")
      .replace(/^[^a-z]+/, "")
      .slice(0, 64) ||
      "my-suite");
  if (!SUITE_NAME.test(name))
    throw new ProgAgentError(
      `--name must be lower-case letters, digits, '_' or '-' (1-64, starting with a letter); got '${name}'`,
      { code: ERROR_CODES.INVALID_ARGUMENT, category: "user", details: { name } },
    );
  if (existsSync(target) && (!statSync(target).isDirectory() || readdirSync(target).length > 0))
    throw new ProgAgentError(
      `${target} already exists and is not an empty folder; init-suite writes only into a new or empty folder`,
      { code: ERROR_CODES.INVALID_ARGUMENT, category: "user", details: { dir: target } },
    );
  const source = suiteTemplateDir();
  if (!existsSync(source))
    throw new ProgAgentError(`the suite template is missing from this installation (${source})`, {
      code: ERROR_CODES.CONFIG_INVALID,
      category: "system",
    });
  const files = listTemplateFiles(source);
  for (const file of files) {
    const destination = join(target, file);
    mkdirSync(join(destination, ".."), { recursive: true });
    writeFileSync(destination, readFileSync(join(source, file), "utf8").replace(NAME_PLACEHOLDER, name), {
      flag: "wx",
    });
  }
  return { dir: target, name, files: files.map((file) => relative(target, join(target, file))) };
}
