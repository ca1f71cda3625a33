import { describe, expect, it } from "vitest";
import {
  parseIntegerOption,
  parseNumberOption,
  parseScaleOption,
  parseScalesOption,
  parseSecondsOption,
} from "./options.js";

describe("CLI option parsing", () => {
  it("takes whole numbers where a count is meant and names the flag otherwise", () => {
    expect(parseIntegerOption("3", "--samples")).toBe(3);
    expect(parseIntegerOption("0", "--seed", { min: 0 })).toBe(0);
    for (const bad of ["1.5", "2.5", "1e3", "0x10", "", "-1", "two", "0"])
      expect(() => parseIntegerOption(bad, "--samples"), bad).toThrow(
        `--samples expects a positive integer, got '${bad}'`,
      );
    expect(() => parseIntegerOption("-1", "--seed", { min: 0 })).toThrow("a non-negative integer");
    expect(() => parseIntegerOption("99999", "--port", { min: 0, max: 65535 })).toThrow(
      "--port expects a non-negative integer <= 65535, got '99999'",
    );
  });

  it("takes decimals where a quantity may be fractional", () => {
    expect(parseNumberOption("0.7", "--temperature", { min: 0 })).toBe(0.7);
    expect(parseSecondsOption("1.5", "--timeout")).toBe(1500);
    for (const bad of ["0", "-2", "abc", "1e400", "Infinity"])
      expect(() => parseSecondsOption(bad, "--timeout"), bad).toThrow("--timeout expects a positive number");
  });

  it("takes exactly one scale where one instance is meant, a list where several are", () => {
    expect(parseScaleOption("v2")).toBe("v2");
    for (const bad of ["all", "v3,v1", "v4", ""])
      expect(() => parseScaleOption(bad), bad).toThrow(
        `--scale expects one scale (v0, v1, v2, v3), got '${bad}'`,
      );
    expect(parseScalesOption("v3,v1")).toEqual(["v3", "v1"]);
    expect(parseScalesOption("all")).toEqual(["v0", "v1", "v2", "v3"]);
  });
});
