import { describe, expect, it } from "vitest";
import { loadSuite, SUITE_DOMAINS } from "../src/suite/index.js";

// The suite's shape; its validation (`tasks validate` inside npm test) runs in test/suite-validation/, in shards.
const suite = await loadSuite("*");

describe("the built-in suite", () => {
  it("has twenty-eight domains, at least eight tasks in each and 241 in all", () => {
    expect(SUITE_DOMAINS).toHaveLength(28);
    for (const domain of SUITE_DOMAINS) {
      expect(suite.filter((task) => task.domain.id === domain).length, domain).toBeGreaterThanOrEqual(8);
    }
    expect(suite.length).toBeGreaterThanOrEqual(241);
    expect(new Set(suite.map((task) => task.id)).size).toBe(suite.length);
  });
});
