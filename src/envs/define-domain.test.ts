import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fingerprintFolder } from "./define-domain.js";

describe("fingerprintFolder", () => {
  it("hashes a suite folder's sources, not its node_modules or dot-folders", () => {
    const folder = mkdtempSync(join(tmpdir(), "fingerprint-"));
    try {
      writeFileSync(join(folder, "generate.ts"), "export const rows = 30;\n");
      mkdirSync(join(folder, "node_modules", "zod"), { recursive: true });
      mkdirSync(join(folder, ".git"));
      const before = fingerprintFolder(folder);
      writeFileSync(join(folder, "node_modules", "zod", "index.js"), "module.exports = {};\n");
      writeFileSync(join(folder, ".git", "HEAD.json"), "{}\n");
      expect(fingerprintFolder(folder)).toBe(before);
      writeFileSync(join(folder, "generate.ts"), "export const rows = 31;\n");
      expect(fingerprintFolder(folder)).not.toBe(before);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
