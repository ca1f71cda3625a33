import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildInstance, createEpisode, defineTask, listWorkspaceFiles, runCells } from "../src/envs/index.js";
import { tinyTask } from "./fixtures/tiny-domain.js";

const cacheRoot = mkdtempSync(join(tmpdir(), "progagent-envs-test-"));
afterAll(() => rmSync(cacheRoot, { recursive: true, force: true }));

function digest(instance: ReturnType<typeof buildInstance>): string {
  const hash = createHash("sha256");
  hash.update(readFileSync(instance.dbPath));
  for (const file of listWorkspaceFiles(instance.workspaceDir))
    hash.update(file).update(readFileSync(join(instance.workspaceDir, file)));
  return hash.digest("hex");
}

describe("instances", () => {
  it("are deterministic: same seed and scale, same bytes; another seed differs", () => {
    const first = buildInstance(tinyTask, "v1", 3, join(cacheRoot, "a"));
    const second = buildInstance(tinyTask, "v1", 3, join(cacheRoot, "b"));
    expect(first.dir).not.toBe(second.dir);
    expect(digest(first)).toBe(digest(second));
    expect(digest(buildInstance(tinyTask, "v1", 4, join(cacheRoot, "a")))).not.toBe(digest(first));
  });

  it("grow with the scale and record their sizes", () => {
    const v0 = buildInstance(tinyTask, "v0", 0, cacheRoot).stats;
    const v3 = buildInstance(tinyTask, "v3", 0, cacheRoot).stats;
    expect(v0.rowsPerTable.items).toBe(30);
    expect(v3.rowsPerTable.items).toBe(240);
    expect(v0.fileCount).toBe(3);
    expect(v3.fileCount).toBe(9);
    expect(v3.dbBytes).toBeGreaterThan(v0.dbBytes);
    expect(v3.fileBytes).toBeGreaterThan(v0.fileBytes);
  });
});

describe("episodes", () => {
  it("never see each other's writes", async () => {
    await using first = await createEpisode(tinyTask, "v0", 0, { cacheDir: cacheRoot });
    await using second = await createEpisode(tinyTask, "v0", 0, { cacheDir: cacheRoot });
    await first.callTool("deactivate_item", { item_id: 3 });
    const read = async (episode: typeof first): Promise<number> => {
      const result = await episode.callTool("list_items", { per_page: 5 });
      return (result.structuredContent as { items: Array<{ id: number; active: number }> }).items.find(
        (item) => item.id === 3,
      )!.active;
    };
    expect(await read(first)).toBe(0);
    expect(await read(second)).toBe(1);
    // Episodes start from the instance's bytes, kept in memory once read: a later one starts clean too.
    await using third = await createEpisode(tinyTask, "v0", 0, { cacheDir: cacheRoot });
    expect(await read(third)).toBe(1);
  });

  it("hide the database, verifier and oracle from the sandbox", async () => {
    await using episode = await createEpisode(tinyTask, "v0", 0, { cacheDir: cacheRoot, withKernel: true });
    const probe = [
      "import os",
      "hits = []",
      "for top in ('/', ):",
      "    for root, dirs, files in os.walk(top):",
      "        if root == '/':",
      "            dirs[:] = [d for d in dirs if d not in ('proc', 'sys', 'dev', 'usr')]",
      "        for name in files:",
      "            path = os.path.join(root, name)",
      "            try:",
      "                if os.path.islink(path) or os.path.getsize(path) > 5_000_000:",
      "                    continue",
      "                with open(path, 'rb') as handle:",
      "                    data = handle.read()",
      "            except OSError:",
      "                continue",
      "            if data.startswith(b'SQLite format 3') or b'first-page-only' in data or b'checkOtherTablesUnchanged' in data:",
      "                hits.append(path)",
      "for packages in ('/usr/lib/node_modules', '/usr/local/lib/node_modules'):",
      "    if os.path.isdir(packages) and os.listdir(packages):",
      "        hits.append(packages)",
      "print('hits', hits)",
      "print(sorted(os.listdir('.')))",
      "print([name for name in globals() if not name.startswith('_')])",
    ].join("\n");
    const result = await episode.execute(probe, { timeoutMs: 60_000 });
    expect(result.text).toContain("hits []");
    expect(result.text).toContain("['memo.md', 'notes']");
    expect(result.text).toContain("['tools', 'ToolError', 'help', 'os', 'hits'");
  });

  it("end with a verdict; a verifier that throws gives reward 0 with the error recorded", async () => {
    {
      await using episode = await createEpisode(tinyTask, "v0", 0, { cacheDir: cacheRoot, withKernel: true });
      const run = await runCells(episode, tinyTask.oracle);
      const verdict = await episode.finish(run.answer);
      expect(verdict.reward).toBe(1);
      await expect(episode.callTool("list_items", {})).rejects.toMatchObject({ code: "EPISODE_FINISHED" });
    }
    const broken = defineTask({
      ...tinyTask,
      id: "tiny.broken",
      verify: () => {
        throw new Error("verifier bug");
      },
    });
    await using episode = await createEpisode(broken, "v0", 0, { cacheDir: cacheRoot });
    const verdict = await episode.finish("anything");
    expect(verdict.reward).toBe(0);
    expect(verdict.error).toContain("verifier bug");
  });

  it("let the verifier read the files a program wrote (the kernel ends, its workspace stays until dispose)", async () => {
    const report = defineTask({
      ...tinyTask,
      id: "tiny.report",
      workspaceWrite: true,
      verify: ({ final }) => [
        {
          id: "report",
          passed: final.readFile("out/report.txt") === "42\n",
          message: `report.txt holds ${JSON.stringify(final.readFile("out/report.txt"))}`,
        },
      ],
    });
    await using episode = await createEpisode(report, "v0", 0, { cacheDir: cacheRoot, withKernel: true });
    const written = await episode.execute(
      "import os\nos.makedirs('out', exist_ok=True)\nopen('out/report.txt', 'w').write('42\\n')",
    );
    expect(written.status).toBe("ok");
    const verdict = await episode.finish("");
    expect(verdict.checks[0]?.message).toBe('report.txt holds "42\\n"');
    expect(verdict.reward).toBe(1);
    await expect(episode.execute("print(1)")).rejects.toMatchObject({ code: "EPISODE_FINISHED" });
  });

  it("offer workspace tools that refuse paths outside the workspace", async () => {
    await using episode = await createEpisode(tinyTask, "v0", 0, { cacheDir: cacheRoot });
    const escape = await episode.callTool("read_file", { path: "../../../etc/passwd" });
    expect(escape.isError).toBe(true);
    expect(escape.content[0]?.text).toContain("outside the workspace");
    const memo = await episode.callTool("read_file", { path: "memo.md" });
    expect((memo.structuredContent as { content: string }).content).toContain("Deactivate items 3, 7, 11");
    const search = await episode.callTool("search_files", { query: "NOTE 1" });
    expect((search.structuredContent as { total: number }).total).toBe(1);
    const bad = await episode.callTool("list_files", { page: 0 });
    expect(bad.content[0]?.text).toMatch(
      /field 'page'.*Expected: list_files\(path: str = ".", page: int = 1, per_page: int = 50\)/,
    );
  });
});
