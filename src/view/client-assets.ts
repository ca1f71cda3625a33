import { existsSync, readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The page's files: compiled beside this module in the package (`dist/view/client`), sources in a clone. */
const CLIENT_DIR = fileURLToPath(new URL("./client/", import.meta.url));

/** Names a request may ask for: one level, lower-case words; nothing else reaches the file system. */
const ASSET_NAME = /^[a-z][a-z0-9-]*\.(js|css|html)$/;

const CONTENT_TYPES: Record<string, string> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  html: "text/html; charset=utf-8",
};

export interface ClientAsset {
  body: string;
  contentType: string;
}

const cache = new Map<string, Promise<ClientAsset | undefined>>();

/**
 * One file of the page. In the package the modules are compiled JavaScript; run from the sources (a clone,
 * through tsx) a module is its TypeScript with the types stripped by the TypeScript compiler, a development
 * dependency a clone has.
 */
export function loadClientAsset(name: string): Promise<ClientAsset | undefined> {
  if (!ASSET_NAME.test(name)) return Promise.resolve(undefined);
  let asset = cache.get(name);
  if (!asset) {
    asset = readAsset(name);
    cache.set(name, asset);
    asset.catch(() => cache.delete(name));
  }
  return asset;
}

/** Reads (in a clone: transpiles) every file of the page ahead of the first visit. */
export async function preloadClientAssets(): Promise<void> {
  let names: string[];
  try {
    names = readdirSync(CLIENT_DIR)
      .filter((name) => !name.endsWith(".d.ts") && !name.endsWith(".map"))
      .map((name) => name.replace(/\.ts$/, ".js"));
  } catch {
    return;
  }
  await Promise.all([...new Set(names)].map((name) => loadClientAsset(name).catch(() => undefined)));
}

async function readAsset(name: string): Promise<ClientAsset | undefined> {
  const extension = name.slice(name.lastIndexOf(".") + 1);
  const contentType = CONTENT_TYPES[extension]!;
  const path = join(CLIENT_DIR, name);
  if (existsSync(path)) return { body: await readFile(path, "utf8"), contentType };
  if (extension !== "js") return undefined;
  const source = join(CLIENT_DIR, `${name.slice(0, -3)}.ts`);
  if (!existsSync(source)) return undefined;
  const { default: typescript } = await import("typescript");
  const output = typescript.transpileModule(await readFile(source, "utf8"), {
    compilerOptions: {
      target: typescript.ScriptTarget.ES2022,
      module: typescript.ModuleKind.ES2022,
      verbatimModuleSyntax: true,
    },
    fileName: source,
  });
  return { body: output.outputText, contentType };
}
