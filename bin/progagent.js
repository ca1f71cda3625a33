#!/usr/bin/env node
// A clone (src/ beside bin/) always runs its TypeScript sources through tsx, so a stale or partial dist/ left by
// an earlier `npm run build` can never shadow them; the published package ships dist/ only and runs that.
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

const sources = fileURLToPath(new URL("../src/cli/main.ts", import.meta.url));
const compiled = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
if (existsSync(sources)) {
  const { register } = await import("tsx/esm/api");
  register();
  // Tells the user-suite loader (src/suite/user-suite.ts) that TypeScript sources load natively here.
  globalThis[Symbol.for("progagent.tsx")] = true;
  await import(pathToFileURL(sources).href);
} else if (existsSync(compiled)) {
  await import(pathToFileURL(compiled).href);
} else {
  process.stderr.write(
    "progagent: neither src/cli/main.ts nor dist/cli/main.js exists; run `npm run build`\n",
  );
  process.exitCode = 1;
}
