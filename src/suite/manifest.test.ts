import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ProgAgentError } from "../core/index.js";
import {
  SUITE_MANIFEST_SCHEMA_VERSION,
  readSuiteManifest,
  selectManifestTasks,
  type SuiteManifest,
  type SuiteManifestTask,
} from "./manifest.js";

const scratchDirs: string[] = [];
afterEach(() => {
  for (const dir of scratchDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");
const task = (id: string, domain = id.split(".")[0]!): SuiteManifestTask => ({
  id,
  domain,
  summary: `summary of ${id}`,
  instruction: `Do ${id}.`,
  tools: ["get_thing"],
});

/** A tree like src/: `suite/index.ts`, `envs/kit.ts` and `suite/manifest.json` describing them. */
function writeTree(manifest: Partial<SuiteManifest> = {}): { root: string; suiteDir: string } {
  const root = mkdtempSync(join(tmpdir(), "progagent-manifest-test-"));
  scratchDirs.push(root);
  mkdirSync(join(root, "suite"));
  mkdirSync(join(root, "envs"));
  writeFileSync(join(root, "suite", "index.ts"), "export const a = 1;\n");
  writeFileSync(join(root, "envs", "kit.ts"), "export const b = 2;\n");
  const full: SuiteManifest = {
    schemaVersion: SUITE_MANIFEST_SCHEMA_VERSION,
    comment: "test",
    sources: {
      "envs/kit.ts": sha256("export const b = 2;\n"),
      "suite/index.ts": sha256("export const a = 1;\n"),
    },
    domains: [{ id: "retail", tasks: [task("retail.a")] }],
    ...manifest,
  };
  writeFileSync(join(root, "suite", "manifest.json"), JSON.stringify(full));
  return { root, suiteDir: join(root, "suite") };
}

describe("readSuiteManifest", () => {
  it("is fresh while every source has its recorded hash, and stale naming the first file that changed or went", () => {
    const { root, suiteDir } = writeTree();
    expect(readSuiteManifest(suiteDir).state).toBe("fresh");

    writeFileSync(join(root, "envs", "kit.ts"), "export const b = 3;\n");
    expect(readSuiteManifest(suiteDir)).toMatchObject({ state: "stale", reason: "envs/kit.ts changed" });

    writeFileSync(join(root, "envs", "kit.ts"), "export const b = 2;\n");
    expect(readSuiteManifest(suiteDir).state).toBe("fresh");
    rmSync(join(root, "envs", "kit.ts"));
    expect(readSuiteManifest(suiteDir)).toMatchObject({ state: "stale", reason: "envs/kit.ts is gone" });
  });

  it("says `missing` without a manifest and `invalid` for a file that is not one, never throwing", () => {
    const { suiteDir } = writeTree();
    rmSync(join(suiteDir, "manifest.json"));
    expect(readSuiteManifest(suiteDir).state).toBe("missing");

    writeFileSync(join(suiteDir, "manifest.json"), "{ not json");
    expect(readSuiteManifest(suiteDir).state).toBe("invalid");

    const invalid = (manifest: Record<string, unknown>): string => {
      writeFileSync(join(suiteDir, "manifest.json"), JSON.stringify(manifest));
      const found = readSuiteManifest(suiteDir);
      expect(found.state).toBe("invalid");
      return found.state === "fresh" ? "" : found.reason;
    };
    const good = { schemaVersion: 1, comment: "", sources: { "suite/index.ts": sha256("x") }, domains: [] };
    expect(invalid({ ...good, schemaVersion: 2 })).toContain("schemaVersion is 2");
    expect(
      invalid({ ...good, domains: [{ id: "retail", tasks: [task("retail.a")] }], sources: {} }),
    ).toContain("sources");
    expect(
      invalid({ ...good, domains: [{ id: "retail", tasks: [{ id: "retail.a", tools: "get_thing" }] }] }),
    ).toContain("a task of domain 'retail'");
    // A manifest never makes the reader hash a file outside the tree it belongs to.
    expect(
      invalid({ ...good, sources: { "../../etc/passwd": sha256("x") }, domains: [{ id: "r", tasks: [] }] }),
    ).toContain("not a relative path inside the package");
  });
});

describe("selectManifestTasks", () => {
  const manifest: SuiteManifest = {
    schemaVersion: SUITE_MANIFEST_SCHEMA_VERSION,
    comment: "",
    sources: {},
    domains: [
      { id: "retail", tasks: [task("retail.net"), task("retail.cat")] },
      { id: "hr", tasks: [task("hr.overtime"), task("hr.leave")] },
    ],
  };

  it("selects by the glob in domain then definition order, through the domain filter as loadSuite does", () => {
    expect(selectManifestTasks(manifest, "*").map((entry) => entry.id)).toEqual([
      "retail.net",
      "retail.cat",
      "hr.overtime",
      "hr.leave",
    ]);
    expect(selectManifestTasks(manifest, "hr.*,retail.cat").map((entry) => entry.id)).toEqual([
      "retail.cat",
      "hr.overtime",
      "hr.leave",
    ]);
    // `*t` matches the task ids retail.net and retail.cat, but no domain ends in t: loadSuite never loads retail.
    expect(selectManifestTasks(manifest, "*t,hr.*").map((entry) => entry.id)).toEqual([
      "hr.overtime",
      "hr.leave",
    ]);
  });

  it("throws loadSuite's error when nothing matches", () => {
    expect(() => selectManifestTasks(manifest, "clinic.*")).toThrow(
      new ProgAgentError("no built-in task matches 'clinic.*' (domains: retail, hr)", {
        code: "TASK_NOT_FOUND",
        category: "user",
      }),
    );
  });
});
