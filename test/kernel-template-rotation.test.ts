/**
 * A template forks a bounded number of kernels and is then replaced (spawner.py, TEMPLATE_MAX_KERNELS): kernels
 * forked from one template share its address-space layout and string-hash secret. A retired template's kernels
 * keep running. The bound is 2 here (PROGAGENT_KERNEL_TEMPLATE_MAX, read when this file's spawner starts).
 */
import { afterAll, describe, expect, it } from "vitest";
import { createKernel, type Kernel } from "../src/kernel/index.js";
import { templatePids } from "./helpers/processes.js";

process.env.PROGAGENT_KERNEL_TEMPLATE_MAX = "2";

describe.skipIf(process.getuid?.() !== 0)("template rotation", () => {
  const kernels: Kernel[] = [];
  afterAll(async () => {
    await Promise.all(kernels.map((kernel) => kernel.dispose()));
    delete process.env.PROGAGENT_KERNEL_TEMPLATE_MAX;
  });

  it("replaces a template after its share of kernels, and its kernels outlive it", async () => {
    const seen = new Set<number>();
    for (let index = 0; index < 5; index += 1) {
      const kernel = createKernel({ launcher: "template" });
      kernels.push(kernel);
      expect((await kernel.execute(`value = ${index}\nvalue`)).value).toBe(String(index));
      for (const pid of templatePids()) seen.add(pid);
    }
    expect(seen.size).toBeGreaterThanOrEqual(3);
    const deadline = Date.now() + 10_000;
    while (templatePids().length > 1 && Date.now() < deadline)
      await new Promise((done) => setTimeout(done, 20));
    // The retired templates have exited; every kernel still has its state.
    expect(templatePids()).toHaveLength(1);
    const values = await Promise.all(kernels.map((kernel) => kernel.execute("value")));
    expect(values.map((result) => result.value)).toEqual(["0", "1", "2", "3", "4"]);
  });
});
