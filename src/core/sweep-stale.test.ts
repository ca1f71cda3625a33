import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createTempDir, isProcessAlive, sweepStale, sweepStaleTempDirs } from "./index.js";

const DEAD_PID = 2 ** 22 + 17; // above the largest pid_max: never alive
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function scratch(): string {
  const root = mkdtempSync(join(tmpdir(), "sweep-stale-test-"));
  roots.push(root);
  return root;
}

describe("sweepStale", () => {
  it("removes only what dead owners left, keeping this process's, live ones' and foreign entries", () => {
    const root = scratch();
    const names = [`job-${DEAD_PID}`, `job-${process.pid}`, `job-${process.ppid}`, "job-0", "notes", "job-x"];
    for (const name of names) mkdirSync(join(root, name));
    writeFileSync(join(root, `job-${DEAD_PID}`, "left.txt"), "left behind");
    const ownerOf = (name: string): number | undefined =>
      name.startsWith("job-") ? Number(name.slice(4)) : undefined;
    expect(sweepStale(root, { ownerOf })).toBe(1);
    expect(readdirSync(root).sort()).toEqual(names.filter((name) => name !== `job-${DEAD_PID}`).sort());
    expect(isProcessAlive(process.ppid)).toBe(true);
    expect(isProcessAlive(DEAD_PID)).toBe(false);
  });

  it("counts only what the remover says is gone, and removes nothing from a missing root", () => {
    const root = scratch();
    mkdirSync(join(root, `busy-${DEAD_PID}`));
    mkdirSync(join(root, `idle-${DEAD_PID + 1}`));
    const seen: string[] = [];
    const removed = sweepStale(root, {
      ownerOf: (name) => Number(name.split("-")[1]),
      remove: (path, name) => {
        seen.push(name);
        if (name.startsWith("busy-")) return false;
        rmSync(path, { recursive: true });
        return true;
      },
    });
    expect(removed).toBe(1);
    expect(seen.sort()).toEqual([`busy-${DEAD_PID}`, `idle-${DEAD_PID + 1}`]);
    expect(existsSync(join(root, `busy-${DEAD_PID}`))).toBe(true);
    expect(sweepStale(join(root, "missing"), { ownerOf: () => DEAD_PID })).toBe(0);
  });

  it("sweeps the temp directories of a killed progagent process, not the live ones", () => {
    const root = scratch();
    const stale = join(root, `progagent-${DEAD_PID}-kernel-abc123`);
    mkdirSync(join(stale, "workspace"), { recursive: true });
    const own = createTempDir("kernel", root);
    expect(sweepStaleTempDirs(root)).toBe(1);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(own.path)).toBe(true);
    own.dispose();
    expect(existsSync(own.path)).toBe(false);
  });
});
