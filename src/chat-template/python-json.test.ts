import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { canonicalPythonJson, pythonFloatRepr } from "./python-json.js";

const SAMPLES = [
  '{"quantity": 1.0, "price": 2.50}',
  '{"b":1,"10":2,"a":[1e16,1e15,1e-5,0.0001,-0.0,0,-0,123456789012345678901234567890]}',
  '{"x": 1.5e300, "y": 5e-324, "z": 0.1, "w": 100.0, "v": 1E+2, "u": 12345.678901234567}',
  '{"text": "naïve café 日本 🚀 \\u00e9 \\n\\t\\u0001 \\"q\\" \\\\ \\u2028 \\u007f"}',
  "[]",
  "{}",
  '{"dup": 1, "other": 2, "dup": 3.25}',
  '{"n": NaN, "i": Infinity, "m": -Infinity}',
  ' {"nested": {"deep": [true, false, null, {"k": [1.10]}]}} ',
];

describe("Python-compatible JSON", () => {
  it("re-serialises exactly as json.dumps(json.loads(text), ensure_ascii=False)", () => {
    const python = execFileSync(
      "/usr/bin/python3",
      [
        "-c",
        "import json,sys\nfor line in json.load(sys.stdin): print(json.dumps(json.dumps(json.loads(line), ensure_ascii=False)))",
      ],
      { input: JSON.stringify(SAMPLES) },
    )
      .toString("utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as string);
    expect(SAMPLES.map((sample) => canonicalPythonJson(sample))).toEqual(python);
  });

  it("prints floats like Python's repr", () => {
    expect([1, 2.5, 1e16, 1e-5, 0.0001, -0, 1.5e300, 123.456].map(pythonFloatRepr)).toEqual([
      "1.0",
      "2.5",
      "1e+16",
      "1e-05",
      "0.0001",
      "-0.0",
      "1.5e+300",
      "123.456",
    ]);
  });

  it("returns undefined for text Python cannot parse", () => {
    expect(canonicalPythonJson("{'a': 1}")).toBeUndefined();
    expect(canonicalPythonJson('{"a": 1} trailing')).toBeUndefined();
  });
});
